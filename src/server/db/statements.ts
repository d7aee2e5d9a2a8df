import type { Database, SQLQueryBindings, Statement } from 'bun:sqlite'

/**
 * A statement prepared once per database and kept, for hot paths: a Map lookup by its text, without the LRU
 * bookkeeping of bun:sqlite's shared `query()` cache. Texts come from the code (a list's text depends on which
 * filters are present, never on their values); bounded all the same: past MAX_SHAPES texts the map starts over.
 */
const MAX_SHAPES = 512
const statements = new WeakMap<Database, Map<string, Statement>>()

export function stmt<R = unknown, P extends SQLQueryBindings[] = SQLQueryBindings[]>(
  sqlite: Database,
  sql: string,
): Statement<R, P> {
  let byText = statements.get(sqlite)
  if (!byText) {
    byText = new Map()
    statements.set(sqlite, byText)
  }
  let statement = byText.get(sql)
  if (!statement) {
    if (byText.size >= MAX_SHAPES) byText.clear()
    statement = sqlite.prepare(sql)
    byText.set(sql, statement)
  }
  return statement as Statement<R, P>
}

/**
 * Closes the connection now. bun:sqlite's `close()` leaves a connection whose statements are still alive open
 * until the garbage collector frees them, and another process opening the file meanwhile may wait on it: the
 * kept statements are finalized first.
 */
export function closeDatabase(sqlite: Database) {
  for (const statement of statements.get(sqlite)?.values() ?? []) statement.finalize()
  statements.delete(sqlite)
  sqlite.close()
}
