import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'

/**
 * A file list (spec 3, "Files screen"): a name, a message and options, each with a name and an optional
 * attached file. Campaigns and queues pick one.
 */
export const files = sqliteTable(
  'files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    message: text('message').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('files_company_name').on(t.companyId, t.name)],
)

/**
 * One option of a file list. `path` is a file of the company's media folder (a name the store made), its type
 * in `media_type` and the name it was sent with in `media_name`; all three null without an attachment.
 */
export const fileOptions = sqliteTable(
  'file_options',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: text('path'),
    mediaType: text('media_type'),
    mediaName: text('media_name'),
    ...timestamps,
  },
  (t) => [index('file_options_file').on(t.fileId)],
)

export type FileRow = typeof files.$inferSelect
export type FileOptionRow = typeof fileOptions.$inferSelect
