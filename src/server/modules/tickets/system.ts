/**
 * A ticket as the system (the chatbot, the external bots, their timers) reads and moves it: no user acts, so no
 * access rule applies; the ticket event and the live update are written as for a person's change.
 */
import type { Database } from 'bun:sqlite'
import type { Deps } from '../../context'
import type { TicketStatus } from '../../db/schema/tickets'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { loadTicketDtos } from './dto'
import { recordTicketEvent } from './events'
import { publishTicket } from './live'

export type BotTicket = {
  id: number
  companyId: number
  contactId: number
  whatsappId: number | null
  status: 'open' | 'pending' | 'closed'
  queueId: number | null
  userId: number | null
  isGroup: number
  createdAt: number
}

export function loadBotTicket(sqlite: Database, ticketId: number): BotTicket | null {
  return stmt<BotTicket, [number]>(
    sqlite,
    `SELECT id, company_id AS companyId, contact_id AS contactId, whatsapp_id AS whatsappId, status,
            queue_id AS queueId, user_id AS userId, is_group AS isGroup, created_at AS createdAt
       FROM tickets WHERE id = ?`,
  ).get(ticketId)
}

/**
 * Moves a ticket (by the system): its status, queue and user, with the ticket event and the live update (to the
 * rooms that saw it before and those that see it now). `closed` sets closed_at and clears unread.
 */
export function moveTicket(
  deps: Deps,
  tx: Database,
  events: EventBuffer,
  ticket: BotTicket,
  to: { status: TicketStatus; queueId: number | null; userId: number | null },
  type: 'transferred' | 'closed',
) {
  const now = deps.clock.now()
  stmt(
    tx,
    `UPDATE tickets SET status = ?1, queue_id = ?2, user_id = ?3, updated_at = ?4, chatbot = 0,
            closed_at = CASE WHEN ?1 = 'closed' THEN ?4 ELSE closed_at END,
            unread_messages = CASE WHEN ?1 = 'closed' THEN 0 ELSE unread_messages END
      WHERE id = ?5`,
  ).run(to.status, to.queueId, to.userId, now, ticket.id)
  recordTicketEvent(tx, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    type,
    actorUserId: null,
    from: {
      status: ticket.status,
      userId: ticket.userId,
      queueId: ticket.queueId,
      whatsappId: ticket.whatsappId,
    },
    to: { ...to, whatsappId: ticket.whatsappId },
    at: now,
  })
  const dto = loadTicketDtos(tx, [ticket.id])[0]
  if (dto)
    publishTicket(events, dto, {
      id: ticket.id,
      companyId: ticket.companyId,
      queueId: ticket.queueId,
      userId: ticket.userId,
    })
}
