import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { contacts } from './contacts'
import { queues } from './queues'
import { tags } from './tags'
import { users } from './users'
import { whatsapps } from './whatsapps'

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const
export type TicketStatus = (typeof TICKET_STATUSES)[number]

/** A conversation with a contact over one connection, from the first message until it is closed. */
export const tickets = sqliteTable(
  'tickets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    uuid: text('uuid').notNull(),
    status: text('status', { enum: TICKET_STATUSES }).notNull().default('pending'),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    channel: text('channel').notNull().default('whatsapp'),
    isGroup: integer('is_group', { mode: 'boolean' }).notNull().default(false),
    chatbot: integer('chatbot', { mode: 'boolean' }).notNull().default(false),
    lastMessage: text('last_message').notNull().default(''),
    unreadMessages: integer('unread_messages').notNull().default(0),
    /**
     * How many tags the ticket has, kept by triggers on ticket_tags (migrations/0008): a list reads the tags of
     * only the tickets that have some, instead of probing ticket_tags for every ticket of the page.
     */
    tagCount: integer('tag_count').notNull().default(0),
    /** Imported from WhatsApp's history rather than received live. */
    imported: integer('imported', { mode: 'boolean' }).notNull().default(false),
    closedAt: integer('closed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tickets_uuid').on(t.uuid),
    // The lists: by status, newest update first, with what the filters and joins need.
    index('tickets_company_status_updated').on(
      t.companyId,
      t.status,
      t.updatedAt,
      t.queueId,
      t.userId,
      t.contactId,
    ),
    index('tickets_company_updated').on(t.companyId, t.updatedAt),
    index('tickets_contact').on(t.contactId),
    // One open-or-pending ticket per contact and connection, guaranteed by the database.
    uniqueIndex('tickets_one_active')
      .on(t.companyId, t.contactId, t.whatsappId)
      .where(sql`status IN ('open', 'pending')`),
  ],
)

export const ticketTags = sqliteTable(
  'ticket_tags',
  {
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index('ticket_tags_tag').on(t.tagId)],
)

export const TICKET_EVENT_TYPES = [
  'created',
  'accepted',
  'transferred',
  'returned',
  'closed',
  'reopened',
] as const
export type TicketEventType = (typeof TICKET_EVENT_TYPES)[number]

/** Every change of a ticket's state: who, when, from where to where (the dashboard reads these). */
export const ticketEvents = sqliteTable(
  'ticket_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    type: text('type', { enum: TICKET_EVENT_TYPES }).notNull(),
    /** The user who acted; null for the system (an inbound message) or an API token. */
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    fromStatus: text('from_status', { enum: TICKET_STATUSES }),
    toStatus: text('to_status', { enum: TICKET_STATUSES }).notNull(),
    fromUserId: integer('from_user_id'),
    toUserId: integer('to_user_id'),
    fromQueueId: integer('from_queue_id'),
    toQueueId: integer('to_queue_id'),
    fromWhatsappId: integer('from_whatsapp_id'),
    toWhatsappId: integer('to_whatsapp_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('ticket_events_ticket').on(t.ticketId),
    index('ticket_events_company_created').on(t.companyId, t.createdAt),
  ],
)

/**
 * Tickets counted by company, status, queue (0: none), user (0: none) and group flag, kept exact by triggers,
 * so the tabs' badges never count the tickets table.
 */
export const ticketCounts = sqliteTable(
  'ticket_counts',
  {
    companyId: integer('company_id').notNull(),
    status: text('status', { enum: TICKET_STATUSES }).notNull(),
    queueId: integer('queue_id').notNull(),
    userId: integer('user_id').notNull(),
    isGroup: integer('is_group').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.status, t.queueId, t.userId, t.isGroup] })],
)

export type TicketRow = typeof tickets.$inferSelect
