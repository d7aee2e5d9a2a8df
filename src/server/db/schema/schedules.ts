import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { ScheduleStatus } from '../../../shared/scheduled-messages'
import { timestamps } from './columns'
import { companies } from './companies'
import { contacts } from './contacts'
import { queues } from './queues'
import { users } from './users'
import { whatsapps } from './whatsapps'

/**
 * A message to send to a contact at a chosen time (`send_at`, epoch ms). It is a durable job: the
 * `ScheduleRunner` claims a due row (status PENDENTE -> ENVIANDO) in the same transaction that writes the
 * outbound message (`message_id`), and the outbound sender sends that message at most once; the row then
 * becomes ENVIADA (`sent_at`) or ERRO (`error`), which a person may retry.
 *
 * Repetition: `repeat` (JSON, see `RepeatRule` in src/shared/scheduled-messages.ts) is carried by every
 * occurrence of a series, `series_id` names the first occurrence. Each occurrence is its own row with its own
 * status; the next one is written when the previous one is claimed.
 */
export const schedules = sqliteTable(
  'schedules',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    sendAt: integer('send_at').notNull(),
    sentAt: integer('sent_at'),
    /** PENDENTE, ENVIANDO, ENVIADA or ERRO. */
    status: text('status').$type<ScheduleStatus>().notNull().default('PENDENTE'),
    openTicket: text('open_ticket').$type<'enabled' | 'disabled'>().notNull().default('enabled'),
    ticketUserId: integer('ticket_user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    statusTicket: text('status_ticket').$type<'open' | 'closed'>().notNull().default('closed'),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    /** Who created it. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    /** Why the last attempt failed (`CODE: detail`), while status is ERRO. */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** When it was claimed (status ENVIANDO). */
    claimedAt: integer('claimed_at'),
    /** The outbound message written when it was claimed. */
    messageId: integer('message_id'),
    ticketId: integer('ticket_id'),
    /** The repetition rule (JSON) or null. */
    repeat: text('repeat'),
    /** The first occurrence of the series (itself for the first), or null. */
    seriesId: integer('series_id'),
    ...timestamps,
  },
  (t) => [
    index('schedules_status_send_at').on(t.status, t.sendAt),
    index('schedules_company_send_at').on(t.companyId, t.sendAt),
  ],
)

export type ScheduleRow = typeof schedules.$inferSelect
