import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { tickets } from './tickets'

export const BOT_SESSION_STATUSES = ['active', 'handedOff', 'finished'] as const
export type BotSessionStatus = (typeof BOT_SESSION_STATUSES)[number]

/**
 * Where an external bot (modules/bots/dispatch.ts: an AI prompt or a queue integration) is with a ticket, so a
 * restart loses nothing: which bot (`kind` and `bot_id`), the bot's own session id (Typebot's), whether it is
 * still answering, and the newest customer message handed to it (a message is never handed twice).
 */
export const botSessions = sqliteTable('bot_sessions', {
  ticketId: integer('ticket_id')
    .primaryKey()
    .references(() => tickets.id, { onDelete: 'cascade' }),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  botId: integer('bot_id').notNull(),
  externalId: text('external_id'),
  status: text('status', { enum: BOT_SESSION_STATUSES }).notNull().default('active'),
  lastMessageId: integer('last_message_id').notNull().default(0),
  /** When the customer last wrote to the bot (epoch ms): Typebot's expiry counts from it. */
  lastActivityAt: integer('last_activity_at').notNull(),
  ...timestamps,
})
