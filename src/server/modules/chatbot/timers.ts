/**
 * The connections' timers, as sweeps over rows (the state is the rows, so a restart loses nothing and the
 * first sweep after a boot catches up with what fell due while the server was down). Every `intervalMs`
 * (deps.clock), for every connection that has them:
 *
 * - timeSendQueue / sendIdQueue: a pending ticket with no queue and no user, opened timeSendQueue minutes ago
 *   or more, moves to the sendIdQueue queue (a 'transferred' event by the system; its bot session ends; the
 *   transfer notice is sent when sendMsgTransfTicket is 'enabled');
 * - expiresTicket / expiresInactiveMessage: an open ticket untouched (updated_at) for expiresTicket minutes or
 *   more closes (a 'closed' event by the system), and the customer receives expiresInactiveMessage;
 * - NPS (ratings.ts): a rating question unanswered after expiresTicketNPS minutes ends (the ticket is already
 *   closed; nothing is sent, and the customer's next message opens a new ticket).
 *
 * Each ticket is its own transaction; messages are sent after commit.
 */

import type { Deps } from '../../context'
import { transact } from '../../context'
import { stmt } from '../../db/statements'
import { IntervalJob } from '../../jobs/interval'
import { afterOutboundCommit } from '../messages/outbound'
import { transferNotice } from '../tickets/notices'
import { loadBotTicket, moveTicket } from '../tickets/system'
import { writeTemplate } from './apply'
import { botSettings, endSession } from './context'
import { finishedOf } from './finished'

export type SweepResult = { redirected: number; expired: number; ratingsExpired: number }

type RedirectRow = { id: number; companyId: number; minutes: number; queueId: number }
type ExpireRow = { id: number; companyId: number; minutes: number; message: string }

const BATCH = 200

/** Sweeps now (what fell due while the server was down), then every interval. */
export class ChatbotTimers extends IntervalJob {
  constructor(
    private readonly deps: Deps,
    intervalMs = 30_000,
  ) {
    super(deps.clock, intervalMs)
  }

  protected tick() {
    this.sweep()
  }

  protected failed(err: Error) {
    this.deps.log.error('chatbot timers: sweep failed', { error: err.message })
  }

  /** One sweep over every connection's timers. */
  sweep(): SweepResult {
    const result: SweepResult = { redirected: 0, expired: 0, ratingsExpired: 0 }
    const ids: number[] = []
    const now = this.deps.clock.now()
    const { sqlite } = this.deps

    const redirects = stmt<RedirectRow, []>(
      sqlite,
      `SELECT w.id, w.company_id AS companyId, w.time_send_queue AS minutes, w.send_id_queue AS queueId
         FROM whatsapps w WHERE w.time_send_queue > 0 AND w.send_id_queue IS NOT NULL`,
    ).all()
    for (const w of redirects) {
      const due = stmt<{ id: number }, [number, number, number, number]>(
        sqlite,
        `SELECT id FROM tickets
          WHERE company_id = ? AND status = 'pending' AND whatsapp_id = ? AND queue_id IS NULL AND user_id IS NULL
            AND created_at <= ? ORDER BY id LIMIT ?`,
      ).all(w.companyId, w.id, now - w.minutes * 60_000, BATCH)
      for (const { id } of due) if (this.redirect(id, w, ids)) result.redirected++
    }

    const expiring = stmt<ExpireRow, []>(
      sqlite,
      `SELECT w.id, w.company_id AS companyId, w.expires_ticket AS minutes, w.expires_inactive_message AS message
         FROM whatsapps w WHERE w.expires_ticket > 0`,
    ).all()
    for (const w of expiring) {
      const due = stmt<{ id: number }, [number, number, number, number]>(
        sqlite,
        `SELECT id FROM tickets
          WHERE company_id = ? AND status = 'open' AND updated_at <= ? AND whatsapp_id = ? ORDER BY id LIMIT ?`,
      ).all(w.companyId, now - w.minutes * 60_000, w.id, BATCH)
      for (const { id } of due) if (this.expire(id, w, ids)) result.expired++
    }

    result.ratingsExpired = stmt(
      sqlite,
      `UPDATE chatbot_sessions SET node = 'done', updated_at = ?1 WHERE node = 'nps' AND expires_at <= ?1`,
    ).run(now).changes

    if (ids.length) void afterOutboundCommit(this.deps, ids)
    return result
  }

  private redirect(ticketId: number, w: RedirectRow, ids: number[]): boolean {
    const queue = stmt<{ name: string }, [number, number]>(
      this.deps.sqlite,
      'SELECT name FROM queues WHERE id = ? AND company_id = ?',
    ).get(w.queueId, w.companyId)
    if (!queue) return false
    return transact(this.deps, (sqlite, events) => {
      const ticket = loadBotTicket(sqlite, ticketId)
      // checked again inside the transaction: an attendant may have taken it meanwhile
      if (ticket?.status !== 'pending' || ticket.queueId != null || ticket.userId != null) return false
      moveTicket(
        this.deps,
        sqlite,
        events,
        ticket,
        { status: 'pending', queueId: w.queueId, userId: null },
        'transferred',
      )
      endSession(sqlite, ticketId, this.deps.clock.now())
      finishedOf(this.deps).add(ticketId)
      const settings = botSettings(sqlite, ticket.companyId)
      if (settings.sendMsgTransfTicket === 'enabled')
        ids.push(
          ...writeTemplate(
            this.deps,
            sqlite,
            events,
            { ...ticket, queueId: w.queueId },
            transferNotice({ userName: null, queueName: queue.name }),
            settings.timeZone,
          ),
        )
      return true
    })
  }

  private expire(ticketId: number, w: ExpireRow, ids: number[]): boolean {
    return transact(this.deps, (sqlite, events) => {
      const ticket = loadBotTicket(sqlite, ticketId)
      if (ticket?.status !== 'open') return false
      const timeZone = botSettings(sqlite, ticket.companyId).timeZone
      // the message first, on the open ticket, then the close (the message's update must not keep it alive)
      if (w.message.trim()) ids.push(...writeTemplate(this.deps, sqlite, events, ticket, w.message, timeZone))
      moveTicket(
        this.deps,
        sqlite,
        events,
        ticket,
        { status: 'closed', queueId: ticket.queueId, userId: ticket.userId },
        'closed',
      )
      return true
    })
  }
}
