import type { RepeatFrequency, ScheduleDto } from '../../../shared/scheduled-messages'
import { SCHEDULE_BODY_MIN, SCHEDULE_DEFAULT_AHEAD_MS } from '../../../shared/scheduled-messages'
import { instantOf, localInputValue, parseWallTime } from '../../../shared/timezone'

export type ContactRef = { id: number; name: string }

export type ScheduleForm = {
  contact: ContactRef | null
  body: string
  /** YYYY-MM-DDTHH:mm in the company's zone. */
  sendAt: string
  repeat: 'none' | RepeatFrequency
  weekdays: number[]
  until: string
  openTicket: boolean
  ticketUserId: number | null
  queueId: number | null
  statusTicket: 'open' | 'closed'
  /** The connection it is sent through; null: the company's default. */
  whatsappId: number | null
}

/** A new schedule: now + 1 hour, openTicket on, statusTicket closed (the spec's defaults). */
export function emptySchedule(
  now: number,
  timeZone: string,
  contact: ContactRef | null = null,
  whatsappId: number | null = null,
): ScheduleForm {
  return {
    contact,
    body: '',
    sendAt: localInputValue(now + SCHEDULE_DEFAULT_AHEAD_MS, timeZone),
    repeat: 'none',
    weekdays: [],
    until: '',
    openTicket: true,
    ticketUserId: null,
    queueId: null,
    statusTicket: 'closed',
    whatsappId,
  }
}

/** A saved schedule as the form edits it, its time in the company's zone. */
export function formOf(s: ScheduleDto, timeZone: string): ScheduleForm {
  return {
    contact: { id: s.contact.id, name: s.contact.name },
    body: s.body,
    sendAt: localInputValue(Date.parse(s.sendAt), timeZone),
    repeat: s.repeat?.freq ?? 'none',
    weekdays: s.repeat?.weekdays ?? [],
    until: s.repeat?.until ?? '',
    openTicket: s.openTicket === 'enabled',
    ticketUserId: s.ticketUserId,
    queueId: s.queueId,
    statusTicket: s.statusTicket,
    whatsappId: s.whatsappId,
  }
}

export type ScheduleErrors = Partial<
  Record<'contact' | 'body' | 'sendAt' | 'until' | 'weekdays' | 'file', string>
>

/** The client's check, with the spec's message for a short body. */
export function validateSchedule(
  f: ScheduleForm,
  timeZone: string,
  t: (k: string) => string,
): ScheduleErrors {
  const errors: ScheduleErrors = {}
  if (!f.contact) errors.contact = t('schedules.contactRequired')
  if ([...f.body.trim()].length < SCHEDULE_BODY_MIN) errors.body = t('schedules.bodyTooShort')
  const wall = parseWallTime(f.sendAt)
  if (!wall) errors.sendAt = t('schedules.sendAtRequired')
  if (f.repeat !== 'none') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(f.until)) errors.until = t('schedules.untilRequired')
    else if (
      wall &&
      instantOf({ ...parseWallTime(`${f.until}T23:59`)!, second: 59 }, timeZone) < instantOf(wall, timeZone)
    )
      errors.until = t('schedules.untilBeforeStart')
    if (f.repeat === 'weekly' && !f.weekdays.length) errors.weekdays = t('schedules.weekdaysRequired')
  }
  return errors
}

/** The body of POST / PUT /api/schedules: the send time as an instant of the company's zone. */
export function scheduleBodyOf(f: ScheduleForm, timeZone: string) {
  const wall = parseWallTime(f.sendAt)!
  return {
    contactId: f.contact!.id,
    body: f.body.trim(),
    sendAt: new Date(instantOf(wall, timeZone)).toISOString(),
    openTicket: f.openTicket ? 'enabled' : 'disabled',
    ticketUserId: f.openTicket ? f.ticketUserId : null,
    queueId: f.openTicket ? f.queueId : null,
    statusTicket: f.openTicket ? f.statusTicket : 'closed',
    // The spec's list of connections; the server sends through the first (none: the company's default).
    whatsappIds: f.whatsappId == null ? [] : [f.whatsappId],
    repeat:
      f.repeat === 'none'
        ? null
        : { freq: f.repeat, until: f.until, ...(f.repeat === 'weekly' ? { weekdays: f.weekdays } : {}) },
  }
}
