import { type SQL, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

/** Case-insensitive "contains" that treats % and _ in the user's text literally. */
export function contains(column: SQLiteColumn, term: string): SQL {
  const escaped = term.replace(/[\\%_]/g, (ch) => `\\${ch}`)
  return sql`${column} LIKE ${`%${escaped}%`} ESCAPE '\\'`
}
