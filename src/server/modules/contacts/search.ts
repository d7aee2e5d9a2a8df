/**
 * The contacts page: `GET /contacts/?searchParam=&pageNumber=&contactTag=[..]`, 20 a page in name order.
 *
 * Search is over the name, or over the number when what was typed is a phone number (digits and separators).
 * A reader whose isTricked is not 'enabled' searches only the part of a number they can see (all but its last
 * four digits), so a search can never reveal a masked digit.
 *
 * How it stays fast on tens of thousands of contacts (bench scenario c, `searchParam=ana` on 20,000):
 * - `contacts_search` (migration 0006) is a trigram index whose rowid is `company_id << 32 | contact id`: the
 *   count of a 3+ character search is one range of it, without visiting the contacts table.
 * - The page of a search with few hits sorts those hits; with many hits it walks the name index in order and
 *   stops at the page's end, testing each name with a predicate that gives exactly the trigram index's answer
 *   (a case- and accent-insensitive substring): LIKE, and for a name outside ASCII that LIKE misses, the index.
 *   Tests check that every path gives the same answers.
 * - Terms shorter than 3 characters (the trigram minimum) use LIKE (accents not folded) with an exact count.
 * - The unfiltered count comes from `contact_counts` (kept by triggers).
 */
import type { Database } from 'bun:sqlite'
import type { ContactsPage } from '../../../shared/api'
import { fieldError } from '../../../shared/errors'
import type { ListContactsQuery } from '../../../shared/schemas/contacts'
import { phoneDigits } from '../../../shared/schemas/contacts'
import { maskContacts, type NumberVisibility, numberVisibility } from '../../access/mask'
import type { Ctx } from '../../context'
import { type DayRange, rangeOfDays, readDay } from '../../day-range'
import { type PageWindow, pageCount, pageOf, pageWindow } from '../../db/paging'
import { companyTimeZone } from '../settings/service'
import { CONTACT_ROW_COLUMNS, CONTACT_ROW_COLUMNS_C, contactDtosOf, type RawContactRow } from './dto'

export const CONTACTS_PAGE_SIZE = 20

/** Up to this many hits, a search page sorts its hits; past it, it walks the name index (see above). */
export const SORT_HITS_LIMIT = 400

/** A character outside ASCII (more bytes than characters): such a name needs folding before LIKE can compare it. */
const nonAscii = (column: string) => `length(${column}) < octet_length(${column})`

/** Lower-case, accents off: how the trigram index reads a search term. */
export function foldTerm(term: string): string {
  return term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s)

/** A LIKE pattern matching `term` anywhere, with % _ and \ taken literally (ESCAPE '\'). */
function likeAnywhere(term: string) {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
}

/** An FTS5 phrase for `term` (in one column, or any): the whole term, quotes doubled. */
function ftsPhrase(column: string, term: string) {
  const phrase = `"${term.replace(/"/g, '""')}"`
  return column ? `${column} : ${phrase}` : phrase
}

type Search =
  | { kind: 'none' }
  /** A phone number: digits against the number (or the part a masked reader sees). */
  | { kind: 'number'; digits: string }
  | { kind: 'name'; term: string; folded: string }

export function searchOf(searchParam: string | undefined): Search {
  // Control characters (a NUL ends an FTS5 query early) count as spaces.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const term = (searchParam ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim()
  if (!term) return { kind: 'none' }
  if (/^[+\d\s().-]+$/.test(term) && /\d/.test(term)) return { kind: 'number', digits: phoneDigits(term) }
  return { kind: 'name', term, folded: foldTerm(term) }
}

/** The number as this reader may search it. */
function numberColumn(visibility: NumberVisibility, alias = 'c') {
  return visibility === 'enabled'
    ? `coalesce(${alias}.number, '')`
    : `substr(coalesce(${alias}.number, ''), 1, max(length(coalesce(${alias}.number, '')) - 4, 0))`
}

/** True when a 3+ character search can use the trigram index (its minimum). */
function usesIndex(search: Search): boolean {
  if (search.kind === 'number') return search.digits.length >= 3
  if (search.kind === 'name') return [...search.folded].length >= 3
  return false
}

/**
 * The index query. A name term has a character other than digits and separators, which never occur in the
 * number columns, so it needs no column filter (a filter makes FTS5 read positions: twice the cost).
 */
function matchOf(search: Search, visibility: NumberVisibility): string {
  if (search.kind === 'number') return ftsPhrase(visibility === 'enabled' ? 'number' : 'shown', search.digits)
  if (search.kind === 'name') return ftsPhrase('', search.term)
  return ''
}

/** The company's hits in the trigram index: a rowid range, so other companies' contacts cost nothing. */
const HITS = `SELECT rowid & 4294967295 FROM contacts_search
  WHERE contacts_search MATCH $match AND rowid BETWEEN ($companyId << 32) AND (($companyId << 32) | 4294967295)`

const HITS_COUNT = `SELECT count(*) AS n FROM contacts_search
  WHERE contacts_search MATCH $match AND rowid BETWEEN ($companyId << 32) AND (($companyId << 32) | 4294967295)`

/**
 * A row predicate on contacts `c` giving exactly the trigram index's answer (3+ characters). A LIKE match
 * (ASCII case-insensitive substring) is always an index match too; a name outside ASCII that LIKE misses may
 * still match once its accents are folded, so only such a name asks the index (whose hits SQLite then loads
 * once, only if a page meets such a name).
 */
function exactPredicate(search: Search, visibility: NumberVisibility): string {
  if (search.kind === 'number') return `${numberColumn(visibility)} LIKE $like ESCAPE '\\'`
  if (search.kind !== 'name') return '1'
  if (!isAscii(search.folded)) return `c.id IN (${HITS})`
  return `(c.name LIKE $like ESCAPE '\\' OR (${nonAscii('c.name')} AND c.id IN (${HITS})))`
}

/**
 * For terms under 3 characters, which the index cannot take: LIKE, a substring case-insensitive for ASCII
 * letters only (folding accents in SQL costs ~10 ms per 20,000 contacts; 1-2 letter searches are rare).
 */
function shortPredicate(search: Search, visibility: NumberVisibility): string {
  if (search.kind === 'number') return `${numberColumn(visibility)} LIKE $like ESCAPE '\\'`
  if (search.kind !== 'name') return '1'
  return `c.name LIKE $shortLike ESCAPE '\\'`
}

type Params = Record<string, string | number | null>

function paramsOf(companyId: number, search: Search, visibility: NumberVisibility, tagIds: number[]): Params {
  const params: Params = { companyId }
  if (search.kind === 'number') params.like = likeAnywhere(search.digits)
  if (search.kind === 'name') {
    params.like = likeAnywhere(search.folded)
    params.shortLike = likeAnywhere(search.term)
  }
  if (usesIndex(search)) params.match = matchOf(search, visibility)
  if (tagIds.length) params.tags = JSON.stringify(tagIds)
  return params
}

/** The named parameters of each statement's text (a handful of texts: they are built from fixed parts). */
const namesOf = new Map<string, string[]>()

/** Keeps only the named parameters a statement uses (bun:sqlite's strict mode refuses others). */
function bind(sql: string, params: Params): Params {
  let names = namesOf.get(sql)
  if (!names) {
    names = [...new Set([...sql.matchAll(/\$(\w+)/g)].map((m) => m[1]!))]
    namesOf.set(sql, names)
  }
  const out: Params = {}
  for (const name of names) out[name] = params[name] ?? null
  return out
}

const TAGGED = `c.id IN (SELECT contact_id FROM contact_tags WHERE tag_id IN (SELECT value FROM json_each($tags)))`
const PAGE_ORDER = 'ORDER BY c.name, c.id LIMIT $limit OFFSET $offset'

/** The page of a few hits: load them by id, sort them. */
const SORT_PAGE = `SELECT ${CONTACT_ROW_COLUMNS_C} FROM contacts c WHERE c.id IN (${HITS}) ${PAGE_ORDER}`

/** The page by walking the company's name index in order, testing each contact, stopping at the page's end. */
function walkPage(where: string[]) {
  return `SELECT ${CONTACT_ROW_COLUMNS_C} FROM contacts c INDEXED BY contacts_company_name
           WHERE c.company_id = $companyId AND ${where.join(' AND ')} ${PAGE_ORDER}`
}

/**
 * The same, looking no further than the name at position $window in the company's name order (found on the
 * index alone): the walk stops there even when the page is not complete.
 */
function windowPage(predicate: string) {
  return walkPage([
    `c.name <= (SELECT name FROM contacts INDEXED BY contacts_company_name WHERE company_id = $companyId
                 ORDER BY name LIMIT 1 OFFSET $window)`,
    predicate,
  ])
}

function countWhere(where: string[]) {
  return `SELECT count(*) AS n FROM contacts c WHERE c.company_id = $companyId AND ${where.join(' AND ')}`
}

const COUNTERS = 'SELECT count, version FROM contact_counts WHERE company_id = ?'

function countOf(sqlite: Database, sql: string, params: Params): number {
  return sqlite.query<{ n: number }, [Params]>(sql).get(bind(sql, params))?.n ?? 0
}

/**
 * Search counts by company and index query, kept while the company's contacts stay as they were (their
 * `contact_counts.version`, bumped by triggers on every insert, delete, rename or number change): paging
 * through a search, or several people searching the same word, count once.
 */
const hitCounts = new WeakMap<Database, Map<string, { version: number; n: number }>>()
const MAX_CACHED_COUNTS = 2000

function hitCount(sqlite: Database, params: Params, version: number): number {
  let cache = hitCounts.get(sqlite)
  if (!cache) {
    cache = new Map()
    hitCounts.set(sqlite, cache)
  }
  const key = `${params.companyId} ${params.match}`
  const cached = cache.get(key)
  if (cached && cached.version === version) return cached.n
  const n = countOf(sqlite, HITS_COUNT, params)
  cache.delete(key)
  if (cache.size >= MAX_CACHED_COUNTS) cache.delete(cache.keys().next().value!)
  cache.set(key, { version, n })
  return n
}

type Rows = RawContactRow[]

/** Which way each index search took (tests check every way is taken and gives the same answers). */
export const searchPaths = { walk: 0, window: 0, windowMissed: 0, sort: 0 }

function run(sqlite: Database, sql: string, params: Params): Rows {
  return sqlite.query<RawContactRow, [Params]>(sql).all(bind(sql, params))
}

/**
 * A search on the index, no tags: the count from the index, then the page by the cheapest way. Few hits are
 * sorted. Many hits are usually spread over the alphabet, so walking the name index finds a page after a few
 * rows: the walk looks at a window sized from the hits' density (3x what an even spread needs) and, if the
 * page is not complete inside it (hits bunched later in the alphabet, like "maria"), the hits are sorted.
 */
function indexSearchPage(
  sqlite: Database,
  search: Search,
  visibility: NumberVisibility,
  params: Params,
  at: PageWindow,
): { rows: Rows; count: number } {
  const counters = sqlite
    .query<{ count: number; version: number }, [number]>(COUNTERS)
    .get(params.companyId as number)
  const total = counters?.count ?? 0
  const n = hitCount(sqlite, params, counters?.version ?? 0)
  if (n === 0 || at.offset >= n) return { rows: [], count: n }
  const paged = { ...params, limit: at.limit, offset: at.offset }
  if (n > SORT_HITS_LIMIT) {
    const predicate = exactPredicate(search, visibility)
    const window = Math.ceil(((at.offset + at.limit) * total * 3) / n) + 50
    if (window >= total) {
      searchPaths.walk++
      return { rows: run(sqlite, walkPage([predicate]), paged), count: n }
    }
    const rows = run(sqlite, windowPage(predicate), { ...paged, window })
    if (rows.length === at.limit) {
      searchPaths.window++
      return { rows, count: n }
    }
    searchPaths.windowMissed++
  }
  searchPaths.sort++
  return { rows: run(sqlite, SORT_PAGE, paged), count: n }
}

const CREATED_IN = 'c.created_at >= $createdFrom AND c.created_at < $createdTo'

/** `date`, or `dateStart` with `dateEnd`: the contacts created in those days (the dashboard's new leads). */
function createdRange(ctx: Ctx, query: ListContactsQuery): { createdFrom: number; createdTo: number } | null {
  const { date, dateStart, dateEnd } = query
  if (date === undefined && dateStart === undefined && dateEnd === undefined) return null
  if (date === undefined && (dateStart === undefined || dateEnd === undefined))
    throw fieldError(dateStart === undefined ? 'dateStart' : 'dateEnd', 'dateStart and dateEnd go together')
  const fields: [string, string] = date !== undefined ? ['date', 'date'] : ['dateStart', 'dateEnd']
  const range = companyRange(ctx.sqlite, ctx.actor.companyId, date ?? dateStart!, date ?? dateEnd!, fields)
  return { createdFrom: range.from, createdTo: range.to }
}

/**
 * One page of the company's contacts, numbers masked for the reader. `count` is exact: the number of contacts
 * the filters match.
 */
export function listContacts(ctx: Ctx, query: ListContactsQuery): ContactsPage {
  const { sqlite } = ctx
  const companyId = ctx.actor.companyId
  const visibility = numberVisibility(ctx)
  const search = searchOf(query.searchParam)
  const tagIds = query.contactTag ?? []
  const at = pageWindow(query.pageNumber, CONTACTS_PAGE_SIZE)
  const params = paramsOf(companyId, search, visibility, tagIds)
  const created = createdRange(ctx, query)
  if (created) Object.assign(params, created)
  let rows: Rows
  let count: number | (() => number)
  if (usesIndex(search) && tagIds.length === 0 && !created) {
    ;({ rows, count } = indexSearchPage(sqlite, search, visibility, params, at))
  } else {
    const where: string[] = []
    if (tagIds.length) where.push(TAGGED)
    if (created) where.push(CREATED_IN)
    if (search.kind !== 'none')
      where.push(usesIndex(search) ? exactPredicate(search, visibility) : shortPredicate(search, visibility))
    if (where.length === 0) where.push('1')
    rows = run(sqlite, walkPage(where), { ...params, limit: at.limit, offset: at.offset })
    count =
      where[0] === '1'
        ? () =>
            sqlite.query<{ count: number; version: number }, [number]>(COUNTERS).get(companyId)?.count ?? 0
        : () => countOf(sqlite, countWhere(where), params)
  }
  const page = pageOf(rows, at)
  return {
    contacts: maskContacts(contactDtosOf(sqlite, page.rows), visibility),
    count: typeof count === 'number' ? count : pageCount(page, count),
    hasMore: page.hasMore,
  }
}

/** `GET /contacts/list`: every contact of the company in name order (pickers), numbers masked for the reader. */
export function listAllContacts(ctx: Ctx) {
  const visibility = numberVisibility(ctx)
  const rows = ctx.sqlite
    .query<RawContactRow, [number]>(
      `SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE company_id = ? ORDER BY name, id`,
    )
    .all(ctx.actor.companyId)
  return maskContacts(contactDtosOf(ctx.sqlite, rows), visibility)
}

/** The company's range for two YYYY-MM-DD texts (both included). */
function companyRange(
  sqlite: Database,
  companyId: number,
  dateStart: string,
  dateEnd: string,
  fields: [string, string],
): DayRange {
  const timeZone = companyTimeZone(sqlite, companyId)
  return rangeOfDays(readDay(fields[0], dateStart), readDay(fields[1], dateEnd), timeZone, fields)
}
