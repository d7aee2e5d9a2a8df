import type { Database } from 'bun:sqlite'
import type { DB } from './client'

/** What a helper may be handed: Drizzle's database, a transaction on it, or the bun:sqlite handle itself. */
export type Connection = DB | Database

/**
 * The bun:sqlite handle under a Drizzle database or a transaction on it (one connection either way), or the
 * handle itself: raw prepared SQL on the same connection, inside the caller's transaction when there is one.
 */
export function sqliteOf(db: Connection): Database {
  if (typeof (db as Database).query === 'function') return db as Database
  const drizzled = db as unknown as { $client?: Database; session?: { client?: Database } }
  const client = drizzled.$client ?? drizzled.session?.client
  if (!client) throw new Error('no sqlite client under this database handle')
  return client
}
