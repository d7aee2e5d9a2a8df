import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { files } from './files'

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
    /** Service hours, JSON `[{ weekday, weekdayEn, startTime, endTime }]` (HH:MM), used when scheduleType is 'queue'. */
    schedules: text('schedules').notNull().default('[]'),
    integrationId: integer('integration_id'),
    promptId: integer('prompt_id'),
    /** The file list (src/server/db/schema/files.ts) whose files the chatbot sends when a ticket enters this queue. */
    fileListId: integer('file_list_id').references(() => files.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('queues_company_color').on(t.companyId, t.color),
    uniqueIndex('queues_company_name').on(t.companyId, t.name),
  ],
)

export type QueueRow = typeof queues.$inferSelect

/**
 * A node of a queue's chatbot menu (the spec's "Queue option"): the top level has no parent (the API shows
 * parentId -1); `option` is the position the customer types.
 */
export const queueOptions = sqliteTable(
  'queue_options',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnySQLiteColumn => queueOptions.id, {
      onDelete: 'cascade',
    }),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    option: text('option').notNull(),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    ...timestamps,
  },
  (t) => [index('queue_options_queue_parent').on(t.queueId, t.parentId)],
)

export type QueueOptionRow = typeof queueOptions.$inferSelect
