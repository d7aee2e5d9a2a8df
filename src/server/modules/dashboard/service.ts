/**
 * The dashboard (spec 3, "Dashboard"): `GET /dashboard`, `GET /messages-allMe`.
 *
 * Every figure comes from what was recorded as it happened, never from the tickets' present state (which a
 * reopen or a transfer rewrites):
 * - `dashboard_stats` (kept by a trigger on `ticket_events`, migration `dashboard`): per company, quarter of an
 *   hour and user, the tickets created, the waits (pending → open: the time since the ticket last entered the
 *   queue, by whoever took it) and the closes (with the service time since the ticket was last taken, by whoever
 *   held it). Averages are sums of exact milliseconds divided by counts, so they are exact.
 * - `message_counts` (triggers on `messages`): messages per quarter of an hour and direction.
 * - `user_ratings`: the customers' 0-10 answers to the rating question (chatbot/ratings.ts), by attendant.
 * - `ticket_counts` (triggers on `tickets`): how many tickets are open and pending now, by user. The counters
 *   "in service" and "waiting" are always now; an attendant's open tickets count only when the range contains
 *   now (a range that ended before today knows nothing of what is open now, so its `tickets` are its closes).
 * A range is whole days of the company's time zone; a quarter-hour bucket never straddles a local midnight, so
 * summing buckets is exact. Group and imported tickets are left out of the ticket figures.
 *
 * Who may see it: admins (the permission dashboard:view) and users whose showDashboard is 'enabled'; such a
 * user sees the company's counters and the attendants who share a queue with them (the spec: "the dashboard
 * lists attendants filtered by the user's queues").
 */
import type { DashboardAttendant, DashboardData, DashboardNps, MessagesAllMe } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { can } from '../../../shared/permissions'
import type { DashboardQuery, MessagesAllMeQuery } from '../../../shared/schemas/dashboard'
import { addDays, instantOf } from '../../../shared/timezone'
import { type Ctx, type UserActor, userActor } from '../../context'
import { type DayRange, midnight, rangeOfDays, rangeOfLastDays, readDay, today } from '../../day-range'
import { stmt } from '../../db/statements'
import { companyTimeZone } from '../settings/service'
import { BUCKET_MS, bucketsOf } from './range'

/** The spec's text when no filter is given. */
export const FILTER_REQUIRED = 'Parametrize o filtro'

/** Admins, and users whose showDashboard is 'enabled'; anyone else is refused with a 403. */
export function assertMaySeeDashboard(ctx: Ctx): UserActor {
  const actor = userActor(ctx)
  if (can(actor, 'dashboard:view')) return actor
  const row = stmt<{ flag: string }, [number, number]>(
    ctx.sqlite,
    'SELECT show_dashboard AS flag FROM users WHERE id = ? AND company_id = ?',
  ).get(actor.userId, actor.companyId)
  if (row?.flag === 'enabled') return actor
  throw new AppError('ERR_NO_PERMISSION', 'Missing permission dashboard:view')
}

function rangeOf(ctx: Ctx, companyId: number, query: DashboardQuery): DayRange {
  const timeZone = companyTimeZone(ctx.sqlite, companyId)
  if (query.days !== undefined) return rangeOfLastDays(query.days, ctx.clock.now(), timeZone)
  if (query.date_from === undefined && query.date_to === undefined)
    throw new AppError('ERR_VALIDATION', FILTER_REQUIRED, undefined, [
      { field: 'days', message: FILTER_REQUIRED },
    ])
  if (query.date_from === undefined || query.date_to === undefined) {
    const field = query.date_from === undefined ? 'date_from' : 'date_to'
    throw new AppError('ERR_VALIDATION', `${field} is required with a date range`, undefined, [
      { field, message: 'is required with a date range' },
    ])
  }
  return rangeOfDays(readDay('date_from', query.date_from), readDay('date_to', query.date_to), timeZone)
}

type StatRow = {
  userId: number
  created: number
  waits: number
  waitMs: number
  closes: number
  services: number
  serviceMs: number
}

const STAT_SUMS = 'user_id, created, waits, wait_ms, closes, services, service_ms'

/** The range's whole UTC days from dashboard_days, its partial days' quarters of an hour from dashboard_stats. */
const STATS_SQL = `SELECT user_id AS userId, sum(created) AS created, sum(waits) AS waits, sum(wait_ms) AS waitMs,
    sum(closes) AS closes, sum(services) AS services, sum(service_ms) AS serviceMs
  FROM (SELECT ${STAT_SUMS} FROM dashboard_stats WHERE company_id = ?1 AND bucket BETWEEN ?2 AND ?3
        UNION ALL SELECT ${STAT_SUMS} FROM dashboard_days WHERE company_id = ?1 AND day BETWEEN ?4 AND ?5
        UNION ALL SELECT ${STAT_SUMS} FROM dashboard_stats WHERE company_id = ?1 AND bucket BETWEEN ?6 AND ?7)
  GROUP BY user_id`

const BUCKETS_A_DAY = 96

/** The parameters of STATS_SQL: [company, head buckets, whole days, tail buckets] (an empty part has from > to). */
export function statParts(companyId: number, range: { from: number; to: number }) {
  const [first, last] = bucketsOf(range)
  const firstDay = Math.ceil(first / BUCKETS_A_DAY)
  const lastDay = Math.floor((last + 1) / BUCKETS_A_DAY) - 1
  if (firstDay > lastDay) return [companyId, first, last, 1, 0, 1, 0] as const
  return [
    companyId,
    first,
    firstDay * BUCKETS_A_DAY - 1,
    firstDay,
    lastDay,
    (lastDay + 1) * BUCKETS_A_DAY,
    last,
  ] as const
}

const NOW_SQL = `SELECT status, user_id AS userId, sum(count) AS n FROM ticket_counts
  WHERE company_id = ? AND is_group = 0 AND status IN ('open', 'pending') GROUP BY status, user_id`

const RATINGS_SQL = `SELECT coalesce(user_id, 0) AS userId, rate, count(*) AS n FROM user_ratings
  WHERE company_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1, 2`

const USERS_SQL = `SELECT id, name, online FROM users WHERE company_id = ? ORDER BY name, id`

const MESSAGES_SQL = `SELECT from_me AS fromMe, sum(count) AS n FROM message_counts
  WHERE company_id = ? AND bucket BETWEEN ? AND ? GROUP BY from_me`

const LEADS_SQL = `SELECT count(*) AS n FROM contacts WHERE company_id = ? AND created_at >= ? AND created_at < ?`

const TODAY_SQL = `SELECT bucket, sum(created) AS n FROM dashboard_stats
  WHERE company_id = ? AND bucket BETWEEN ? AND ? AND created > 0 GROUP BY bucket`

/** Milliseconds to minutes, two decimals; null without anything measured. */
export function minutes(ms: number, count: number): number | null {
  if (!count) return null
  return Math.round(ms / count / 600) / 100
}

/** Promoters 9-10, passives 7-8, detractors 0-6 (the rating question asks for 0 to 10). */
export function npsGroup(rate: number): 'promoters' | 'passives' | 'detractors' {
  return rate >= 9 ? 'promoters' : rate >= 7 ? 'passives' : 'detractors'
}

type Tally = { promoters: number; passives: number; detractors: number; total: number; sum: number }
const emptyTally = (): Tally => ({ promoters: 0, passives: 0, detractors: 0, total: 0, sum: 0 })

/** % promoters − % detractors, rounded to a whole number; null without ratings. */
export function npsScore(t: { promoters: number; detractors: number; total: number }): number | null {
  if (!t.total) return null
  return Math.round(((t.promoters - t.detractors) * 100) / t.total)
}

/** Users that share a queue with `userId` (and the user): the attendants a non-admin viewer sees. */
function colleaguesOf(ctx: Ctx, userId: number): Set<number> {
  const rows = stmt<{ id: number }, [number, number]>(
    ctx.sqlite,
    `SELECT DISTINCT o.user_id AS id FROM user_queues mine JOIN user_queues o ON o.queue_id = mine.queue_id
      WHERE mine.user_id = ? UNION SELECT ?`,
  ).all(userId, userId)
  return new Set(rows.map((r) => r.id))
}

/** Tickets created each local hour of today (24 values; a DST day folds its repeated hour into one). */
function ticketsByHour(ctx: Ctx, companyId: number, timeZone: string): number[] {
  const day = today(ctx.clock.now(), timeZone)
  const from = midnight(day, timeZone)
  const to = midnight(addDays(day, 1), timeZone)
  const [first, last] = bucketsOf({ from, to })
  const hours = new Array<number>(24).fill(0)
  const rows = stmt<{ bucket: number; n: number }, [number, number, number]>(ctx.sqlite, TODAY_SQL).all(
    companyId,
    first,
    last,
  )
  if (!rows.length) return hours
  // The local hour of each quarter of an hour: the last local hour that starts at or before it (DST-safe).
  const hourStarts = hours.map((_, hour) => instantOf({ ...day, hour, minute: 0, second: 0 }, timeZone))
  for (const { bucket, n } of rows) {
    const at = bucket * BUCKET_MS
    let hour = 23
    while (hour > 0 && hourStarts[hour]! > at) hour--
    hours[hour]! += n
  }
  return hours
}

/** `GET /dashboard`. */
export function getDashboard(ctx: Ctx, query: DashboardQuery): DashboardData {
  const actor = assertMaySeeDashboard(ctx)
  const companyId = actor.companyId
  const range = rangeOf(ctx, companyId, query)
  const [first, last] = bucketsOf(range)
  const { sqlite } = ctx

  // Per user: recorded stats in the range; user 0 is nobody (the system).
  const stats = stmt<StatRow, [number, number, number, number, number, number, number]>(
    sqlite,
    STATS_SQL,
  ).all(...statParts(companyId, range))
  const total = { created: 0, waits: 0, waitMs: 0, closes: 0, services: 0, serviceMs: 0 }
  const byUser = new Map<number, StatRow>()
  for (const row of stats) {
    byUser.set(row.userId, row)
    total.created += row.created
    total.waits += row.waits
    total.waitMs += row.waitMs
    total.closes += row.closes
    total.services += row.services
    total.serviceMs += row.serviceMs
  }

  let open = 0
  let pending = 0
  const openByUser = new Map<number, number>()
  const now = ctx.clock.now()
  const rangeHasNow = range.from <= now && now < range.to
  for (const row of stmt<{ status: string; userId: number; n: number }, [number]>(sqlite, NOW_SQL).all(
    companyId,
  )) {
    if (row.status === 'open') {
      open += row.n
      if (rangeHasNow) openByUser.set(row.userId, (openByUser.get(row.userId) ?? 0) + row.n)
    } else pending += row.n
  }

  const distribution = new Array<number>(11).fill(0)
  const all = emptyTally()
  const tallies = new Map<number, Tally>()
  for (const { userId, rate, n } of stmt<
    { userId: number; rate: number; n: number },
    [number, number, number]
  >(sqlite, RATINGS_SQL).all(companyId, range.from, range.to)) {
    const r = Math.max(0, Math.min(10, Math.round(rate)))
    distribution[r]! += n
    let t = tallies.get(userId)
    if (!t) {
      t = emptyTally()
      tallies.set(userId, t)
    }
    for (const x of [all, t]) {
      x[npsGroup(r)] += n
      x.total += n
      x.sum += r * n
    }
  }

  const messages = { sent: 0, received: 0 }
  for (const { fromMe, n } of stmt<{ fromMe: number; n: number }, [number, number, number]>(
    sqlite,
    MESSAGES_SQL,
  ).all(companyId, first, last)) {
    if (fromMe) messages.sent += n
    else messages.received += n
  }
  const leads =
    stmt<{ n: number }, [number, number, number]>(sqlite, LEADS_SQL).get(companyId, range.from, range.to)
      ?.n ?? 0

  const users = stmt<{ id: number; name: string; online: number }, [number]>(sqlite, USERS_SQL).all(companyId)
  const visible = can(actor, 'dashboard:view') ? null : colleaguesOf(ctx, actor.userId)
  const shown = visible ? users.filter((u) => visible.has(u.id)) : users
  const attendants: DashboardAttendant[] = shown.map((u) => {
    const s = byUser.get(u.id)
    const t = tallies.get(u.id)
    const openCount = openByUser.get(u.id) ?? 0
    const closeCount = s?.closes ?? 0
    return {
      id: u.id,
      name: u.name,
      rating: t?.total ? Math.round((t.sum / t.total) * 10) / 10 : null,
      ratings: t?.total ?? 0,
      tickets: openCount + closeCount,
      openCount,
      closeCount,
      avgWaitTime: minutes(s?.waitMs ?? 0, s?.waits ?? 0),
      avgSupportTime: minutes(s?.serviceMs ?? 0, s?.services ?? 0),
      online: !!u.online,
    }
  })

  const shownIds = new Set(shown.map((u) => u.id))
  const nps: DashboardNps = {
    score: npsScore(all),
    promoters: all.promoters,
    passives: all.passives,
    detractors: all.detractors,
    total: all.total,
    distribution,
    byAttendant: shown
      .filter((u) => tallies.has(u.id))
      .map((u) => {
        const t = tallies.get(u.id)!
        return {
          id: u.id,
          name: u.name,
          score: npsScore(t),
          average: Math.round((t.sum / t.total) * 10) / 10,
          promoters: t.promoters,
          passives: t.passives,
          detractors: t.detractors,
          total: t.total,
        }
      })
      .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name)),
  }

  return {
    range: { dateFrom: range.dateFrom, dateTo: range.dateTo, timeZone: range.timeZone },
    counters: {
      supportHappening: open,
      supportPending: pending,
      supportFinished: total.closes,
      avgSupportTime: minutes(total.serviceMs, total.services),
      avgWaitTime: minutes(total.waitMs, total.waits),
      ticketsCreated: total.created,
      messagesSent: messages.sent,
      messagesReceived: messages.received,
      leads,
      onlineAttendants: users.filter((u) => u.online && shownIds.has(u.id)).length,
      totalAttendants: shown.length,
    },
    attendants,
    nps,
    ticketsByHour: ticketsByHour(ctx, companyId, range.timeZone),
  }
}

/** `GET /messages-allMe`: the company's messages sent (fromMe) or received in the days dateStart to dateEnd. */
export function countMessages(ctx: Ctx, query: MessagesAllMeQuery): MessagesAllMe {
  const actor = assertMaySeeDashboard(ctx)
  const timeZone = companyTimeZone(ctx.sqlite, actor.companyId)
  const range = rangeOfDays(
    readDay('dateStart', query.dateStart),
    readDay('dateEnd', query.dateEnd),
    timeZone,
    ['dateStart', 'dateEnd'],
  )
  const [first, last] = bucketsOf(range)
  const n =
    stmt<{ n: number | null }, [number, number, number, number]>(
      ctx.sqlite,
      `SELECT sum(count) AS n FROM message_counts WHERE company_id = ? AND bucket BETWEEN ? AND ? AND from_me = ?`,
    ).get(actor.companyId, first, last, query.fromMe ? 1 : 0)?.n ?? 0
  return { count: [{ count: n }] }
}
