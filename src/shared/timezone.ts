/**
 * Wall-clock time in a named IANA time zone, both ways, with nothing but Intl (DST-safe): the company's
 * `timezone` setting decides how schedule times are entered, shown and repeated.
 */

export const DEFAULT_TIMEZONE = 'America/Sao_Paulo'

/** A wall-clock moment: month 1-12, day 1-31, hour 0-23. */
export type WallTime = {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    if (formatters.size > 64) formatters.clear()
    formatters.set(timeZone, f)
  }
  return f
}

/** True when Intl knows this zone name. */
export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || !value || value.length > 64) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** The zone names Intl lists (plus UTC), for a picker. */
export function timeZoneNames(): string[] {
  const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return list.includes('UTC') ? [...list] : ['UTC', ...list]
}

/** The wall-clock time of an instant in a zone. */
export function wallTimeOf(ms: number, timeZone: string): WallTime {
  const out: Record<string, number> = {}
  for (const p of formatterOf(timeZone).formatToParts(ms))
    if (p.type !== 'literal') out[p.type] = Number(p.value)
  return {
    year: out.year!,
    month: out.month!,
    day: out.day!,
    hour: out.hour! % 24,
    minute: out.minute!,
    second: out.second!,
  }
}

function utcOf(w: WallTime): number {
  const d = new Date(Date.UTC(2000, w.month - 1, w.day, w.hour, w.minute, w.second))
  d.setUTCFullYear(w.year)
  return d.getTime()
}

/** The zone's offset from UTC at an instant, in ms (e.g. -3 h for São Paulo). */
export function zoneOffset(ms: number, timeZone: string): number {
  const whole = ms - (((ms % 1000) + 1000) % 1000)
  return utcOf(wallTimeOf(whole, timeZone)) - whole
}

/**
 * The instant of a wall-clock time in a zone. A time that does not exist (skipped by a DST change) is moved
 * forward by the gap; a time that happens twice (clocks set back) is its first occurrence.
 */
export function instantOf(w: WallTime, timeZone: string): number {
  const local = utcOf(w)
  const before = zoneOffset(local - 86_400_000, timeZone)
  const after = zoneOffset(local + 86_400_000, timeZone)
  // Try both offsets around the moment; keep the ones that give back this wall time.
  const candidates = [local - before, local - after].filter((t) => zoneOffset(t, timeZone) === local - t)
  if (candidates.length) return Math.min(...candidates)
  // In a gap: the offset from before the change, which lands after it (e.g. 02:30 -> 03:30).
  return local - before
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** DD/MM/YYYY HH:mm:ss of an instant in a zone (the spec's date format for schedules). */
export function formatInZone(ms: number, timeZone: string): string {
  const w = wallTimeOf(ms, timeZone)
  return `${pad(w.day)}/${pad(w.month)}/${pad(w.year, 4)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`
}

/** `YYYY-MM-DDTHH:mm` of an instant in a zone (a datetime-local input's value). */
export function localInputValue(ms: number, timeZone: string): string {
  const w = wallTimeOf(ms, timeZone)
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/

/** Reads `YYYY-MM-DD[T ]HH:mm[:ss]` as a wall time, or null when it is not one (a bad day, 25:00…). */
export function parseWallTime(value: string): WallTime | null {
  const m = LOCAL.exec(value)
  if (!m) return null
  const w = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
  }
  if (w.month < 1 || w.month > 12 || w.hour > 23 || w.minute > 59 || w.second > 59) return null
  if (w.day < 1 || w.day > daysInMonth(w.year, w.month)) return null
  return w
}

/** How many days a month has (month 1-12). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!
}

function isLeap(year: number) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

/** The weekday of a calendar date, 0 (Sunday) to 6. */
export function weekdayOf(year: number, month: number, day: number): number {
  return new Date(utcOf({ year, month, day, hour: 12, minute: 0, second: 0 })).getUTCDay()
}

/** The calendar date `n` days after a date. */
export function addDays(
  d: { year: number; month: number; day: number },
  n: number,
): { year: number; month: number; day: number } {
  const t = new Date(utcOf({ ...d, hour: 12, minute: 0, second: 0 }) + n * 86_400_000)
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() }
}
