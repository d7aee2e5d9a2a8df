import type { Deps } from '../../context'
import { transact } from '../../context'
import { stmt } from '../../db/statements'
import { outboundSender } from '../messages/outbound'
import { publishSchedule } from './rows'

const MAX_REASON = 500

/**
 * ENVIANDO -> ENVIADA or ERRO, from the state of the schedule's message (all of them, or one). A message
 * still queued or sending is left to the sender.
 */
export function settleSchedules(deps: Deps, scheduleId?: number) {
  const rows = stmt<
    {
      id: number
      companyId: number
      messageId: number | null
      sendState: string | null
      sendError: string | null
      isDeleted: number | null
      sentAt: number | null
    },
    [number | null]
  >(
    deps.sqlite,
    `SELECT s.id, s.company_id AS companyId, s.message_id AS messageId, m.send_state AS sendState,
            m.send_error AS sendError, m.is_deleted AS isDeleted, m.updated_at AS sentAt
       FROM schedules s LEFT JOIN messages m ON m.id = s.message_id
      WHERE s.status = 'ENVIANDO' AND (?1 IS NULL OR s.id = ?1)`,
  ).all(scheduleId ?? null)
  for (const r of rows) {
    if (r.sendState === 'queued' || r.sendState === 'sending') continue
    const now = deps.clock.now()
    transact(deps, (sqlite, events) => {
      let changed: number
      if (r.sendState === 'sent')
        changed = sqlite
          .query(
            `UPDATE schedules SET status = 'ENVIADA', sent_at = ?, error = NULL, updated_at = ?
              WHERE id = ? AND status = 'ENVIANDO'`,
          )
          .run(Math.min(r.sentAt ?? now, now), now, r.id).changes
      else {
        const reason =
          r.sendState === 'failed'
            ? (r.sendError ?? 'ERR_SENDING_WAPP_MSG')
            : r.messageId == null
              ? 'ERR_SEND_INTERRUPTED: interrupted before its message was written; retry to send it'
              : 'ERR_SENDING_WAPP_MSG: the message was deleted before it was sent'
        changed = sqlite
          .query(
            `UPDATE schedules SET status = 'ERRO', error = ?, updated_at = ? WHERE id = ? AND status = 'ENVIANDO'`,
          )
          .run(reason.slice(0, MAX_REASON), now, r.id).changes
      }
      if (changed) publishSchedule(deps, events, r.companyId, r.id, 'update')
    })
  }
}

/**
 * A retried schedule's message went back in line: send it, settle the schedule, and let the runner look again
 * (through the jobs, so the service that retries needs no runner).
 */
export function followRetried(deps: Deps, scheduleId: number, messageId: number) {
  void outboundSender(deps)
    .kick([messageId])
    .then(() => settleSchedules(deps, scheduleId))
    .then(() => deps.jobs.wake('schedules'))
}
