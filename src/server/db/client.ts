import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'

export type DB = ReturnType<typeof drizzle<typeof schema>>

/** Opens (or creates) a database file, or `:memory:`, with the pragmas Balcão relies on. */
export function openDatabase(path: string): { db: DB; sqlite: Database } {
  const sqlite = new Database(path, { create: true, strict: true })
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA synchronous = NORMAL')
  sqlite.run('PRAGMA foreign_keys = ON')
  sqlite.run('PRAGMA busy_timeout = 5000')
  sqlite.run('PRAGMA temp_store = MEMORY')
  const db = drizzle({ client: sqlite, schema })
  return { db, sqlite }
}
