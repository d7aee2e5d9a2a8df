import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'

export type DB = ReturnType<typeof drizzle<typeof schema>>

/**
 * bun:sqlite keeps the statements of its last 20 `query()` strings; the server runs a few hundred distinct
 * statements, so with 20 it re-prepared on nearly every request. Statement texts are fixed in the code
 * (lists bind their values), so a larger cache stays bounded.
 */
Database.MAX_QUERY_CACHE_SIZE = 1000

/** Opens (or creates) a database file, or `:memory:`, with the pragmas Balcão relies on. */
export function openDatabase(path: string): { db: DB; sqlite: Database } {
  if (path !== ':memory:') ownerOnly(path)
  const sqlite = new Database(path, { create: true, strict: true })
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA synchronous = NORMAL')
  sqlite.run('PRAGMA foreign_keys = ON')
  sqlite.run('PRAGMA busy_timeout = 5000')
  sqlite.run('PRAGMA temp_store = MEMORY')
  const db = drizzle({ client: sqlite, schema })
  return { db, sqlite }
}

/**
 * The database holds password hashes, WhatsApp keys and connection tokens: only its owner may read it, whatever
 * the folder's mode or the umask. SQLite gives the -wal and -shm files the database file's mode when it creates
 * them; existing ones (from an older version) are tightened here too.
 */
function ownerOnly(path: string) {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600)
}
