/**
 * Ranges of days as instants: local midnights in the company's time zone (its `timezone` setting), so a day is
 * the company's day whatever the server's or the browser's zone, DST included. The dashboard counts over them and
 * the contacts search filters by them.
 */
import { AppError } from '../shared/errors'
import { DASHBOARD_MAX_DAYS } from '../shared/schemas/dashboard'
import { addDays, instantOf, parseWallTime, wallTimeOf } from '../shared/timezone'

export type Day = { year: number; month: number; day: number }

/** [from, to): from the first day's local midnight to the local midnight after the last day. */
export type DayRange = { from: number; to: number; dateFrom: string; dateTo: string; timeZone: string }

const pad = (n: number, w = 2) => String(n).padStart(w, '0')
export const dayText = (d: Day) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`

function invalid(field: string, message: string) {
  return new AppError('ERR_VALIDATION', message, undefined, [{ field, message }])
}

/** A YYYY-MM-DD that is a real calendar day, or a 400 naming the field. */
export function readDay(field: string, value: string): Day {
  const w = parseWallTime(`${value}T00:00`)
  if (!w) throw invalid(field, `${field} must be a real date as YYYY-MM-DD`)
  return { year: w.year, month: w.month, day: w.day }
}

export function midnight(d: Day, timeZone: string): number {
  return instantOf({ ...d, hour: 0, minute: 0, second: 0 }, timeZone)
}

/** Today in a zone. */
export function today(now: number, timeZone: string): Day {
  const w = wallTimeOf(now, timeZone)
  return { year: w.year, month: w.month, day: w.day }
}

/** The range of the days `first` to `last` (both included); a 400 when reversed or longer than the limit. */
export function rangeOfDays(
  first: Day,
  last: Day,
  timeZone: string,
  fields: [string, string] = ['date_from', 'date_to'],
): DayRange {
  const from = midnight(first, timeZone)
  const to = midnight(addDays(last, 1), timeZone)
  if (to <= from) throw invalid(fields[1], `${fields[1]} must not be before ${fields[0]}`)
  // Days counted on the calendar (a DST day is 23 or 25 hours long).
  const days =
    Math.round(
      (Date.UTC(last.year, last.month - 1, last.day) - Date.UTC(first.year, first.month - 1, first.day)) /
        86_400_000,
    ) + 1
  if (days > DASHBOARD_MAX_DAYS)
    throw invalid(fields[1], `The range may span at most ${DASHBOARD_MAX_DAYS} days`)
  return { from, to, dateFrom: dayText(first), dateTo: dayText(last), timeZone }
}

/** The last `days` days, today included. */
export function rangeOfLastDays(days: number, now: number, timeZone: string): DayRange {
  const last = today(now, timeZone)
  return rangeOfDays(addDays(last, -(days - 1)), last, timeZone)
}
