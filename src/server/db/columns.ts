import type { SQLQueryBindings } from 'bun:sqlite'

/**
 * Every field of a table's row type (`typeof table.$inferSelect`) and its SQL column, in the table's order.
 * Typed against the row, so a column added to the schema and not here fails the type check.
 */
export type ColumnsOf<Row> = { readonly [K in keyof Row]-?: string }

/** `column AS field, …` in the map's order: a SELECT or RETURNING that reads rows as the row type names them. */
export function selectList<Row>(columns: ColumnsOf<Row>): string {
  return Object.entries<string>(columns)
    .map(([field, column]) => (field === column ? column : `${column} AS ${field}`))
    .join(', ')
}

export type Assignment = { column: string; value: SQLQueryBindings }

/**
 * The given fields as SQL columns and bound values, for an INSERT's column list or an UPDATE's SET, as the
 * query builder wrote them: booleans bound 0/1, undefined fields left out, and fields the table lacks ignored
 * (column names come from the map, never from the caller's keys).
 */
export function assignments<Row>(columns: ColumnsOf<Row>, values: Partial<Record<keyof Row, unknown>>) {
  const list: Assignment[] = []
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined || !Object.hasOwn(columns, field)) continue
    const column = (columns as Record<string, string>)[field]!
    list.push({ column, value: typeof value === 'boolean' ? Number(value) : (value as SQLQueryBindings) })
  }
  return list
}
