/**
 * A company's wall clock: the local date, weekday and time of an instant in the company's time zone (its
 * `timezone` setting, read by `companyTimeZone` in settings/service.ts), through Intl (shared/timezone.ts), so
 * daylight saving and odd offsets are the platform's time-zone database's business, never arithmetic on offsets.
 */
import { DEFAULT_TIMEZONE, isValidTimeZone, wallTimeOf, weekdayOf } from '../shared/timezone'

export type LocalTime = {
  /** YYYY-MM-DD. */
  date: string
  /** 0 (Sunday) to 6 (Saturday), as Date#getDay. */
  weekday: number
  hour: number
  /** Minutes since local midnight. */
  minutes: number
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The local date, weekday and time of `at` in `timeZone` (an unknown zone counts as the default). */
export function localTime(at: number, timeZone = DEFAULT_TIMEZONE): LocalTime {
  const w = wallTimeOf(at, isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIMEZONE)
  return {
    date: `${w.year}-${pad(w.month)}-${pad(w.day)}`,
    weekday: weekdayOf(w.year, w.month, w.day),
    hour: w.hour,
    minutes: w.hour * 60 + w.minute,
  }
}
