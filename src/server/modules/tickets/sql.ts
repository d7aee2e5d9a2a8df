import type { Database, SQLQueryBindings, Statement } from 'bun:sqlite'

/**
 * Statements of this area, prepared once per database and kept. bun:sqlite's own `query()` cache holds only the
 * 20 most recent statements for the whole server, so on a busy server the lists' statements (one per filter
 * shape: the text depends on which filters are present, never on their values) would be compiled again and
 * again. Bounded all the same: past MAX_SHAPES distinct texts the map starts over.
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
