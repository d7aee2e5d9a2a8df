/**
 * The spec's message variables, filled the same way wherever a template reaches a customer (the connection's
 * greeting, out-of-hours and collective vacation messages, a queue's greeting, option messages, the farewell
 * and complation message, transfer and accept notices, the rating question, the inactivity message):
 *
 * - {{firstName}}: the contact's first name; {{name}}: the contact's name;
 * - {{ms}}: 'Bom dia' (05:00 to 11:59), 'Boa tarde' (12:00 to 17:59) or 'Boa noite', by the company's local time;
 * - {{protocol}}: the ticket's protocol, the local day it was opened (yyyyMMdd) followed by its id.
 *
 * Other text (and unknown {{…}}) is left as written.
 */
import { DEFAULT_TIMEZONE } from '../../../shared/timezone'
import { localTime } from '../../local-time'

export type TemplateTicket = { id: number; createdAt: number; contactName: string }

/** The time-of-day greeting of an instant in a time zone. */
export function greetingOfHour(at: number, timeZone = DEFAULT_TIMEZONE): string {
  const { hour } = localTime(at, timeZone)
  if (hour >= 5 && hour < 12) return 'Bom dia'
  if (hour >= 12 && hour < 18) return 'Boa tarde'
  return 'Boa noite'
}

/** The ticket's protocol number: the local day it was opened (yyyyMMdd) followed by its id. */
export function protocolOf(ticket: { id: number; createdAt: number }, timeZone = DEFAULT_TIMEZONE): string {
  return `${localTime(ticket.createdAt, timeZone).date.replaceAll('-', '')}${ticket.id}`
}

/** Fills {{firstName}}, {{name}}, {{ms}} and {{protocol}} (spaces inside the braces allowed). */
export function fillTemplate(
  text: string,
  ticket: TemplateTicket,
  now: number,
  timeZone = DEFAULT_TIMEZONE,
): string {
  if (!text.includes('{{')) return text
  const name = ticket.contactName.trim()
  const values: Record<string, () => string> = {
    firstName: () => name.split(/\s+/)[0] ?? '',
    name: () => name,
    ms: () => greetingOfHour(now, timeZone),
    protocol: () => protocolOf(ticket, timeZone),
  }
  return text.replace(
    /\{\{\s*(firstName|name|ms|protocol)\s*\}\}/g,
    (_, key: string) => values[key]?.() ?? '',
  )
}
