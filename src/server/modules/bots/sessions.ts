/**
 * The rows of `bot_sessions` (db/schema/bots.ts): where an external bot is with a ticket. The dispatcher owns
 * their life (dispatch.ts); a bot with its own session on the other side (Typebot) reads and keeps its id here.
 */
import type { Database } from 'bun:sqlite'
import type { BotSessionStatus } from '../../db/schema/bots'
import { stmt } from '../../db/statements'

export type BotSession = {
  ticketId: number
  companyId: number
  kind: string
  botId: number
  externalId: string | null
  status: BotSessionStatus
  lastMessageId: number
  lastActivityAt: number
  createdAt: number
}

export function loadBotSession(sqlite: Database, ticketId: number): BotSession | null {
  return stmt<BotSession, [number]>(
    sqlite,
    `SELECT ticket_id AS ticketId, company_id AS companyId, kind, bot_id AS botId, external_id AS externalId,
            status, last_message_id AS lastMessageId, last_activity_at AS lastActivityAt, created_at AS createdAt
       FROM bot_sessions WHERE ticket_id = ?`,
  ).get(ticketId)
}

/** Keeps (or, with null, forgets) the bot's own session id for a ticket. */
export function setExternalSession(
  sqlite: Database,
  ticketId: number,
  externalId: string | null,
  now: number,
) {
  stmt(sqlite, 'UPDATE bot_sessions SET external_id = ?, updated_at = ? WHERE ticket_id = ?').run(
    externalId,
    now,
    ticketId,
  )
}

/** Sets a session's status (and clears the ticket's `chatbot` flag once the bot is no longer answering). */
export function setBotSessionStatus(
  sqlite: Database,
  ticketId: number,
  status: BotSessionStatus,
  now: number,
) {
  stmt(sqlite, 'UPDATE bot_sessions SET status = ?, updated_at = ? WHERE ticket_id = ?').run(
    status,
    now,
    ticketId,
  )
  if (status !== 'active')
    stmt(sqlite, 'UPDATE tickets SET chatbot = 0 WHERE id = ? AND chatbot = 1').run(ticketId)
}
