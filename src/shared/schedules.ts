/**
 * Service hours: the one format both sides use for `queues.schedules` and `companies.schedules`.
 *
 * Stored as JSON text: `[{ "weekday": "Segunda-feira", "weekdayEn": "monday", "startTime": "08:00", "endTime": "18:00" }, …]`.
 * `weekdayEn` is the lowercase English day name (the key), `weekday` its Portuguese label, times are HH:MM in
 * 24 hours. An interval whose start equals its end means closed that day; an end before its start runs past
 * midnight (e.g. 22:00–02:00 is open from 22:00 until 02:00 of the next day). A day missing from the list is closed.
 *
 * An empty list means "never set": {@link effectiveSchedules} then gives the spec's defaults (the API answers
 * those too), so a reader should always go through it.
 *
 * The server validates every write with {@link validateSchedules}; readers use {@link effectiveSchedules} (never
 * throws) and {@link isWithinSchedule}.
 */

export const WEEKDAYS_EN = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const
export type WeekdayEn = (typeof WEEKDAYS_EN)[number]

/** Portuguese labels kept in the stored JSON (`weekday`), indexed like {@link WEEKDAYS_EN} (0 = Sunday, as Date#getDay). */
export const WEEKDAY_LABELS_PT: Record<WeekdayEn, string> = {
  sunday: 'Domingo',
  monday: 'Segunda-feira',
  tuesday: 'Terça-feira',
  wednesday: 'Quarta-feira',
  thursday: 'Quinta-feira',
  friday: 'Sexta-feira',
  saturday: 'Sábado',
}

/** Display order (Monday first), as the hours tab lists the days. */
export const WEEKDAY_ORDER: readonly WeekdayEn[] = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]

export type ScheduleEntry = {
  weekday: string
  weekdayEn: WeekdayEn
  /** HH:MM, 24 h. */
  startTime: string
  /** HH:MM, 24 h; equal to startTime means closed. */
  endTime: string
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/

/** True for a 24-hour `HH:MM` (00:00 to 23:59). */
export function isValidTime(value: unknown): value is string {
  return typeof value === 'string' && HHMM.test(value)
}

/** Minutes since midnight of a valid `HH:MM`. */
export function timeToMinutes(value: string): number {
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5))
}

/**
 * The spec's default hours: Monday to Friday 08:00–18:00, Saturday 08:00–12:00, Sunday 00:00–00:00 (closed).
 * A fresh array each call, in display order (Monday first).
 */
export function defaultSchedules(): ScheduleEntry[] {
  return WEEKDAY_ORDER.map((day) => {
    const [startTime, endTime] =
      day === 'saturday' ? ['08:00', '12:00'] : day === 'sunday' ? ['00:00', '00:00'] : ['08:00', '18:00']
    return { weekday: WEEKDAY_LABELS_PT[day], weekdayEn: day, startTime, endTime }
  })
}

export type ScheduleProblem = {
  index: number
  field: 'weekdayEn' | 'startTime' | 'endTime' | 'entry'
  message: string
}

export type ScheduleValidation =
  | { ok: true; schedules: ScheduleEntry[] }
  | { ok: false; problems: ScheduleProblem[] }

/**
 * Validates client input (an already-parsed JSON value). Accepts a list of at most 7 entries, one per day
 * (a repeated day is refused), with valid `weekdayEn` and HH:MM times. `weekday` is normalised to the Portuguese label
 * (whatever the client sent), `weekdayEn` is lower-cased, and the result is sorted Monday first.
 */
export function validateSchedules(value: unknown): ScheduleValidation {
  const problems: ScheduleProblem[] = []
  if (!Array.isArray(value))
    return { ok: false, problems: [{ index: -1, field: 'entry', message: 'must be a list' }] }
  if (value.length > 7)
    return { ok: false, problems: [{ index: -1, field: 'entry', message: 'at most 7 days' }] }
  const seen = new Set<WeekdayEn>()
  const out: ScheduleEntry[] = []
  value.forEach((raw, index) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push({ index, field: 'entry', message: 'must be an object' })
      return
    }
    const r = raw as Record<string, unknown>
    const day = typeof r.weekdayEn === 'string' ? r.weekdayEn.trim().toLowerCase() : ''
    const known = (WEEKDAYS_EN as readonly string[]).includes(day)
    if (!known) problems.push({ index, field: 'weekdayEn', message: 'must be a day name such as monday' })
    else if (seen.has(day as WeekdayEn)) problems.push({ index, field: 'weekdayEn', message: 'day repeated' })
    if (!isValidTime(r.startTime))
      problems.push({ index, field: 'startTime', message: 'must be a time as HH:MM' })
    if (!isValidTime(r.endTime))
      problems.push({ index, field: 'endTime', message: 'must be a time as HH:MM' })
    if (known && !seen.has(day as WeekdayEn) && isValidTime(r.startTime) && isValidTime(r.endTime)) {
      seen.add(day as WeekdayEn)
      out.push({
        weekday: WEEKDAY_LABELS_PT[day as WeekdayEn],
        weekdayEn: day as WeekdayEn,
        startTime: r.startTime,
        endTime: r.endTime,
      })
    }
  })
  if (problems.length > 0) return { ok: false, problems }
  out.sort((a, b) => WEEKDAY_ORDER.indexOf(a.weekdayEn) - WEEKDAY_ORDER.indexOf(b.weekdayEn))
  return { ok: true, schedules: out }
}

/**
 * Reads a stored value (JSON text, or an already-parsed list). Never throws: broken JSON or a list with invalid
 * entries gives [] (for stored data the server only ever writes validated lists).
 */
export function parseSchedules(stored: string | unknown): ScheduleEntry[] {
  let value: unknown = stored
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored)
    } catch {
      return []
    }
  }
  const result = validateSchedules(value)
  return result.ok ? result.schedules : []
}

/**
 * The hours in force for a stored value: an empty (or unreadable) list means hours were never set, so the spec's
 * defaults apply. To close every day, store all seven days with start equal to end.
 */
export function effectiveSchedules(stored: string | unknown): ScheduleEntry[] {
  const list = parseSchedules(stored)
  return list.length > 0 ? list : defaultSchedules()
}

/** The stored text of a validated list. */
export function serializeSchedules(schedules: ScheduleEntry[]): string {
  return JSON.stringify(
    schedules.map(({ weekday, weekdayEn, startTime, endTime }) => ({
      weekday,
      weekdayEn,
      startTime,
      endTime,
    })),
  )
}

/**
 * Whether a local wall-clock moment is inside the hours. `weekday` is 0 (Sunday) to 6 (Saturday) as Date#getDay,
 * `minutes` the minutes since local midnight. A day with start === end is closed; a missing day is closed; an
 * interval whose end is before its start runs past midnight (the part after midnight counts for the next day).
 * The end minute itself is outside (08:00–18:00 includes 17:59, not 18:00).
 */
export function isWithinSchedule(
  schedules: readonly ScheduleEntry[],
  weekday: number,
  minutes: number,
): boolean {
  const today = WEEKDAYS_EN[((weekday % 7) + 7) % 7]
  const yesterday = WEEKDAYS_EN[(((weekday - 1) % 7) + 7) % 7]
  for (const s of schedules) {
    const start = timeToMinutes(s.startTime)
    const end = timeToMinutes(s.endTime)
    if (start === end) continue
    if (s.weekdayEn === today) {
      if (start < end ? minutes >= start && minutes < end : minutes >= start) return true
    }
    if (s.weekdayEn === yesterday && end < start && minutes < end) return true
  }
  return false
}
