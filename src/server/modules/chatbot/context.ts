/**
 * Reads what the machine needs (machine.ts `BotContext`) and the ticket's bot state from the database, and
 * writes the state back. Plain prepared statements; nothing here decides anything.
 */

import type { Database } from 'bun:sqlite'
import { effectiveSchedules } from '../../../shared/schedules'
import { SETTINGS } from '../../../shared/settings'
import { DEFAULT_TIMEZONE, isValidTimeZone } from '../../../shared/timezone'
import type { ChatbotNode } from '../../db/schema/chatbot'
import type { QueueOptionRow, QueueRow as QueueTableRow } from '../../db/schema/queues'
import { stmt } from '../../db/statements'
import type { BotTicket } from '../tickets/system'
import type { BotContext, BotOption, BotQueue, BotState } from './machine'

export type SessionRow = BotState & {
  ticketId: number
  lastMessageId: number
  userId: number | null
  expiresAt: number | null
}

export function loadSession(sqlite: Database, ticketId: number): SessionRow | null {
  return stmt<SessionRow, [number]>(
    sqlite,
    `SELECT ticket_id AS ticketId, node, queue_id AS queueId, option_id AS optionId, attempts,
            window_start AS windowStart, last_prompt_at AS lastPromptAt, last_message_id AS lastMessageId,
            user_id AS userId, expires_at AS expiresAt
       FROM chatbot_sessions WHERE ticket_id = ?`,
  ).get(ticketId)
}

/** Writes the ticket's bot state (insert or update), with the newest message it handled. */
export function saveSession(
  sqlite: Database,
  ticket: Pick<BotTicket, 'id' | 'companyId' | 'contactId' | 'whatsappId'>,
  state: BotState & { lastMessageId: number; userId?: number | null; expiresAt?: number | null },
  now: number,
) {
  stmt(
    sqlite,
    `INSERT INTO chatbot_sessions (ticket_id, company_id, contact_id, whatsapp_id, node, queue_id, option_id,
            attempts, window_start, last_prompt_at, last_message_id, user_id, expires_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14)
     ON CONFLICT (ticket_id) DO UPDATE SET node = ?5, queue_id = ?6, option_id = ?7, attempts = ?8,
            window_start = ?9, last_prompt_at = ?10, last_message_id = max(last_message_id, ?11),
            user_id = ?12, expires_at = ?13, updated_at = ?14`,
  ).run(
    ticket.id,
    ticket.companyId,
    ticket.contactId,
    ticket.whatsappId ?? 0,
    state.node as ChatbotNode,
    state.queueId,
    state.optionId,
    state.attempts,
    state.windowStart,
    state.lastPromptAt,
    state.lastMessageId,
    state.userId ?? null,
    state.expiresAt ?? null,
    now,
  )
}

/**
 * A person (or a timer) moved the ticket: the bot lets go of it (its menu would fight the attendant's choice).
 * A rating question ('nps') is left alone. Clears the ticket's `chatbot` flag; call inside the change's transaction.
 */
export function endSession(sqlite: Database, ticketId: number, now: number) {
  stmt(
    sqlite,
    `UPDATE chatbot_sessions SET node = 'done', updated_at = ? WHERE ticket_id = ? AND node NOT IN ('done', 'nps')`,
  ).run(now, ticketId)
  stmt(sqlite, 'UPDATE tickets SET chatbot = 0 WHERE id = ? AND chatbot = 1').run(ticketId)
}

type ConnectionRow = BotContext['connection']

/** The settings the bot reads, with the catalogue's defaults; `timezone` as `companyTimeZone` reads it. */
export function botSettings(sqlite: Database, companyId: number) {
  const rows = stmt<{ key: string; value: string }, [number]>(
    sqlite,
    `SELECT key, value FROM settings
      WHERE company_id = ? AND key IN ('scheduleType', 'chatBotType', 'timezone', 'userRating', 'sendMsgTransfTicket')`,
  ).all(companyId)
  const map = new Map(rows.map((r) => [r.key, r.value]))
  const timezone = map.get('timezone')
  return {
    scheduleType: map.get('scheduleType') ?? SETTINGS.scheduleType.default,
    chatBotType: map.get('chatBotType') ?? SETTINGS.chatBotType.default,
    userRating: map.get('userRating') ?? SETTINGS.userRating.default,
    sendMsgTransfTicket: map.get('sendMsgTransfTicket') ?? SETTINGS.sendMsgTransfTicket.default,
    timeZone: timezone && isValidTimeZone(timezone) ? timezone : DEFAULT_TIMEZONE,
  }
}

type StoredConnection = Omit<ConnectionRow, 'schedules' | 'enableLGPD' | 'lgpdConsent'> & {
  schedules: string
  enableLGPD: number
  lgpdConsent: number
}

export function loadConnection(sqlite: Database, whatsappId: number): ConnectionRow | null {
  const row = stmt<StoredConnection, [number]>(
    sqlite,
    `SELECT greeting_message AS greetingMessage, out_of_hours_message AS outOfHoursMessage,
            complation_message AS complationMessage, rating_message AS ratingMessage,
            max_use_bot_queues AS maxUseBotQueues, time_use_bot_queues AS timeUseBotQueues,
            max_use_bot_queues_nps AS maxUseBotQueuesNPS, collective_vacation_start AS collectiveVacationStart,
            collective_vacation_end AS collectiveVacationEnd, collective_vacation_message AS collectiveVacationMessage,
            enable_lgpd AS enableLGPD, lgpd_message AS lgpdMessage, lgpd_link AS lgpdLink,
            lgpd_consent AS lgpdConsent, schedules
       FROM whatsapps WHERE id = ?`,
  ).get(whatsappId)
  if (!row) return null
  return {
    ...row,
    enableLGPD: !!row.enableLGPD,
    lgpdConsent: !!row.lgpdConsent,
    schedules: effectiveSchedules(row.schedules),
  }
}

type QueueRow = Pick<
  QueueTableRow,
  'id' | 'name' | 'greetingMessage' | 'outOfHoursMessage' | 'schedules' | 'fileListId'
>
type OptionRow = Pick<
  QueueOptionRow,
  'id' | 'parentId' | 'option' | 'title' | 'message' | 'mediaPath' | 'mediaName' | 'mediaMime'
>

/** The connection's queues in menu order (the queue's order, then id), each with its option tree. */
export function loadQueues(sqlite: Database, whatsappId: number): BotQueue[] {
  const queues = stmt<QueueRow, [number]>(
    sqlite,
    `SELECT q.id, q.name, q.greeting_message AS greetingMessage, q.out_of_hours_message AS outOfHoursMessage,
            q.schedules, q.file_list_id AS fileListId
       FROM whatsapp_queues wq JOIN queues q ON q.id = wq.queue_id
      WHERE wq.whatsapp_id = ? ORDER BY q.order_queue, q.id`,
  ).all(whatsappId)
  const options = stmt<OptionRow, [number]>(
    sqlite,
    `SELECT id, parent_id AS parentId, option, title, message, media_path AS mediaPath, media_name AS mediaName,
            media_mime AS mediaMime
       FROM queue_options WHERE queue_id = ? ORDER BY id`,
  )
  // The list's options with a file, only when the list is of the queue's company.
  const files = stmt<
    { name: string; path: string; mediaType: string | null; mediaName: string | null },
    [number]
  >(
    sqlite,
    `SELECT o.name, o.path, o.media_type AS mediaType, o.media_name AS mediaName
       FROM queues q JOIN files f ON f.id = q.file_list_id AND f.company_id = q.company_id
       JOIN file_options o ON o.file_id = f.id
      WHERE q.id = ? AND o.path IS NOT NULL ORDER BY o.id`,
  )
  return queues.map((q) => ({
    id: q.id,
    name: q.name,
    greetingMessage: q.greetingMessage,
    outOfHoursMessage: q.outOfHoursMessage,
    schedules: effectiveSchedules(q.schedules),
    files:
      q.fileListId == null
        ? []
        : files.all(q.id).map((f) => ({
            caption: f.name,
            media: {
              path: f.path,
              name: f.mediaName ?? f.path,
              mime: f.mediaType ?? 'application/octet-stream',
            },
          })),
    options: options.all(q.id).map(
      (o): BotOption => ({
        id: o.id,
        parentId: o.parentId,
        option: o.option,
        title: o.title,
        message: o.message,
        media: o.mediaPath
          ? {
              path: o.mediaPath,
              name: o.mediaName ?? o.mediaPath,
              mime: o.mediaMime ?? 'application/octet-stream',
            }
          : null,
      }),
    ),
  }))
}

type ContactState = { name: string; disableBot: number; lgpdConsent: 'accepted' | 'refused' | null }

export function loadContact(sqlite: Database, contactId: number): ContactState {
  return (
    stmt<ContactState, [number]>(
      sqlite,
      'SELECT name, disable_bot AS disableBot, lgpd_consent AS lgpdConsent FROM contacts WHERE id = ?',
    ).get(contactId) ?? { name: '', disableBot: 0, lgpdConsent: null }
  )
}

/** No earlier ticket of the contact (any connection): this is its first conversation. */
export function isFirstConversation(sqlite: Database, ticket: Pick<BotTicket, 'id' | 'contactId'>) {
  return !stmt<{ one: number }, [number, number]>(
    sqlite,
    'SELECT 1 AS one FROM tickets WHERE contact_id = ? AND id < ? LIMIT 1',
  ).get(ticket.contactId, ticket.id)
}

/** Everything `decide` needs about a ticket, now. */
export function loadBotContext(
  sqlite: Database,
  ticket: BotTicket,
  now: number,
  hasBot = false,
): BotContext | null {
  if (ticket.whatsappId == null) return null
  const connection = loadConnection(sqlite, ticket.whatsappId)
  if (!connection) return null
  const settings = botSettings(sqlite, ticket.companyId)
  const contact = loadContact(sqlite, ticket.contactId)
  const company = stmt<{ schedules: string }, [number]>(
    sqlite,
    'SELECT schedules FROM companies WHERE id = ?',
  ).get(ticket.companyId)
  return {
    now,
    timeZone: settings.timeZone,
    scheduleType: settings.scheduleType,
    chatBotType: settings.chatBotType,
    connection,
    companySchedules: effectiveSchedules(company?.schedules ?? '[]'),
    queues: loadQueues(sqlite, ticket.whatsappId),
    ticket: { queueId: ticket.queueId, isGroup: !!ticket.isGroup },
    contact: {
      disableBot: !!contact.disableBot,
      lgpdConsent: contact.lgpdConsent,
      // read only when it matters (one probe of the contact's tickets)
      firstConversation: connection.enableLGPD && isFirstConversation(sqlite, ticket),
    },
    hasBot,
  }
}
