import type { Database } from 'bun:sqlite'
import { stmt } from './statements'

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

/** A searched list's SQL: `SELECT columns FROM from WHERE where order` for the page, the count over `from`/`where`. */
export type ListQuery = {
  columns: string
  /** Tables (with their aliases and joins). */
  from: string
  /** The tenant and the filters, over `$` parameters (`$term IS NULL OR …` for an optional search). */
  where: string
  order: string
  /** The count's tables when the page joins what the count does not need. Default `from`. */
  countFrom?: string
}

type Bindings = Record<string, string | number | bigint | boolean | null>

/**
 * One page of a searched list (`?searchParam=&pageNumber=`), by the rules above: the window's rows and
 * `hasMore` from `LIMIT size + 1`, and the count only while more pages exist. Both statements are prepared once.
 */
export function listPage<Row, P extends Bindings>(
  sqlite: Database,
  query: ListQuery,
  params: P,
  at: PageWindow,
): Page<Row> & { count: number } {
  const rows = stmt<Row, [P & { limit: number; offset: number }]>(
    sqlite,
    `SELECT ${query.columns} FROM ${query.from} WHERE ${query.where} ${query.order} LIMIT $limit OFFSET $offset`,
  ).all({ ...params, limit: at.limit, offset: at.offset })
  const page = pageOf(rows, at)
  const count = pageCount(
    page,
    () =>
      stmt<{ n: number }, [P]>(
        sqlite,
        `SELECT count(*) AS n FROM ${query.countFrom ?? query.from} WHERE ${query.where}`,
      ).get(params)?.n ?? 0,
  )
  return { ...page, count }
}
