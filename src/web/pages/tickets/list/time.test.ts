import { describe, expect, test } from 'bun:test'
import { elapsedSince, fullDateTime, ticketTime } from './time'

/** Local times, so the tests hold in any time zone. */
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min)

describe('ticket times', () => {
  const now = at(2026, 3, 10, 15, 30)

  test('HH:mm when it was today', () => {
    expect(ticketTime(at(2026, 3, 10, 9, 5).toISOString(), now)).toEqual({ kind: 'today', text: '09:05' })
    expect(ticketTime(at(2026, 3, 10, 0, 0).toISOString(), now)).toEqual({ kind: 'today', text: '00:00' })
  })

  test("'Ontem' for yesterday, even just before midnight and across a month", () => {
    expect(ticketTime(at(2026, 3, 9, 23, 59).toISOString(), now)).toEqual({ kind: 'yesterday' })
    expect(ticketTime(at(2026, 2, 28, 8).toISOString(), at(2026, 3, 1, 1))).toEqual({ kind: 'yesterday' })
  })

  test('dd/MM/yyyy before that', () => {
    expect(ticketTime(at(2026, 3, 8, 23, 59).toISOString(), now)).toEqual({
      kind: 'date',
      text: '08/03/2026',
    })
    expect(ticketTime(at(2025, 12, 31).toISOString(), now)).toEqual({ kind: 'date', text: '31/12/2025' })
  })

  test('nothing for a missing or unreadable date', () => {
    expect(ticketTime('', now)).toBeNull()
    expect(ticketTime('not a date', now)).toBeNull()
    expect(fullDateTime('x')).toBe('')
    expect(fullDateTime(at(2026, 3, 9, 7, 4).toISOString())).toBe('09/03/2026 07:04')
  })
})

describe('elapsed time', () => {
  const now = at(2026, 3, 10, 15, 30).getTime()
  const ago = (ms: number) => new Date(now - ms).toISOString()

  test("'now' under a minute, minutes under an hour, hours under a day, nothing after", () => {
    expect(elapsedSince(ago(59_000), now)).toEqual({ unit: 'now' })
    expect(elapsedSince(ago(60_000), now)).toEqual({ unit: 'minutes', count: 1 })
    expect(elapsedSince(ago(59 * 60_000), now)).toEqual({ unit: 'minutes', count: 59 })
    expect(elapsedSince(ago(60 * 60_000), now)).toEqual({ unit: 'hours', count: 1 })
    expect(elapsedSince(ago(23 * 3_600_000 + 59 * 60_000), now)).toEqual({ unit: 'hours', count: 23 })
    expect(elapsedSince(ago(24 * 3_600_000), now)).toBeNull()
  })

  test('a clock a little behind the server counts as now', () => {
    expect(elapsedSince(new Date(now + 5000).toISOString(), now)).toEqual({ unit: 'now' })
  })
})
