import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { tickets } from './tickets'
import { users } from './users'

export const CHATBOT_NODES = [
  'start',
  'consent',
  'vacation',
  'outOfHours',
  'menu',
  'queue',
  'option',
  'done',
  'nps',
] as const
export type ChatbotNode = (typeof CHATBOT_NODES)[number]

/**
 * Where the chatbot is with a ticket (modules/chatbot/machine.ts describes every node), so a restart loses
 * nothing. One row per ticket: the routing conversation while the ticket waits without a queue, then (after a
 * close with the userRating setting on) the rating question ('nps').
 */
export const chatbotSessions = sqliteTable(
  'chatbot_sessions',
  {
    ticketId: integer('ticket_id')
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').notNull(),
    whatsappId: integer('whatsapp_id').notNull(),
    node: text('node', { enum: CHATBOT_NODES }).notNull().default('start'),
    /** The queue whose option tree is shown ('queue', 'option'). */
    queueId: integer('queue_id'),
    /** The option whose children are shown ('option'). */
    optionId: integer('option_id'),
    /** Prompts sent in the current window (menus, out-of-hours, vacation; NPS: rating questions). */
    attempts: integer('attempts').notNull().default(0),
    /** When the first prompt of the current window was sent (epoch ms): timeUseBotQueues counts from it. */
    windowStart: integer('window_start'),
    /** When the last prompt was sent (epoch ms). */
    lastPromptAt: integer('last_prompt_at'),
    /** The newest inbound message the machine has handled: a message is handled once. */
    lastMessageId: integer('last_message_id').notNull().default(0),
    /** NPS: the attendant the rating is for. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** NPS: when the rating question expires (epoch ms). */
    expiresAt: integer('expires_at'),
    ...timestamps,
  },
  (t) => [
    index('chatbot_sessions_nps').on(t.whatsappId, t.contactId).where(sql`node = 'nps'`),
    index('chatbot_sessions_expiry').on(t.expiresAt).where(sql`node = 'nps'`),
  ],
)

/**
 * The bot's watermark (one row, id 1): the newest message id when the bot last started on this database. At boot
 * the bot answers the customer messages stored after it that it never handled (the server stopped in between,
 * modules/chatbot/catchup.ts), then moves it to the boot's newest id. Written at the first start of a bot on a
 * database, so the pending tickets of a database older than the bot are never greeted.
 */
export const chatbotCatchUp = sqliteTable('chatbot_catch_up', {
  id: integer('id').primaryKey(),
  messageId: integer('message_id').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** A customer's 0-10 rating of a closed ticket, against the attendant who had it. */
export const userRatings = sqliteTable(
  'user_ratings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    rate: integer('rate').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('user_ratings_ticket').on(t.ticketId),
    index('user_ratings_company_created').on(t.companyId, t.createdAt),
    index('user_ratings_user').on(t.userId),
  ],
)

export type ChatbotSessionRow = typeof chatbotSessions.$inferSelect
