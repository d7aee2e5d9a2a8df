/**
 * The boot catch-up: nothing a customer wrote goes unanswered because the server stopped.
 *
 * The live path (runner.ts) handles a message after the inbound transaction committed it, from memory: should the
 * process stop (a crash, `kill -9`) between the two, the message is stored, its ticket waits, and nobody answers.
 * At boot, before any session starts (so before any live message), `catchUp` answers those messages as the live
 * path would have, in their order:
 *
 * - which tickets: the candidates of the live path (runner.ts), read from the rows: pending, no user, not a
 *   group, not made by a history import, on a connection where the bot has something to say, whose session is
 *   still going, or which have none yet and either no queue or were opened by the message; and closed tickets
 *   waiting for their rating ('nps', not expired);
 * - which messages: the customer's (from_me = 0) stored after both the ticket's session mark (`last_message_id`,
 *   the newest message the bot handled: a handled message is never answered again, by either path) and the bot's
 *   watermark (`chatbot_catch_up`: the newest message id when the bot last started on this database);
 * - the bound: the first start of a bot on a database only writes the watermark (the newest message id then), so
 *   the pending tickets of a database older than the bot are never greeted; each boot then moves the watermark
 *   to the newest id it looked at, once it handled them, so a boot reads only what arrived since the previous one.
 *   (A message the live path looked at and deliberately left, say on a connection that had nothing to say then,
 *   leaves no mark: should the connection have got a menu since, the customer, still waiting without a queue,
 *   gets it at the next boot, once.)
 *
 * Each message goes through `ChatbotRunner.handle` (its own transaction, which checks the session's mark again),
 * so a catch-up that races the live path, or runs twice, answers once. The answers are written as queued
 * outbound rows and not kicked here: the sender's boot resume (serve.ts, right after) sends them with the boot's
 * grace for reconnecting sessions.
 */
import type { Deps } from '../../context'
import { stmt } from '../../db/statements'
import { ACTIVE_NODES, type ChatbotRunner } from './runner'

const ACTIVE_LIST = [...ACTIVE_NODES].map((n) => `'${n}'`).join(', ')

/** The customer's messages still to handle, per candidate ticket (see the file's comment). */
const CANDIDATES = `
  SELECT t.id AS ticketId, max(?1, coalesce(s.last_message_id, 0)) AS handled
    FROM whatsapps w
    -- connections first (CROSS JOIN keeps the order): their pending tickets through the status index
    CROSS JOIN tickets t ON t.company_id = w.company_id AND t.status = 'pending' AND t.whatsapp_id = w.id
    LEFT JOIN chatbot_sessions s ON s.ticket_id = t.id
   WHERE NOT (w.greeting_message = '' AND w.out_of_hours_message = '' AND w.collective_vacation_message = ''
              AND w.enable_lgpd = 0
              AND NOT EXISTS (SELECT 1 FROM whatsapp_queues q WHERE q.whatsapp_id = w.id))
     AND t.user_id IS NULL AND t.is_group = 0 AND t.imported = 0
     AND (s.node IN (${ACTIVE_LIST}) OR s.ticket_id IS NULL)
     AND EXISTS (SELECT 1 FROM messages m WHERE m.ticket_id = t.id AND m.from_me = 0
                    AND m.id > max(?1, coalesce(s.last_message_id, 0)) AND m.id <= ?2)
  UNION ALL
  SELECT s.ticket_id AS ticketId, max(?1, s.last_message_id) AS handled
    FROM chatbot_sessions s INDEXED BY chatbot_sessions_expiry JOIN tickets t ON t.id = s.ticket_id
   WHERE s.node = 'nps' AND s.expires_at > ?3 AND t.status = 'closed'
     AND EXISTS (SELECT 1 FROM messages m WHERE m.ticket_id = s.ticket_id AND m.from_me = 0
                    AND m.id > max(?1, s.last_message_id) AND m.id <= ?2)
  ORDER BY ticketId`

export type CatchUpResult = { tickets: number; messages: number; answers: number[] }

/**
 * Answers the customer messages stored since the bot's watermark that it never handled (see the file's
 * comment), then moves the watermark. Synchronous; call at boot before the sessions start (startChatbot).
 */
export function catchUp(deps: Deps, runner: ChatbotRunner): CatchUpResult {
  const { sqlite } = deps
  const now = deps.clock.now()
  const result: CatchUpResult = { tickets: 0, messages: 0, answers: [] }
  const top =
    stmt<{ id: number }, []>(sqlite, 'SELECT coalesce(max(id), 0) AS id FROM messages').get()?.id ?? 0
  const mark = stmt<{ messageId: number }, []>(
    sqlite,
    'SELECT message_id AS messageId FROM chatbot_catch_up WHERE id = 1',
  ).get()
  if (!mark) {
    // the first bot on this database: what is already there was never its to answer
    stmt(
      sqlite,
      'INSERT INTO chatbot_catch_up (id, message_id, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING',
    ).run(top, now)
    return result
  }
  if (top <= mark.messageId) return result

  const tickets = stmt<{ ticketId: number; handled: number }, [number, number, number]>(
    sqlite,
    CANDIDATES,
  ).all(mark.messageId, top, now)
  const unhandled = stmt<{ id: number; body: string }, [number, number, number]>(
    sqlite,
    'SELECT id, body FROM messages WHERE ticket_id = ? AND from_me = 0 AND id > ? AND id <= ? ORDER BY id',
  )
  const first = stmt<{ id: number }, [number]>(
    sqlite,
    'SELECT min(id) AS id FROM messages WHERE ticket_id = ?',
  )
  let failed = false
  for (const { ticketId, handled } of tickets) {
    const messages = unhandled.all(ticketId, handled, top)
    if (!messages.length) continue
    result.tickets++
    // the live path's `ticketCreated`: the message opened the ticket (nothing stored on it before)
    const opener = first.get(ticketId)?.id
    for (const m of messages) {
      try {
        const ids = runner.handle(
          { ticketId, messageId: m.id, text: m.body, ticketCreated: m.id === opener },
          false,
        )
        result.messages++
        result.answers.push(...ids)
      } catch (err) {
        // this ticket's later messages wait with it for the next boot (the watermark stays)
        failed = true
        deps.log.error('chatbot catch-up: message not handled', {
          ticketId,
          messageId: m.id,
          error: (err as Error).message,
        })
        break
      }
    }
  }
  if (!failed)
    stmt(
      sqlite,
      'UPDATE chatbot_catch_up SET message_id = ?, updated_at = ? WHERE id = 1 AND message_id < ?',
    ).run(top, now, top)
  if (result.messages)
    deps.log.info('chatbot: answered the messages stored before the server stopped', {
      tickets: result.tickets,
      messages: result.messages,
      answers: result.answers.length,
    })
  return result
}
