import type { SQLQueryBindings } from 'bun:sqlite'

/** Placeholder lists `(?, ?, ...)` by length, built once. */
const placeholders: string[] = []
const MAX_BOUND_IDS = 64

/**
 * `column IN (ids)`, its values pushed onto `params`. Up to MAX_BOUND_IDS ids are bound one per placeholder,
 * the list padded (repeating its last id) to 1, 2, 4, 8 or a multiple of 8 so that a statement's text has only a
 * few shapes (a full page's 40 ids pad nothing). On this SQLite a list page's scan is ~3-10 µs faster this way
 * than with `IN (SELECT value FROM json_each(?))`, the form kept for longer (and empty) lists.
 */
export function inIds(column: string, ids: readonly number[], params: SQLQueryBindings[]): string {
  const n = ids.length
  if (n === 0 || n > MAX_BOUND_IDS) {
    params.push(JSON.stringify(ids))
    return `${column} IN (SELECT value FROM json_each(?))`
  }
  let size = 1
  while (size < n && size < 8) size *= 2
  if (n > 8) size = Math.ceil(n / 8) * 8
  for (const id of ids) params.push(id)
  for (let i = n; i < size; i++) params.push(ids[n - 1] as number)
  let list = placeholders[size]
  if (list === undefined) {
    list = `(${Array.from({ length: size }, () => '?').join(', ')})`
    placeholders[size] = list
  }
  return `${column} IN ${list}`
}
