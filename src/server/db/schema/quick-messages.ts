import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { users } from './users'

/**
 * A reusable answer called up by its shortcode ('/' in the message input). `geral` makes it company-wide;
 * otherwise it is personal to its owner (`user_id`). `status` false hides it from the message input.
 * An optional attachment is a file of the company's media folder (`media_path`, a name the store made).
 */
export const quickMessages = sqliteTable(
  'quick_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    shortcode: text('shortcode').notNull(),
    message: text('message').notNull().default(''),
    geral: integer('geral', { mode: 'boolean' }).notNull().default(false),
    status: integer('status', { mode: 'boolean' }).notNull().default(true),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    ...timestamps,
  },
  (t) => [index('quick_messages_company_shortcode').on(t.companyId, t.shortcode)],
)

export type QuickMessageRow = typeof quickMessages.$inferSelect
