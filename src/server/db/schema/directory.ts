import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'

/**
 * A version per company of its directory: the names of its users, queues (with their colours) and connections,
 * which every ticket shows. Triggers (migrations/0009) bump it whenever one of them is added, renamed or removed,
 * in any process, so the server keeps the names in memory and rereads them only when the version moved
 * (db/directory.ts) instead of joining three tables for every ticket of every list.
 *
 * No foreign key: deleting a company deletes its users, whose trigger writes here, and a reference to the company
 * being deleted would fail that delete. A deleted company's row is a few bytes, left behind.
 */
export const directoryVersions = sqliteTable('directory_versions', {
  companyId: integer('company_id').primaryKey(),
  version: integer('version').notNull().default(0),
})
