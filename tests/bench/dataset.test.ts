import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import {
  buildTickets,
  contactOf,
  FIRST_NAMES,
  h,
  LAST_NAMES,
  messageOf,
  messageTicket,
  PHRASES,
  SIZES,
  STATUS_CODES,
  T0,
  ticketOf,
  userOf,
  uuidOf,
} from './dataset'

/** Lower case without diacritics, as the search tables compare. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()

describe('h(tag, i)', () => {
  test('is the first 32 bits of md5(tag:i), unsigned', () => {
    for (const [tag, i] of [
      ['ts', 1],
      ['mt', 25_001],
      ['cf', 20_000],
      ['x', 0],
    ] as const) {
      const expected = createHash('md5').update(`${tag}:${i}`).digest().readUInt32BE(0)
      expect(h(tag, i)).toBe(expected)
    }
  })

  test('never negative, even when the top bit is set', () => {
    const values = Array.from({ length: 200 }, (_, i) => h('tt', i))
    expect(values.some((v) => v >= 2 ** 31)).toBe(true)
    expect(values.every((v) => v >= 0 && v < 2 ** 32 && Number.isInteger(v))).toBe(true)
  })
})

describe('per-row rules', () => {
  test('ticket 300: open, queue 4, contact 300, times in the 90 days before T0', () => {
    const t = ticketOf(300)
    expect(t).toMatchObject({ id: 300, status: 'open', queueId: 4, contactId: 300 })
    expect(t.userId).toBeGreaterThanOrEqual(1)
    expect(t.updatedAt).toBeLessThanOrEqual(T0)
    expect(t.updatedAt).toBeGreaterThan(T0 - 90 * 86_400_000)
    expect(t.createdAt).toBeLessThanOrEqual(t.updatedAt)
    expect(t.updatedAt - t.createdAt).toBeLessThan(3 * 86_400_000)
    expect(ticketOf(20_001).contactId).toBe(1)
  })

  test('a pending ticket has no user; times are whole seconds', () => {
    const pending = Array.from({ length: 200 }, (_, i) => ticketOf(i + 1)).filter(
      (t) => t.status === 'pending',
    )
    expect(pending.length).toBeGreaterThan(0)
    for (const t of pending) expect(t.userId).toBeNull()
    for (const t of pending) expect(t.createdAt % 1000).toBe(0)
  })

  test('messages: 50 each to tickets 100..50,000, the rest never to a multiple of 100', () => {
    expect(messageTicket(1)).toBe(100)
    expect(messageTicket(50)).toBe(100)
    expect(messageTicket(51)).toBe(200)
    expect(messageTicket(25_000)).toBe(50_000)
    const of300 = Array.from({ length: 25_000 }, (_, i) => i + 1).filter((m) => messageTicket(m) === 300)
    expect(of300).toEqual(Array.from({ length: 50 }, (_, i) => 101 + i))
    for (let m = 25_001; m <= 27_000; m++) {
      const t = messageTicket(m)
      expect(t % 100).not.toBe(0)
      expect(t).toBeGreaterThanOrEqual(1)
      expect(t).toBeLessThanOrEqual(49_999)
    }
  })

  test('a message from us has ack 1..3, one from the customer ack 0', () => {
    const rows = Array.from({ length: 300 }, (_, i) => messageOf(i + 1))
    for (const m of rows) {
      if (m.fromMe) expect([1, 2, 3]).toContain(m.ack)
      else expect(m.ack).toBe(0)
    }
    const share = rows.filter((m) => m.fromMe).length / rows.length
    expect(share).toBeGreaterThan(0.35)
    expect(share).toBeLessThan(0.55)
  })

  test('contacts: 55 + area 11..99 + 9 + the number padded to 8 digits', () => {
    expect(contactOf(1).number).toMatch(/^55(1[1-9]|[2-9]\d)900000001$/)
    expect(contactOf(20_000).number).toMatch(/^55\d\d900020000$/)
    expect(contactOf(7).name).toMatch(/^\p{L}+ \p{L}+$/u)
  })

  test('users: the admin in all queues, attendant u in ((u-2)%5)+1 and ((u-1)%5)+1', () => {
    expect(userOf(1)).toMatchObject({
      email: 'admin@dataset.test',
      profile: 'admin',
      queueIds: [1, 2, 3, 4, 5],
    })
    expect(userOf(2).queueIds).toEqual([1, 2])
    expect(userOf(6).queueIds).toEqual([5, 1])
    expect(userOf(10)).toMatchObject({ profile: 'user', queueIds: [4, 5] })
  })

  test('uuids are stable and shaped like version 4', () => {
    expect(uuidOf('ticket', 300)).toBe(uuidOf('ticket', 300))
    expect(uuidOf('ticket', 300)).not.toBe(uuidOf('contact', 300))
    expect(uuidOf('ticket', 300)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })
})

describe('the fixed lists', () => {
  test('30 first names and 30 surnames; only the seven named first names contain "ana" or "maria"', () => {
    expect(new Set(FIRST_NAMES).size).toBe(30)
    expect(new Set(LAST_NAMES).size).toBe(30)
    const first: string[] = [...FIRST_NAMES]
    expect(first.filter((n) => fold(n).includes('maria'))).toEqual(['Maria', 'Mariana'])
    expect(first.filter((n) => fold(n).includes('ana')).sort()).toEqual(
      ['Adriana', 'Ana', 'Fabiana', 'Juliana', 'Luciana', 'Mariana'].sort(),
    )
    expect(LAST_NAMES.filter((n) => /ana|maria/.test(fold(n)))).toEqual([])
  })

  test('20 phrases of 45-66 characters, mean 59; one contains "maria", one "ana"', () => {
    expect(PHRASES).toHaveLength(20)
    const lengths = PHRASES.map((p) => p.length)
    expect(Math.min(...lengths)).toBe(45)
    expect(Math.max(...lengths)).toBe(66)
    expect(lengths.reduce((a, b) => a + b, 0) / 20).toBe(59)
    expect(PHRASES.filter((p) => fold(p).includes('maria'))).toHaveLength(1)
    expect(PHRASES.filter((p) => fold(p).includes('ana'))).toHaveLength(1)
  })
})

describe('the expected counts that need no database', () => {
  test('tickets by status before and after the one-active rule, queues', () => {
    const t = buildTickets()
    expect(t.before).toEqual({ open: 7_552, pending: 4_913, closed: 37_535 })
    const count = (pred: (i: number) => boolean) => {
      let n = 0
      for (let i = 1; i <= SIZES.tickets; i++) if (pred(i)) n++
      return n
    }
    const status = (i: number) => STATUS_CODES[t.status[i]!]
    expect(count((i) => status(i) === 'open')).toBe(6_171)
    expect(count((i) => status(i) === 'pending')).toBe(3_976)
    expect(count((i) => status(i) === 'closed')).toBe(39_853)
    expect(count((i) => t.queue[i] === 0)).toBe(4_971)
    expect(count((i) => status(i) === 'open' && t.queue[i] !== 0)).toBe(5_558)
    expect(count((i) => status(i) === 'pending' && (t.queue[i] === 1 || t.queue[i] === 2))).toBe(1_363)
    expect(status(300)).toBe('open')
    const active = new Set<number>()
    for (let i = 1; i <= SIZES.tickets; i++) {
      if (status(i) === 'closed') continue
      expect(active.has(t.contact[i]!)).toBe(false)
      active.add(t.contact[i]!)
    }
  })

  test('contacts whose name contains "ana" and "maria"', () => {
    let ana = 0
    let maria = 0
    for (let i = 1; i <= SIZES.contacts; i++) {
      const name = fold(contactOf(i).name)
      if (name.includes('ana')) ana++
      if (name.includes('maria')) maria++
    }
    expect({ ana, maria }).toEqual({ ana: 3_903, maria: 1_369 })
  })
})
