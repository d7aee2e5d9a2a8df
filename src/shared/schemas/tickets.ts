import { type } from 'arktype'
import { daysInMonth } from '../timezone'
import { nullableConnectionId, nullableId } from './common'

/** A list of record ids sent as JSON text in a query string (`queueIds=[1,2]`): bad JSON is a 400, never a 500. */
const idList = type('string.json.parse').to(type('(1 <= number.integer <= 9007199254740991)[] <= 200'))

const flag = type("'true' | 'false'").pipe((s) => s === 'true')

/** `YYYY-MM-DD…` names a day the calendar has: Date.parse would roll 2026-02-31 into March. */
function startsWithRealDay(s: string): boolean {
  const month = Number(s.slice(5, 7))
  const day = Number(s.slice(8, 10))
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(s.slice(0, 4)), month)
}

/**
 * A calendar day of the company (its timezone setting): `YYYY-MM-DD`, or an ISO instant such as
 * `2026-11-28T03:00:00.000Z` (what date pickers send), which stands for the company's day it falls in.
 */
const day = type(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/)
  .narrow(startsWithRealDay)
  .or(
    type(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i).narrow(
      (s) => startsWithRealDay(s) && Number.isFinite(Date.parse(s)),
    ),
  )
  .describe('a day as YYYY-MM-DD or an ISO instant')

/** `GET /tickets`: every filter of the spec; lists travel as JSON text. Empty values count as absent. */
export const listTicketsQuery = type({
  '+': 'delete',
  'searchParam?': 'string <= 200',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
  'status?': "'open' | 'pending' | 'closed' | ''",
  'showAll?': flag,
  'withUnreadMessages?': flag,
  'queueIds?': idList,
  'users?': idList,
  'tags?': idList,
  'date?': day,
  'updatedAt?': day,
  /** Our addition: the groups tab asks `isGroup=true`, the other lists `isGroup=false`; absent gives both. */
  'isGroup?': flag,
})

export type ListTicketsQuery = typeof listTicketsQuery.infer

/** `GET /tickets/counts`: the tabs' badges, with the list's own show-all and queue selection. */
export const ticketCountsQuery = type({
  '+': 'delete',
  'showAll?': flag,
  'queueIds?': idList,
})

export type TicketCountsQuery = typeof ticketCountsQuery.infer

const id = '1 <= number.integer <= 9007199254740991'

/**
 * `PUT /tickets/{id}`: the spec sends `status` and `userId`, a transfer adds `queueId` and `whatsappId`.
 * `sendFarewellMessage: false` closes without the farewell (default: with it).
 */
export const updateTicketBody = type({
  '+': 'delete',
  'status?': "'open' | 'pending' | 'closed'",
  'userId?': nullableId,
  'queueId?': nullableId,
  /**
   * A ticket always has a connection: the spec's client's "none" (`""`, `false`) keeps the one it has; an explicit
   * null asks for the impossible and is refused.
   */
  'whatsappId?': type(id).or(type("'' | false").pipe(() => undefined)),
  'sendFarewellMessage?': 'boolean',
})

export type UpdateTicketInput = typeof updateTicketBody.infer

/** `POST /tickets`: a new open ticket for a contact. A queue is required unless the user is an admin. */
export const createTicketBody = type({
  '+': 'delete',
  contactId: id,
  'queueId?': nullableId,
  'whatsappId?': nullableConnectionId,
  'userId?': nullableId,
  /** Sent by the spec's client (always 'open'); `companyId` too, which is dropped: it comes from the session. */
  'status?': "'open'",
})

export type CreateTicketInput = typeof createTicketBody.infer
