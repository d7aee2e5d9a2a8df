import { sql } from 'drizzle-orm'
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'

/**
 * A help video (spec 3): platform-wide, managed by super users and shown to every signed-in user. `company_id`
 * is the creating super user's company (the platform's); `video` is a YouTube video id. Titles are unique, ignoring
 * the case of ASCII letters.
 */
export const helps = sqliteTable(
  'helps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    video: text('video').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('helps_title_unique').on(sql`lower(${t.title})`)],
)

export type HelpRow = typeof helps.$inferSelect
