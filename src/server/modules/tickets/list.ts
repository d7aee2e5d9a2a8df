/**
 * GET /tickets, the inbox's hottest call: raw SQL prepared once per filter shape (bun:sqlite caches a
 * statement per SQL text, and the text depends only on which filters are present, never on their values), one
 * query for the page with its joins (`tickets_company_status_updated` scanned newest first, stopping at the
 * page's end) and one for the page's tags; numbers and timestamps stay numbers until the DTO.
 *
 * What a user sees (access.ts has the base rule):
 * - admins: every ticket; attendants: their queues, their own tickets, tickets without a queue when allTicket;
 * - `status=open` shows only the user's own tickets unless `showAll=true`, which an admin may switch on
 *   (tickets-manager:showall) and so may an attendant whose allUserChat is 'enabled'; for anyone else
 *   `showAll=true` is ignored (the list stays the user's own), not refused, so a stale client still works;
 * - `status=pending` shows every pending ticket the user may see (that is where tickets are accepted);
 * - `status=closed` and the search tab (no status) ignore show-all ("always show all tickets"); an attendant
 *   whose allHistoric is not 'enabled' sees only the closed tickets assigned to them there;
 * - `queueIds=[...]` keeps tickets of those queues and tickets without a queue (which the user may see): a
 *   ticket waiting for its queue must not vanish from everyone's list; `queueIds=[]` (no queue chosen) keeps
 *   only those without a queue, as the spec's list rule ("only when its queue is among the selected queues");
 * - `users`, `tags` (tickets with any of them; an empty list is no filter, as the spec's client sends it),
 *   `date` (created that day), `updatedAt` (updated that day; days are the company's, in its timezone setting,
 *   given as `YYYY-MM-DD` or as an ISO instant standing for the day it falls in), `withUnreadMessages=true`,
 *   and our `isGroup` (groups tab) narrow it;
 * - `searchParam` matches the contact's name or number (any part: trigram index; one or two characters scan the
 *   company's contacts) or the text of any of the ticket's messages (words, the last one as a prefix).
 *
 * `count`: without search, tags, dates or unread filter, the list is a sum over `ticket_counts` (kept exact by
 * triggers; the tabs' badges use it too, see `ticketCounts`), or known without a query when the page reaches
 * the end. Otherwise it is exact up to TICKET_COUNT_CAP (1,000): a filtered or searched list with more says
 * 1,000 (or as far as the page asked for reaches) and `countCapped: true`.
 */
import type { Database } from 'bun:sqlite'
import type { TicketCountsDto, TicketsPage } from '../../../shared/api'
import type { ListTicketsQuery, TicketCountsQuery } from '../../../shared/schemas/tickets'
import { addDays, instantOf, wallTimeOf } from '../../../shared/timezone'
import type { NumberVisibility } from '../../access/mask'
import type { Ctx } from '../../context'
import { type PageWindow, pageCount, pageOf, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { companyTimeZone } from '../settings/service'
import { type ActorScope, actorScope } from './access'
import {
  BY_IDS_SQL,
  TICKET_COLUMNS,
  TICKET_JOINS,
  type TicketJoinRow,
  type TicketPageRow,
  toTicketDtos,
} from './dto'
import { inIds } from './sql'

/**
 * Page 1's columns: without the company (the WHERE fixes it) and, when the list asks one status, without the
 * status; the DTOs take them from the query (`PageKnown`). ~7 µs less per page.
 */
const PAGE_COLUMNS = TICKET_COLUMNS.replace('t.company_id AS companyId,', '')
const PAGE_COLUMNS_ONE_STATUS = PAGE_COLUMNS.replace('t.status, ', '')

export const TICKETS_PAGE_SIZE = 40
export const TICKET_COUNT_CAP = 1000

type Param = string | number

/** Column expressions of the two tables a ticket filter runs on: the tickets and their trigger-kept counts. */
type Columns = {
  company: string
  status: string
  queue: string
  noQueue: string
  user: string
  group: string
}

/** The tickets table's columns (`t`), for `scopeFilter` (the Kanban board reads with it too). */
export const TICKETS: Columns = {
  company: 't.company_id',
  status: 't.status',
  queue: 't.queue_id',
  noQueue: 't.queue_id IS NULL',
  user: 't.user_id',
  group: 't.is_group',
}

/** ticket_counts keeps "no queue" and "no user" as 0. */
const COUNTS: Columns = {
  company: 'company_id',
  status: 'status',
  queue: 'queue_id',
  noQueue: 'queue_id = 0',
  user: 'user_id',
  group: 'is_group',
}

export type Filter = { where: string[]; params: Param[] }

export type ScopeFilter = {
  status?: 'open' | 'pending' | 'closed'
  showAll?: boolean
  queueIds?: number[]
  users?: number[]
  isGroup?: boolean
}

/** Whether show-all is in force: asked for, and allowed (tickets-manager:showall, or allUserChat). */
export function showAllAllowed(scope: ActorScope, asked: boolean | undefined) {
  return !!asked && (scope.admin || scope.allUserChat)
}

/** The conditions both the list and its count share: company, visibility, status, show-all, queues, users. */
export function scopeFilter(scope: ActorScope, f: ScopeFilter, col: Columns, out: Filter) {
  const { where, params } = out
  where.push(`${col.company} = ?`)
  params.push(scope.companyId)
  if (f.status) {
    where.push(`${col.status} = ?`)
    params.push(f.status)
  }
  if (!scope.admin) {
    const seen: string[] = []
    if (scope.queueIds.size > 0) seen.push(inIds(col.queue, [...scope.queueIds], params))
    seen.push(`${col.user} = ?`)
    params.push(scope.userId)
    if (scope.allTicket) seen.push(col.noQueue)
    where.push(`(${seen.join(' OR ')})`)
  }
  if (f.status === 'open' && !showAllAllowed(scope, f.showAll)) {
    where.push(`${col.user} = ?`)
    params.push(scope.userId)
  }
  if (!scope.admin && !scope.allHistoric) {
    if (f.status === 'closed') {
      where.push(`${col.user} = ?`)
      params.push(scope.userId)
    } else if (!f.status) {
      where.push(`(${col.status} <> 'closed' OR ${col.user} = ?)`)
      params.push(scope.userId)
    }
  }
  if (f.queueIds) where.push(`(${inIds(col.queue, f.queueIds, params)} OR ${col.noQueue})`)
  if (f.users) where.push(inIds(col.user, f.users, params))
  if (f.isGroup !== undefined) {
    where.push(`${col.group} = ?`)
    params.push(f.isGroup ? 1 : 0)
  }
}

/**
 * A day of the company as [start, end) in epoch ms: `YYYY-MM-DD`, or the day an ISO instant falls in, both in
 * the company's time zone (as the dashboard's days).
 */
export function dayRange(day: string, timeZone: string): [number, number] {
  let date: { year: number; month: number; day: number }
  if (day.length === 10) {
    const [year, month, d] = day.split('-').map(Number) as [number, number, number]
    date = { year, month, day: d }
  } else date = wallTimeOf(Date.parse(day), timeZone)
  const midnight = (d: { year: number; month: number; day: number }) =>
    instantOf({ year: d.year, month: d.month, day: d.day, hour: 0, minute: 0, second: 0 }, timeZone)
  return [midnight(date), midnight(addDays(date, 1))]
}

/** FTS5 phrase text: the user's words in double quotes, quotes doubled, so nothing is read as query syntax. */
function phrase(term: string) {
  return `"${term.replace(/"/g, '""')}"`
}

const PHONE_LIKE = /^[\d\s()+\-.]+$/

/**
 * For a reader who may not see numbers, a number typed in the search: it matches only the part of a number they
 * see (all but its last four digits, as on the contacts page, contacts/search.ts) and the names that are not
 * made of digits alone (such a name may be the number: contacts/mask.ts), so no search tells a hidden digit.
 */
function maskedNumberSearch(companyId: number, term: string, digits: string, out: Filter): string {
  const named = `t.contact_id IN (SELECT id FROM contacts WHERE id IN
      (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ?) AND name GLOB '*[^0-9 ()+.-]*')`
  if (digits.length >= 3) {
    out.params.push(`shown : ${phrase(digits)}`, companyId, companyId, `name : ${phrase(term)}`)
    return `(t.contact_id IN (SELECT rowid & 4294967295 FROM contacts_search WHERE contacts_search MATCH ?
      AND rowid BETWEEN (? << 32) AND ((? << 32) | 4294967295)) OR ${named})`
  }
  out.params.push(companyId, `%${digits}%`, `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)
  return `t.contact_id IN (SELECT id FROM contacts WHERE company_id = ?
    AND (substr(coalesce(number, ''), 1, max(length(coalesce(number, '')) - 4, 0)) LIKE ?
      OR (name LIKE ? ESCAPE '\\' AND name GLOB '*[^0-9 ()+.-]*')))`
}

/** The search's conditions: contact name or number (trigram, or a scan under 3 characters), or message text. */
function searchFilter(companyId: number, term: string, isTricked: NumberVisibility, out: Filter) {
  const digits = PHONE_LIKE.test(term) ? term.replace(/\D/g, '') : ''
  let contacts: string
  if (digits && isTricked !== 'enabled') {
    contacts = maskedNumberSearch(companyId, term, digits, out)
  } else if ([...term].length >= 3) {
    contacts = 't.contact_id IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ?)'
    out.params.push(
      digits.length >= 3 && digits !== term ? `${phrase(term)} OR number : ${phrase(digits)}` : phrase(term),
    )
  } else {
    const like = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
    contacts = `t.contact_id IN (SELECT id FROM contacts WHERE company_id = ?
      AND (name LIKE ? ESCAPE '\\' OR number LIKE ? ESCAPE '\\'))`
    out.params.push(companyId, like, like)
  }
  // rowid = ticket_id << 32 | message_id: a hit names its ticket without touching the messages table.
  const messages = 't.id IN (SELECT rowid >> 32 FROM messages_fts WHERE messages_fts MATCH ?)'
  out.params.push(`${phrase(term)}*`)
  out.where.push(`(${contacts} OR ${messages})`)
}

/** The filters only the tickets table can answer (so the count must be counted, not summed). */
function ticketOnlyFilters(
  sqlite: Database,
  q: ListTicketsQuery,
  scope: ActorScope,
  term: string,
  out: Filter,
): boolean {
  const { companyId, isTricked } = scope
  const before = out.where.length
  if (q.withUnreadMessages) out.where.push('t.unread_messages > 0')
  if (q.tags?.length) {
    out.where.push(
      't.id IN (SELECT ticket_id FROM ticket_tags WHERE tag_id IN (SELECT value FROM json_each(?)))',
    )
    out.params.push(JSON.stringify(q.tags))
  }
  const timeZone = q.date || q.updatedAt ? companyTimeZone(sqlite, companyId) : ''
  if (q.date) {
    out.where.push('t.created_at >= ? AND t.created_at < ?')
    out.params.push(...dayRange(q.date, timeZone))
  }
  if (q.updatedAt) {
    out.where.push('t.updated_at >= ? AND t.updated_at < ?')
    out.params.push(...dayRange(q.updatedAt, timeZone))
  }
  if (term) searchFilter(companyId, term, isTricked, out)
  return out.where.length > before
}

function scopeOf(q: ListTicketsQuery): ScopeFilter {
  return {
    status: q.status || undefined,
    showAll: q.showAll,
    queueIds: q.queueIds,
    // `users=[]` and `tags=[]` are what the spec's client sends when none is chosen: no filter. (`queueIds=[]`
    // means something: no queue chosen, so only the tickets waiting without one; see the top.)
    users: q.users?.length ? q.users : undefined,
    isGroup: q.isGroup,
  }
}

/** Sum of the trigger-kept counts under the same scope conditions. */
function summedCount(sqlite: Database, scope: ActorScope, f: ScopeFilter): number {
  const filter: Filter = { where: [], params: [] }
  scopeFilter(scope, f, COUNTS, filter)
  const sql = `SELECT coalesce(sum(count), 0) AS n FROM ticket_counts WHERE ${filter.where.join(' AND ')}`
  return stmt<{ n: number }, Param[]>(sqlite, sql).get(...filter.params)?.n ?? 0
}

export function listTickets(ctx: Ctx, q: ListTicketsQuery): TicketsPage {
  const scope = actorScope(ctx)
  const sqlite = ctx.sqlite
  const term = q.searchParam?.trim() ?? ''
  const at = pageWindow(q.pageNumber, TICKETS_PAGE_SIZE)
  const f = scopeOf(q)
  const filter: Filter = { where: [], params: [] }
  scopeFilter(scope, f, TICKETS, filter)
  const counted = ticketOnlyFilters(sqlite, q, scope, term, filter)
  const where = filter.where.join(' AND ')
  if (counted) return countedList(sqlite, scope, where, filter.params, at)
  // Page 1 reads its rows in the index scan itself; later pages skip through the covering index by id first,
  // so the rows (and joins) of the skipped pages are never read.
  const rows =
    at.offset === 0
      ? stmt<TicketPageRow, Param[]>(
          sqlite,
          `SELECT ${f.status ? PAGE_COLUMNS_ONE_STATUS : PAGE_COLUMNS} FROM tickets t ${TICKET_JOINS}
            WHERE ${where} ORDER BY t.updated_at DESC LIMIT ?`,
        ).all(...filter.params, at.limit)
      : rowsByIds(
          sqlite,
          stmt<[number], Param[]>(
            sqlite,
            `SELECT t.id FROM tickets t WHERE ${where} ORDER BY t.updated_at DESC LIMIT ? OFFSET ?`,
          )
            .values(...filter.params, at.limit, at.offset)
            .map((r) => r[0] as number),
        )
  const page = pageOf(rows, at)
  return {
    tickets: toTicketDtos(sqlite, page.rows, scope.isTricked, {
      companyId: scope.companyId,
      status: f.status,
    }),
    count: pageCount(page, () => summedCount(sqlite, scope, f)),
    hasMore: page.hasMore,
  }
}

/** The rows of these tickets with their joins, in the order of `ids`. */
function rowsByIds(sqlite: Database, ids: number[]): TicketJoinRow[] {
  if (ids.length === 0) return []
  const rows = stmt<TicketJoinRow, [string]>(sqlite, BY_IDS_SQL).all(JSON.stringify(ids))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/**
 * A list filtered by what only the tickets table knows (search, tags, dates, unread): one scan gives the ids
 * in order, as far as the count's cap or the page's end (whichever is further), so the search's hit sets are
 * built once for both the page and its count; then the page's rows are read by id.
 */
function countedList(
  sqlite: Database,
  scope: ActorScope,
  where: string,
  params: Param[],
  at: PageWindow,
): TicketsPage {
  const limit = Math.max(TICKET_COUNT_CAP, at.offset + at.size) + 1
  const ids = stmt<[number], Param[]>(
    sqlite,
    `SELECT t.id FROM tickets t WHERE ${where} ORDER BY t.updated_at DESC LIMIT ?`,
  ).values(...params, limit)
  const reachedEnd = ids.length < limit
  const ordered = rowsByIds(
    sqlite,
    ids.slice(at.offset, at.offset + at.size).map((r) => r[0] as number),
  )
  const page: TicketsPage = {
    tickets: toTicketDtos(sqlite, ordered, scope.isTricked),
    count: reachedEnd ? ids.length : limit - 1,
    hasMore: ids.length > at.offset + at.size,
  }
  if (!reachedEnd) page.countCapped = true
  return page
}

/**
 * The tabs' badges (GET /tickets/counts, our addition): open tickets (the user's own, or all with show-all) and
 * pending ones, for the normal lists and for groups, under the same visibility and queue selection as the
 * lists, summed from `ticket_counts` (no table scan, whatever the size).
 */
export function ticketCounts(ctx: Ctx, q: TicketCountsQuery): TicketCountsDto {
  const scope = actorScope(ctx)
  const result: TicketCountsDto = { open: { assigned: 0, pending: 0 }, groups: { assigned: 0, pending: 0 } }
  for (const status of ['open', 'pending'] as const) {
    const filter: Filter = { where: [], params: [] }
    scopeFilter(scope, { status, showAll: q.showAll, queueIds: q.queueIds }, COUNTS, filter)
    const sql = `SELECT is_group AS g, coalesce(sum(count), 0) AS n FROM ticket_counts
                  WHERE ${filter.where.join(' AND ')} GROUP BY is_group`
    for (const row of stmt<{ g: number; n: number }, Param[]>(ctx.sqlite, sql).all(...filter.params)) {
      const tab = row.g ? result.groups : result.open
      tab[status === 'open' ? 'assigned' : 'pending'] += row.n
    }
  }
  return result
}
