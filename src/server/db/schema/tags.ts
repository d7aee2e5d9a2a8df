import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'

/** A label for tickets and contacts; `kanban` 1 makes it a lane of the Kanban board. */
export const tags = sqliteTable(
  'tags',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    kanban: integer('kanban').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('tags_company_name').on(t.companyId, t.name)],
)

export type TagRow = typeof tags.$inferSelect
