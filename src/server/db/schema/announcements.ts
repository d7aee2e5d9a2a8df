import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'

/**
 * A notice from the platform operator (super users) to every company, shown in every user's bell popover while
 * `status` is true. `company_id` is the creating super user's company (the platform company): the row belongs to
 * no tenant, and its image is stored in that company's media folder. Priority 1 high (red), 2 medium (orange),
 * 3 low (grey).
 */
export const announcements = sqliteTable(
  'announcements',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    text: text('text').notNull(),
    priority: integer('priority').notNull().default(3),
    status: integer('status', { mode: 'boolean' }).notNull().default(true),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    ...timestamps,
  },
  // The bell reads the active ones newest first; the management page all of them newest first.
  (t) => [index('announcements_status_created').on(t.status, t.createdAt, t.id)],
)

export type AnnouncementRow = typeof announcements.$inferSelect
