import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'
import { messages } from './messages'

export const PENDING_KINDS = ['reaction', 'edit', 'delete', 'quote'] as const
export type PendingKind = (typeof PENDING_KINDS)[number]

/**
 * A reaction, edit, deletion or quote whose target message is not stored (yet): WhatsApp may deliver it before
 * the message (offline replay, history sync). Applied when a message with `targetWid` arrives; dropped after
 * 30 days.
 */
export const inboundPending = sqliteTable(
  'inbound_pending',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id'),
    /** The provider's id of the message it refers to. */
    targetWid: text('target_wid').notNull(),
    kind: text('kind', { enum: PENDING_KINDS }).notNull(),
    /** What to apply, JSON (the emoji and sender, the new body, the quoting message's id). */
    payload: text('payload').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('inbound_pending_target').on(t.companyId, t.targetWid),
    index('inbound_pending_created').on(t.createdAt),
  ],
)

/**
 * The download of an inbound message's media (messages.media_state 'pending'): its attempts and when the next
 * one is due, so downloads survive a restart. The row goes once the media is stored; it stays after the last
 * failure (media_state 'failed') until a retry asks again.
 */
export const mediaDownloads = sqliteTable(
  'media_downloads',
  {
    messageId: integer('message_id')
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The connection that received it: only its session can download (or have WhatsApp re-upload) it. */
    whatsappId: integer('whatsapp_id'),
    attempts: integer('attempts').notNull().default(0),
    /** Re-uploads WhatsApp was asked for (an expired file). */
    reuploads: integer('reuploads').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('media_downloads_next').on(t.nextAttemptAt)],
)
