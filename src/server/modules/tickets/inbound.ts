import type { Database } from 'bun:sqlite'
import { type Connection, sqliteOf } from '../../db/connection'
import type { TicketRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { awaitingRating } from './awaiting-rating'
import { recordTicketEvent } from './events'
import { activeTicketRow, insertTicket, ticketRowInCompany } from './rows'

export type InboundTicketInput = {
  companyId: number
  contactId: number
  whatsappId: number
  isGroup: boolean
  now: number
}

export type InboundTicket = { ticket: TicketRow; created: boolean; reopened: boolean }

/**
 * The ticket an inbound message belongs to: the contact's open-or-pending ticket on that connection, or a new
 * pending one. Synchronous, inside the caller's transaction; never two active tickets (the partial unique index
 * `tickets_one_active`, and one writer at a time).
 *
 * The rule after a ticket was closed: a message from the customer opens a NEW pending ticket (the closed one
 * keeps its history and its place in the dashboard; the new one waits in the pending list to be accepted). Its
 * queue is the connection's queue when the connection has exactly one, otherwise none (the queue choice comes
 * later, from the chatbot or an attendant). Groups follow the same rule. Except: while a closed ticket waits for
 * the customer's rating (chatbot/ratings.ts, NPS), the customer's messages land on it. `reopened` is always false today: no
 * closed ticket is ever reopened by an inbound message (only a user's "reopen" does that).
 *
 * Records the 'created' ticket event (actor: the system). Publishes nothing: the caller inserts the message,
 * then publishes it with the ticket (`publishMessage(events, ticketDto, messageDto, 'create')`), which is what
 * puts the ticket in the lists of the users who may see it.
 */
export function findOrOpenInboundTicket(
  tx: Connection,
  input: InboundTicketInput,
  _events: EventBuffer,
): InboundTicket {
  const sqlite = sqliteOf(tx)
  const { companyId, contactId, whatsappId, isGroup, now } = input
  const active = activeTicketRow(sqlite, companyId, contactId, whatsappId)
  if (active) return { ticket: active, created: false, reopened: false }
  // A closed ticket waiting for its rating (chatbot/ratings.ts) takes the customer's answer.
  const rated = awaitingRating(sqlite, companyId, contactId, whatsappId, now)
  const ratedRow = rated == null ? undefined : ticketRowInCompany(sqlite, companyId, rated)
  if (ratedRow) return { ticket: ratedRow, created: false, reopened: false }
  const queueId = onlyQueueOf(sqlite, whatsappId)
  const ticket = insertTicket(sqlite, {
    companyId,
    contactId,
    whatsappId,
    queueId,
    userId: null,
    status: 'pending',
    isGroup,
    now,
  })
  recordTicketEvent(sqlite, {
    companyId,
    ticketId: ticket.id,
    type: 'created',
    actorUserId: null,
    from: null,
    to: { status: 'pending', userId: null, queueId, whatsappId },
    at: now,
  })
  return { ticket, created: true, reopened: false }
}

/** The connection's queue when it has exactly one. */
function onlyQueueOf(sqlite: Database, whatsappId: number): number | null {
  const rows = stmt<{ queueId: number }, [number]>(
    sqlite,
    'SELECT queue_id AS queueId FROM whatsapp_queues WHERE whatsapp_id = ? LIMIT 2',
  ).all(whatsappId)
  return rows.length === 1 ? rows[0]!.queueId : null
}
