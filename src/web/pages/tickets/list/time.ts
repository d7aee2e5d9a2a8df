/**
 * The tickets list's times (spec 1, sections 2 and 9): the last contact as HH:mm when it was today, 'Ontem' when
 * it was yesterday, dd/MM/yyyy before that; and, for a customer who is waiting, how long ago in minutes or hours.
 */

const pad = (n: number) => String(n).padStart(2, '0')

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()
}

export type TicketTime =
  | { kind: 'today'; text: string }
  | { kind: 'yesterday' }
  | { kind: 'date'; text: string }

/** The last-contact time of a row (local time). An unreadable date gives null. */
export function ticketTime(iso: string | null | undefined, now: Date = new Date()): TicketTime | null {
  if (!iso) return null
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return null
  if (sameDay(d, now)) return { kind: 'today', text: `${pad(d.getHours())}:${pad(d.getMinutes())}` }
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12)
  if (sameDay(d, yesterday)) return { kind: 'yesterday' }
  return { kind: 'date', text: `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}` }
}

/** Time elapsed since then: 'now' under a minute, minutes under an hour, hours under a day; null after that. */
export type Elapsed = { unit: 'now' } | { unit: 'minutes' | 'hours'; count: number }

export function elapsedSince(iso: string | null | undefined, now: number = Date.now()): Elapsed | null {
  if (!iso) return null
  const then = new Date(iso).getTime()
  if (Number.isNaN(then)) return null
  const minutes = Math.floor(Math.max(0, now - then) / 60_000)
  if (minutes < 1) return { unit: 'now' }
  if (minutes < 60) return { unit: 'minutes', count: minutes }
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return { unit: 'hours', count: hours }
  return null
}

/** The full local date and time, for a tooltip: dd/MM/yyyy HH:mm. */
export function fullDateTime(iso: string | null | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
