import { type Connection, sqliteOf } from '../../db/connection'
import type { TicketEventType, TicketStatus } from '../../db/schema/tickets'
import { stmt } from '../../db/statements'

/** Where a ticket is: its status, user, queue and connection. */
export type TicketState = {
  status: TicketStatus
  userId: number | null
  queueId: number | null
  whatsappId: number | null
}

export type TicketEventInput = {
  companyId: number
  ticketId: number
  type: TicketEventType
  /** The user who acted; null for the system (an inbound message, a job) or an API token. */
  actorUserId: number | null
  /** Null for 'created'. */
  from: TicketState | null
  to: TicketState
  at: number
}

const INSERT_SQL = `INSERT INTO ticket_events (company_id, ticket_id, type, actor_user_id, from_status, to_status,
  from_user_id, to_user_id, from_queue_id, to_queue_id, from_whatsapp_id, to_whatsapp_id, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

/**
 * Records a change of a ticket's state (created, accepted, transferred, returned, closed, reopened): who, when,
 * from where to where, for the dashboard. Call it inside the transaction that makes the change.
 */
export function recordTicketEvent(tx: Connection, e: TicketEventInput) {
  stmt(sqliteOf(tx), INSERT_SQL).run(
    e.companyId,
    e.ticketId,
    e.type,
    e.actorUserId,
    e.from?.status ?? null,
    e.to.status,
    e.from?.userId ?? null,
    e.to.userId,
    e.from?.queueId ?? null,
    e.to.queueId,
    e.from?.whatsappId ?? null,
    e.to.whatsappId,
    e.at,
  )
}
