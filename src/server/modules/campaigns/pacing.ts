/**
 * The campaigns' pace on a connection, read from the company's campaign settings: the wait between messages
 * (and the longer one after every N), "typing..." before each, the sending window and the daily cap with its
 * warm-up. What the number already sent is the door's (outbound/counters.ts): it counts every sender.
 */
import type { Database } from 'bun:sqlite'
import { minutesOf, WARMUP_FIRST_DAY, WARMUP_MAX, WARMUP_STEP } from '../../../shared/campaign-settings'
import { instantOf, wallTimeOf } from '../../../shared/timezone'
import type { Logger } from '../../logger'
import { readCampaignSettings } from '../campaign-settings/service'
import { sendingDaysBefore } from '../outbound/counters'

/** The daily cap of a number's first days (no `dailyLimit` setting): 50 on day 1, +50 a day, up to 500. */
export { WARMUP_FIRST_DAY, WARMUP_MAX }

/** "typing..." lasts 50 ms per character of the message, between 1 and 5 seconds. */
export function typingMsOf(text: string) {
  return Math.min(5_000, Math.max(1_000, text.length * 50))
}

export type Pacing = { messageInterval: number; longerIntervalAfter: number; greaterInterval: number }

export type Protection = {
  /** The explicit daily cap, or null for the warm-up. */
  dailyLimit: number | null
  /** Minutes of the day [start, end) when sending is allowed, or null (any hour). */
  window: { start: number; end: number } | null
}

/** What the pace reads from: the database and the log a broken setting is reported to. */
export type SettingsSource = { sqlite: Database; log: Logger }

/** The company's campaign settings, read strictly (an unreadable table throws; a broken value is logged). */
export function readSettings(deps: SettingsSource, companyId: number) {
  return readCampaignSettings(deps, companyId)
}

export function readPacing(deps: SettingsSource, companyId: number): Pacing {
  const s = readSettings(deps, companyId)
  const sane = (n: number) => (Number.isFinite(n) && n >= 0 ? Math.min(n, 3_600) : 0)
  return {
    messageInterval: sane(s.messageInterval),
    longerIntervalAfter: Math.floor(sane(s.longerIntervalAfter)),
    greaterInterval: sane(s.greaterInterval),
  }
}

/**
 * The wait after the n-th message of the day (n from 1): greaterInterval seconds after every
 * longerIntervalAfter messages (0: never), otherwise a random wait of up to messageInterval seconds.
 */
export function intervalAfter(n: number, p: Pacing, random: () => number): number {
  if (p.longerIntervalAfter > 0 && n % p.longerIntervalAfter === 0) return p.greaterInterval * 1000
  return Math.round(random() * p.messageInterval * 1000)
}

/**
 * `dailyLimit` (a whole number 1..10000: messages a day per connection; absent or null: the warm-up) and
 * `sendWindow` (`{ "start": "HH:MM", "end": "HH:MM" }` in the company's time zone, an end before the start
 * crossing midnight; absent or null: any hour) from the campaign settings, read as POST /campaign-settings
 * validates them (src/shared/campaign-settings.ts).
 */
export function readProtection(deps: SettingsSource, companyId: number): Protection {
  const s = readSettings(deps, companyId)
  const start = minutesOf(s.sendWindow?.start)
  const end = minutesOf(s.sendWindow?.end)
  return {
    dailyLimit: s.dailyLimit,
    window: start != null && end != null && start !== end ? { start, end } : null,
  }
}

export function msUntilNextDay(now: number, timeZone: string) {
  const w = wallTimeOf(now, timeZone)
  const midnight = instantOf({ ...w, hour: 0, minute: 0, second: 0 }, timeZone)
  return Math.max(1_000, midnight + 24 * 60 * 60 * 1000 - now)
}

/** 0 inside the window (or without one); otherwise how long until it opens. */
export function msUntilWindow(now: number, window: Protection['window'], timeZone: string): number {
  if (!window) return 0
  const w = wallTimeOf(now, timeZone)
  const minute = w.hour * 60 + w.minute
  const inside =
    window.start < window.end
      ? minute >= window.start && minute < window.end
      : minute >= window.start || minute < window.end
  if (inside) return 0
  let wait = window.start - minute
  if (wait <= 0) wait += 24 * 60
  return Math.max(1_000, wait * 60_000 - w.second * 1000)
}

/** The explicit cap, or the warm-up: 50 on the number's first sending day, 50 more each day it sent, up to 500. */
export function dailyCapOf(sqlite: Database, whatsappId: number, day: string, protection: Protection) {
  if (protection.dailyLimit != null) return protection.dailyLimit
  const before = sendingDaysBefore(sqlite, whatsappId, day)
  return Math.min(WARMUP_MAX, WARMUP_FIRST_DAY + WARMUP_STEP * before)
}
