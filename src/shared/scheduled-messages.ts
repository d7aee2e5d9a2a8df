/**
 * Scheduled messages (spec 2, "Schedule"): what the API answers, the statuses, and repetition.
 *
 * Status: PENDENTE (waiting for its time), ENVIANDO (claimed, its message handed to the sender), ENVIADA
 * (sent; `sentAt` is set and the record is locked), ERRO (failed; `error` says why; may be retried).
 *
 * Repetition: a schedule may repeat daily, weekly on chosen days, or monthly, until an end date (inclusive,
 * in the company's time zone). Each occurrence is its own record with its own status; the next one is written
 * when the previous one falls due, at the same wall-clock time in the company's zone (DST-safe). A monthly
 * schedule on the 31st goes out on the last day of shorter months. Occurrences missed while the server was
 * down are not all sent at once: the overdue one is sent, and the series continues from the next future time.
 */
import {
  addDays,
  daysInMonth,
  instantOf,
  parseWallTime,
  type WallTime,
  wallTimeOf,
  weekdayOf,
} from './timezone'

export const SCHEDULE_STATUSES = ['PENDENTE', 'ENVIANDO', 'ENVIADA', 'ERRO'] as const
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number]

/** The spec's constants. */
export const SCHEDULE_BODY_MIN = 5
export const SCHEDULE_BODY_MAX = 4096
export const SCHEDULE_PREVIEW_CHARS = 25
export const SCHEDULE_DEFAULT_AHEAD_MS = 60 * 60 * 1000
export const SCHEDULES_PAGE_SIZE = 20

export const REPEAT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const
export type RepeatFrequency = (typeof REPEAT_FREQUENCIES)[number]

/** What a client sends: how often, on which weekdays (0 = Sunday, weekly only), until which local date. */
export type RepeatInput = { freq: RepeatFrequency; weekdays?: number[]; until: string }

/** What is kept: the input plus the wall-clock time and day of month of the first occurrence. */
export type RepeatRule = {
  freq: RepeatFrequency
  weekdays: number[]
  /** YYYY-MM-DD, inclusive, in the company's zone. */
  until: string
  hour: number
  minute: number
  second: number
  monthDay: number
}

export type ScheduleDto = {
  id: number
  companyId: number
  body: string
  contactId: number
  contact: { id: number; name: string }
  sendAt: string
  sentAt: string | null
  status: ScheduleStatus
  openTicket: 'enabled' | 'disabled'
  ticketUserId: number | null
  queueId: number | null
  statusTicket: 'open' | 'closed'
  whatsappId: number | null
  userId: number | null
  mediaPath: string | null
  mediaName: string | null
  /** A signed link to the attachment, or null. */
  mediaUrl: string | null
  error: string | null
  attempts: number
  ticketId: number | null
  repeat: RepeatRule | null
  seriesId: number | null
  createdAt: string
  updatedAt: string
}

export type SchedulesPage = { schedules: ScheduleDto[]; count: number; hasMore: boolean }

/** The rule kept for a series whose first occurrence is at `firstAt`. */
export function repeatRuleOf(input: RepeatInput, firstAt: number, timeZone: string): RepeatRule {
  const w = wallTimeOf(firstAt, timeZone)
  return {
    freq: input.freq,
    weekdays: input.freq === 'weekly' ? [...new Set(input.weekdays ?? [])].sort((a, b) => a - b) : [],
    until: input.until,
    hour: w.hour,
    minute: w.minute,
    second: w.second,
    monthDay: w.day,
  }
}

type Day = { year: number; month: number; day: number }

const dayKey = (d: Day) => d.year * 10_000 + d.month * 100 + d.day

/**
 * The first occurrence of the rule strictly after `afterMs`, or null once past the end date. Dates are the
 * company's (`timeZone`); each occurrence is at the rule's wall-clock time on its date.
 */
export function nextOccurrence(rule: RepeatRule, afterMs: number, timeZone: string): number | null {
  const until = parseWallTime(`${rule.until}T00:00`)
  if (!until) return null
  const untilKey = dayKey(until)
  const at = (d: Day) =>
    instantOf({ ...d, hour: rule.hour, minute: rule.minute, second: rule.second }, timeZone)
  const start: WallTime = wallTimeOf(afterMs, timeZone)
  if (rule.freq === 'monthly') {
    let { year, month } = start
    for (let i = 0; i < 1300; i++) {
      const d = { year, month, day: Math.min(rule.monthDay, daysInMonth(year, month)) }
      if (dayKey(d) > untilKey) return null
      const t = at(d)
      if (t > afterMs) return t
      month += 1
      if (month > 12) {
        month = 1
        year += 1
      }
    }
    return null
  }
  if (rule.freq === 'weekly' && !rule.weekdays.length) return null
  let d: Day = { year: start.year, month: start.month, day: start.day }
  for (let i = 0; i < 40_000; i++) {
    if (dayKey(d) > untilKey) return null
    if (rule.freq === 'daily' || rule.weekdays.includes(weekdayOf(d.year, d.month, d.day))) {
      const t = at(d)
      if (t > afterMs) return t
    }
    d = addDays(d, 1)
  }
  return null
}

/** The title the spec gives a status: 'Erro de Envio' for ERRO, 'Mensagem <status>' otherwise. */
export function scheduleStatusTitle(status: string): string {
  return status === 'ERRO' ? 'Erro de Envio' : `Mensagem ${status}`
}

/** The spec's body preview: 25 characters, then an ellipsis. */
export function bodyPreview(body: string): string {
  const chars = [...body]
  return chars.length > SCHEDULE_PREVIEW_CHARS ? `${chars.slice(0, SCHEDULE_PREVIEW_CHARS).join('')}…` : body
}
