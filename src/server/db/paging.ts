import type { DB } from './client'

/**
 * Paging for list calls (`?pageNumber=`), the way every list should page:
 *
 * - `hasMore` comes from asking for one row more than the page (`LIMIT size + 1`), never from a COUNT;
 * - the count, where the spec shows one, is free when this page reaches the end, and otherwise one
 *   indexed `COUNT(*)` the caller provides (cap it, or load it lazily, where it can be large).
 *
 * ```ts
 * const at = pageWindow(query.pageNumber, PAGE_SIZE)
 * const page = pageOf(listStatement(db).all({ companyId, limit: at.limit, offset: at.offset }), at)
 * return { users: page.rows.map(toDto), count: pageCount(page, () => countUsers(...)), hasMore: page.hasMore }
 * ```
 */
export type PageWindow = { size: number; offset: number; limit: number }

export type Page<T> = { rows: T[]; hasMore: boolean; offset: number }

/** Where page `pageNumber` (from 1) of `size` rows starts, and the LIMIT that also tells whether more exist. */
export function pageWindow(pageNumber: number | undefined, size: number): PageWindow {
  const page = Math.max(1, Math.floor(pageNumber ?? 1))
  return { size, offset: (page - 1) * size, limit: size + 1 }
}

/** Cuts the probe row off a `LIMIT size + 1` result. */
export function pageOf<T>(rows: T[], at: PageWindow): Page<T> {
  const hasMore = rows.length > at.size
  return { rows: hasMore ? rows.slice(0, at.size) : rows, hasMore, offset: at.offset }
}

/**
 * The total number of rows: known without a query when this page holds the last row, so `count` runs
 * only while more pages exist (or when the page asked for lies past the end).
 */
export function pageCount<T>(page: Page<T>, count: () => number): number {
  if (!page.hasMore && (page.rows.length > 0 || page.offset === 0)) return page.offset + page.rows.length
  return count()
}

/**
 * A statement built once per database and reused: Drizzle's query builder otherwise rebuilds and
 * re-prepares its SQL on every call, which costs hot paths 2-3x. Bind values with `sql.placeholder()`.
 *
 * ```ts
 * const byCompany = preparedOnce((db) =>
 *   db.select().from(users).where(eq(users.companyId, sql.placeholder('companyId'))).prepare(),
 * )
 * byCompany(ctx.db).all({ companyId })
 * ```
 */
export function preparedOnce<T>(build: (db: DB) => T): (db: DB) => T {
  const cache = new WeakMap<DB, T>()
  return (db) => {
    let statement = cache.get(db)
    if (!statement) {
      statement = build(db)
      cache.set(db, statement)
    }
    return statement
  }
}
