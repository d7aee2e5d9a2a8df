import { type } from 'arktype'
import { nullableConnectionId, nullableId } from './common'

const id = '1 <= number.integer <= 9007199254740991'
const idOrNull = nullableId
const day = type(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/).describe('a day as YYYY-MM-DD')

export const repeatBody = type({
  '+': 'delete',
  freq: "'daily' | 'weekly' | 'monthly'",
  'weekdays?': '(0 <= number.integer <= 6)[] <= 7',
  until: day,
})

/**
 * `POST /schedules` and `PUT /schedules/{id}`. `sendAt` is an ISO instant (`2026-11-21T15:00:00Z`, or with an
 * offset) or a wall-clock time without offset (`2026-11-21 12:00:00`), read in the company's time zone. The
 * body's length ('Mensagem muito curta') is checked by the service on the trimmed text. `userId` is ignored
 * (the author is whoever saves); `whatsappIds` (the spec's list) counts as its first entry.
 */
export const scheduleBody = type({
  '+': 'delete',
  body: 'string <= 4096',
  contactId: id,
  sendAt: '0 < string <= 40',
  'openTicket?': "'enabled' | 'disabled'",
  'ticketUserId?': idOrNull,
  'queueId?': idOrNull,
  'statusTicket?': "'open' | 'closed'",
  'whatsappId?': nullableConnectionId,
  'whatsappIds?': type(id).array().atMostLength(10).or('null'),
  'repeat?': repeatBody.or('null'),
})

export type ScheduleInput = typeof scheduleBody.infer

/** `GET /schedules/`: search (contact name or body) and page; `contactId` narrows to one contact. */
export const listSchedulesQuery = type({
  '+': 'delete',
  'searchParam?': 'string <= 200',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
  'contactId?': type('string.integer.parse').to(id),
})

export type ListSchedulesQuery = typeof listSchedulesQuery.infer
