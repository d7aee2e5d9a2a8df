import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'

export const queues = sqliteTable(
  'queues',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    orderQueue: integer('order_queue').notNull().default(0),
    greetingMessage: text('greeting_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('queues_company_color').on(t.companyId, t.color),
    uniqueIndex('queues_company_name').on(t.companyId, t.name),
  ],
)

export type QueueRow = typeof queues.$inferSelect
