/**
 * The dashboard on a small hand-made day whose answers are known: tickets moved through the real API with the
 * manual clock (every event recorded as it happens), ratings and messages written as their modules write them.
 *
 * Company A's time zone is São Paulo (UTC-3). The clock starts at 2026-11-21 12:00Z, 09:00 local:
 *   09:00 T1, T2 created (pending, queue Q)     09:10 attendant accepts T1 (wait 10)
 *   09:20 admin accepts T2 (wait 20)            09:40 attendant closes T1 (service 30)
 *   10:20 admin closes T2 (service 60); T3 created (stays pending); T4 created
 *   10:25 attendant accepts T4 (wait 5; stays open)
 *   10:30 T5 created                            10:40 attendant accepts T5 (wait 10)
 *   11:00 attendant returns T5 to the queue     11:30 admin accepts T5 (wait 30, counted from the return)
 *   12:00 admin closes T5 (service 30, counted from 11:30)
 * Waits 10+20+5+10+30 = 75 over 5 = 15 min; services 30+60+30 = 120 over 3 = 40 min.
 * Attendant: waits 10, 5, 10 (8.33), service 30, 1 closed, 1 open. Admin: waits 20, 30 (25), services 60, 30 (45),
 * 2 closed. Created per local hour: 09 → 2, 10 → 3.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createHarness, type Harness } from '../../test/harness'
import { expectNo500 } from '../../test/probe'
import { recordTicketEvent } from '../tickets/events'
import { makeContact, makeMessage, makeTicket } from '../tickets/testing'
import { statParts } from './service'

const MIN = 60_000
const START = Date.parse('2026-11-21T12:00:00Z')

let h: Harness
let admin: Awaited<ReturnType<Harness['as']>>
let agent: Awaited<ReturnType<Harness['as']>>
let queueId: number
const ids: Record<string, number> = {}

function at(localHhMm: string) {
  // 2026-11-21 local (UTC-3) as an instant.
  return Date.parse(`2026-11-21T${localHhMm}:00-03:00`)
}

function moveTo(instant: number) {
  const now = h.clock.now()
  if (instant < now) throw new Error('the clock only moves forward')
  h.clock.advance(instant - now)
}

/** A pending ticket in queue Q created now, as the inbound path records it. */
function pendingTicket(companyId: number, fields: { isGroup?: boolean; queueId?: number | null } = {}) {
  const t = makeTicket(h, companyId, { queueId: fields.queueId ?? queueId, isGroup: fields.isGroup })
  recordTicketEvent(h.deps.sqlite, {
    companyId,
    ticketId: t.id,
    type: 'created',
    actorUserId: null,
    from: null,
    to: { status: 'pending', userId: null, queueId: fields.queueId ?? queueId, whatsappId: null },
    at: h.clock.now(),
  })
  return t
}

/** Signs in again first: sessions expire while the clock moves on. */
async function put(email: string, id: number, body: Record<string, unknown>) {
  const res = await (await h.as(email)).put(`/tickets/${id}`, body)
  if (res.status !== 200) throw new Error(`PUT /tickets/${id} ${res.status} ${JSON.stringify(res.body)}`)
}

function rate(companyId: number, ticketId: number, userId: number | null, value: number, when: number) {
  h.deps.sqlite
    .query(
      'INSERT INTO user_ratings (company_id, ticket_id, user_id, rate, created_at) VALUES (?, ?, ?, ?, ?)',
    )
    .run(companyId, ticketId, userId, value, when)
}

beforeAll(async () => {
  h = await createHarness()
  expect(h.clock.now()).toBe(START)
  queueId = h.makeQueue(h.a.id).id
  h.addToQueue(h.a.attendantId, queueId)
  h.addToQueue(h.a.adminId, queueId)

  moveTo(at('09:00'))
  const t1 = pendingTicket(h.a.id)
  const t2 = pendingTicket(h.a.id)
  moveTo(at('09:10'))
  await put(h.a.attendant, t1.id, { status: 'open' })
  moveTo(at('09:20'))
  await put(h.a.admin, t2.id, { status: 'open' })
  moveTo(at('09:40'))
  await put(h.a.attendant, t1.id, { status: 'closed' })
  moveTo(at('10:20'))
  await put(h.a.admin, t2.id, { status: 'closed' })
  const t3 = pendingTicket(h.a.id)
  const t4 = pendingTicket(h.a.id)
  moveTo(at('10:25'))
  await put(h.a.attendant, t4.id, { status: 'open' })
  moveTo(at('10:30'))
  const t5 = pendingTicket(h.a.id)
  moveTo(at('10:40'))
  await put(h.a.attendant, t5.id, { status: 'open' })
  moveTo(at('11:00'))
  await put(h.a.attendant, t5.id, { status: 'pending' })
  moveTo(at('11:30'))
  await put(h.a.admin, t5.id, { status: 'open' })
  moveTo(at('12:00'))
  await put(h.a.admin, t5.id, { status: 'closed' })
  Object.assign(ids, { t1: t1.id, t2: t2.id, t3: t3.id, t4: t4.id, t5: t5.id })

  // A group ticket taken and closed: never counted.
  const g = pendingTicket(h.a.id, { isGroup: true })
  moveTo(at('12:10'))
  await put(h.a.admin, g.id, { status: 'open' })
  moveTo(at('12:20'))
  await put(h.a.admin, g.id, { status: 'closed' })

  // Company B's busy day: never counted for A.
  const bq = h.makeQueue(h.b.id).id
  const b1 = pendingTicket(h.b.id, { queueId: bq })
  moveTo(at('12:30'))
  await put(h.b.admin, b1.id, { status: 'open' })
  moveTo(at('13:30'))
  await put(h.b.admin, b1.id, { status: 'closed' })
  rate(h.b.id, b1.id, h.b.adminId, 0, h.clock.now())
  makeMessage(h, b1, { fromMe: true })
  makeMessage(h, b1, { fromMe: false })

  // Ratings 0-10: attendant 10, 9, 8, 3; admin 6, 10; one of the day before (outside a one-day range).
  rate(h.a.id, t1.id, h.a.attendantId, 10, at('13:00'))
  rate(h.a.id, t4.id, h.a.attendantId, 9, at('13:00'))
  rate(h.a.id, t3.id, h.a.attendantId, 8, at('13:00'))
  rate(h.a.id, t2.id, h.a.adminId, 6, at('13:00'))
  rate(h.a.id, t5.id, h.a.adminId, 10, at('13:00'))
  const old = makeTicket(h, h.a.id, { status: 'closed' })
  rate(h.a.id, old.id, h.a.attendantId, 3, Date.parse('2026-11-20T12:00:00-03:00'))
  const late = makeTicket(h, h.a.id, { status: 'closed' })
  rate(h.a.id, late.id, h.a.attendantId, 3, at('13:05'))

  // Messages of A: 3 sent, 2 received.
  const tk = { id: t1.id, companyId: h.a.id, contactId: t1.contactId }
  for (let i = 0; i < 3; i++) makeMessage(h, tk, { fromMe: true })
  for (let i = 0; i < 2; i++) makeMessage(h, tk, { fromMe: false })

  moveTo(at('14:00'))
  admin = await h.as(h.a.admin)
  agent = await h.as(h.a.attendant)
}, 60_000)

const today = '/dashboard?date_from=2026-11-21&date_to=2026-11-21'

describe('GET /dashboard: the hand-made day', () => {
  test('counters', async () => {
    const res = await admin.get(today)
    expect(res.status).toBe(200)
    const c = res.body.counters
    expect(c.supportHappening).toBe(1) // T4
    expect(c.supportPending).toBe(1) // T3
    expect(c.supportFinished).toBe(2 + 1) // T1, T2, T5
    expect(c.avgWaitTime).toBe(15)
    expect(c.avgSupportTime).toBe(40)
    expect(c.ticketsCreated).toBe(5)
    expect(c.messagesSent).toBe(3)
    expect(c.messagesReceived).toBe(2)
    expect(c.totalAttendants).toBe(2)
    expect(res.body.range).toEqual({
      dateFrom: '2026-11-21',
      dateTo: '2026-11-21',
      timeZone: 'America/Sao_Paulo',
    })
  })

  test('attendants: waits, services, open and closed per attendant', async () => {
    const res = await admin.get(today)
    const byId = new Map(res.body.attendants.map((a: { id: number }) => [a.id, a]))
    expect(byId.get(h.a.attendantId)).toMatchObject({
      openCount: 1,
      closeCount: 1,
      tickets: 2,
      avgWaitTime: 8.33,
      avgSupportTime: 30,
      rating: 7.5,
      ratings: 4,
      online: false,
    })
    expect(byId.get(h.a.adminId)).toMatchObject({
      openCount: 0,
      closeCount: 2,
      tickets: 2,
      avgWaitTime: 25,
      avgSupportTime: 45,
      rating: 8,
      ratings: 2,
    })
  })

  test('NPS: promoters 9-10 minus detractors 0-6, the distribution, per attendant', async () => {
    const { nps } = (await admin.get(today)).body
    // attendant 10, 9, 8, 3; admin 6, 10 → promoters 3, passives 1, detractors 2 of 6: 16.67 → 17
    expect(nps).toMatchObject({ promoters: 3, passives: 1, detractors: 2, total: 6, score: 17 })
    expect(nps.distribution).toEqual([0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 2])
    const agentNps = nps.byAttendant.find((a: { id: number }) => a.id === h.a.attendantId)
    expect(agentNps).toMatchObject({
      promoters: 2,
      passives: 1,
      detractors: 1,
      total: 4,
      score: 25,
      average: 7.5,
    })
    const adminNps = nps.byAttendant.find((a: { id: number }) => a.id === h.a.adminId)
    expect(adminNps).toMatchObject({ promoters: 1, detractors: 1, total: 2, score: 0, average: 8 })
    // Two days: the rating of the 20th joins.
    const two = (await admin.get('/dashboard?date_from=2026-11-20&date_to=2026-11-21')).body.nps
    expect(two.total).toBe(7)
    expect(two.score).toBe(0)
  })

  test("today's tickets per local hour", async () => {
    const res = await admin.get('/dashboard?days=1')
    const hours = res.body.ticketsByHour
    expect(hours).toHaveLength(24)
    expect(hours[9]).toBe(2)
    expect(hours[10]).toBe(3)
    expect(hours.reduce((a: number, b: number) => a + b, 0)).toBe(5)
  })

  test('days=N counts the last N local days, today included', async () => {
    const one = (await admin.get('/dashboard?days=1')).body
    expect(one.range).toMatchObject({ dateFrom: '2026-11-21', dateTo: '2026-11-21' })
    expect(one.counters.supportFinished).toBe(3)
    const seven = (await admin.get('/dashboard?days=7')).body
    expect(seven.range).toMatchObject({ dateFrom: '2026-11-15', dateTo: '2026-11-21' })
    // days wins over dates
    const both = (await admin.get('/dashboard?days=1&date_from=2026-01-01&date_to=2026-01-02')).body
    expect(both.range.dateFrom).toBe('2026-11-21')
  })

  test('range edges: the day before and after count nothing', async () => {
    for (const day of ['2026-11-20', '2026-11-22']) {
      const res = await admin.get(`/dashboard?date_from=${day}&date_to=${day}`)
      expect(res.status).toBe(200)
      expect(res.body.counters).toMatchObject({
        supportFinished: 0,
        ticketsCreated: 0,
        avgWaitTime: null,
        avgSupportTime: null,
        messagesSent: 0,
        messagesReceived: 0,
      })
      // Right now is not a range figure.
      expect(res.body.counters.supportHappening).toBe(1)
    }
  })
})

describe('time zones', () => {
  test('a ticket at 23:30 local belongs to that local day and hour; in UTC to the next day', async () => {
    const h2 = await createHarness()
    // 2026-11-22 02:30Z = 2026-11-21 23:30 in São Paulo
    h2.clock.advance(Date.parse('2026-11-22T02:30:00Z') - h2.clock.now())
    const t = makeTicket(h2, h2.a.id)
    recordTicketEvent(h2.deps.sqlite, {
      companyId: h2.a.id,
      ticketId: t.id,
      type: 'created',
      actorUserId: null,
      from: null,
      to: { status: 'pending', userId: null, queueId: null, whatsappId: null },
      at: h2.clock.now(),
    })
    const a2 = await h2.as(h2.a.admin)
    let res = await a2.get('/dashboard?date_from=2026-11-21&date_to=2026-11-21')
    expect(res.body.counters.ticketsCreated).toBe(1)
    expect(res.body.ticketsByHour[23]).toBe(1)
    res = await a2.get('/dashboard?date_from=2026-11-22&date_to=2026-11-22')
    expect(res.body.counters.ticketsCreated).toBe(0)

    expect((await a2.put('/settings/timezone', { key: 'timezone', value: 'UTC' })).status).toBe(200)
    res = await a2.get('/dashboard?date_from=2026-11-21&date_to=2026-11-21')
    expect(res.body.counters.ticketsCreated).toBe(0)
    res = await a2.get('/dashboard?days=1')
    expect(res.body.range).toMatchObject({ dateFrom: '2026-11-22', timeZone: 'UTC' })
    expect(res.body.counters.ticketsCreated).toBe(1)
    expect(res.body.ticketsByHour[2]).toBe(1)

    // A half-hour zone: Kolkata (UTC+5:30); 02:30Z is 08:00 there.
    await a2.put('/settings/timezone', { key: 'timezone', value: 'Asia/Kolkata' })
    res = await a2.get('/dashboard?days=1')
    expect(res.body.ticketsByHour[8]).toBe(1)
    expect(res.body.counters.ticketsCreated).toBe(1)
  })
})

describe('permissions and companies', () => {
  test('an attendant is refused unless their showDashboard is enabled; then sees colleagues only', async () => {
    expect((await agent.get(today)).status).toBe(403)
    expect(
      (await agent.get('/messages-allMe?fromMe=true&dateStart=2026-11-21&dateEnd=2026-11-21')).status,
    ).toBe(403)
    const loner = h.makeUser(h.a.id, { name: 'Loner', email: 'loner@alpha.test' })
    h.deps.sqlite.query("UPDATE users SET show_dashboard = 'enabled' WHERE id = ?").run(h.a.attendantId)
    const res = await agent.get(today)
    expect(res.status).toBe(200)
    const names = res.body.attendants.map((a: { id: number }) => a.id).sort()
    expect(names).toEqual([h.a.adminId, h.a.attendantId].sort())
    expect(names).not.toContain(loner.id)
    // the counters are the company's
    expect(res.body.counters.supportFinished).toBe(3)
    h.deps.sqlite.query("UPDATE users SET show_dashboard = 'disabled' WHERE id = ?").run(h.a.attendantId)
    expect((await agent.get(today)).status).toBe(403)
    // the admin sees everyone, the new user too
    const all = (await admin.get(today)).body
    expect(all.attendants.map((a: { id: number }) => a.id)).toContain(loner.id)
    h.deps.sqlite.query('DELETE FROM users WHERE id = ?').run(loner.id)
  })

  test('without a session: 401; company B sees only its own figures', async () => {
    expect((await h.call('GET', today)).status).toBe(401)
    const b = await h.as(h.b.admin)
    const res = await b.get(today)
    expect(res.status).toBe(200)
    expect(res.body.counters).toMatchObject({
      supportFinished: 1,
      avgWaitTime: 10,
      avgSupportTime: 60,
      ticketsCreated: 1,
      messagesSent: 1,
      messagesReceived: 1,
      supportHappening: 0,
      supportPending: 0,
    })
    expect(res.body.nps).toMatchObject({ total: 1, detractors: 1, score: -100 })
    const ids = res.body.attendants.map((a: { id: number }) => a.id)
    expect(ids).not.toContain(h.a.adminId)
    expect(ids).not.toContain(h.a.attendantId)
  })

  test('online attendants', async () => {
    h.deps.sqlite.query('UPDATE users SET online = 1 WHERE id = ?').run(h.a.attendantId)
    const res = await admin.get(today)
    expect(res.body.counters.onlineAttendants).toBe(1)
    expect(res.body.attendants.find((a: { id: number }) => a.id === h.a.attendantId).online).toBe(true)
    h.deps.sqlite.query('UPDATE users SET online = 0 WHERE id = ?').run(h.a.attendantId)
  })
})

describe('bad parameters: 400 with a clear message, never 500', () => {
  test('no filter: Parametrize o filtro', async () => {
    const res = await admin.get('/dashboard')
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Parametrize o filtro')
  })

  test.each([
    'days=0',
    'days=367',
    'days=abc',
    'days=1.5',
    'days=-3',
    'days=%F0%9F%98%80',
    'days=99999999999999999999',
    'date_from=2026-11-01',
    'date_to=2026-11-01',
    'date_from=2026-02-30&date_to=2026-03-01',
    'date_from=2026-13-01&date_to=2026-12-01',
    'date_from=21/11/2026&date_to=2026-11-21',
    'date_from=2026-11-22&date_to=2026-11-21',
    'date_from=2024-01-01&date_to=2026-11-21',
    'date_from=%00&date_to=2026-11-21',
    `date_from=${'9'.repeat(5000)}&date_to=2026-11-21`,
  ])('%s', async (q) => {
    const res = await admin.get(`/dashboard?${q}`)
    expectNo500(q, res)
    expect(res.status).toBe(400)
    expect(typeof res.body.message).toBe('string')
    expect(res.body.message.length).toBeGreaterThan(0)
  })

  test('exactly 366 days is allowed', async () => {
    expect((await admin.get('/dashboard?days=366')).status).toBe(200)
    expect((await admin.get('/dashboard?date_from=2025-11-21&date_to=2026-11-21')).status).toBe(200)
  })
})

describe('GET /messages-allMe', () => {
  const path = (q: string) => `/messages-allMe?${q}`
  test("the spec's shape: { count: [{ count }] }", async () => {
    let res = await admin.get(path('fromMe=true&dateStart=2026-11-21&dateEnd=2026-11-21'))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ count: [{ count: 3 }] })
    res = await admin.get(path('fromMe=false&dateStart=2026-11-21&dateEnd=2026-11-21'))
    expect(res.body).toEqual({ count: [{ count: 2 }] })
    res = await admin.get(path('fromMe=false&dateStart=2026-11-22&dateEnd=2026-11-30'))
    expect(res.body).toEqual({ count: [{ count: 0 }] })
  })

  test('deleting messages takes them off the count', async () => {
    const t = makeTicket(h, h.a.id, { status: 'closed' })
    const m = makeMessage(h, t, { fromMe: true })
    const q = path(`fromMe=true&dateStart=2026-11-21&dateEnd=2026-11-21`)
    expect((await admin.get(q)).body.count[0].count).toBe(4)
    h.deps.sqlite.query('DELETE FROM messages WHERE id = ?').run(m.id)
    expect((await admin.get(q)).body.count[0].count).toBe(3)
  })

  test.each([
    '',
    'fromMe=yes&dateStart=2026-11-21&dateEnd=2026-11-21',
    'fromMe=true&dateStart=2026-11-21',
    'fromMe=true&dateStart=2026-11-31&dateEnd=2026-12-01',
    'fromMe=true&dateStart=2026-11-22&dateEnd=2026-11-21',
    'fromMe=true&dateStart=2020-01-01&dateEnd=2026-11-21',
  ])('bad: %s', async (q) => {
    const res = await admin.get(path(q))
    expectNo500(q, res)
    expect(res.status).toBe(400)
  })
})

describe('GET /contacts with dates: new leads', () => {
  test('counts the contacts created in the days, in the company time zone', async () => {
    const h3 = await createHarness()
    // 2026-11-21 12:00Z (09:00 local): two contacts; 2026-11-22 02:30Z (23:30 local on the 21st): one more.
    makeContact(h3, h3.a.id, { name: 'Ana Lead' })
    makeContact(h3, h3.a.id, { name: 'Bruno Lead' })
    makeContact(h3, h3.b.id, { name: 'Outra Empresa' })
    h3.clock.advance(Date.parse('2026-11-22T02:30:00Z') - h3.clock.now())
    makeContact(h3, h3.a.id, { name: 'Carla Lead' })
    h3.clock.advance(86_400_000)
    makeContact(h3, h3.a.id, { name: 'Daniel Later' })
    const a3 = await h3.as(h3.a.admin)

    let res = await a3.get('/contacts?dateStart=2026-11-21&dateEnd=2026-11-21')
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
    expect(res.body.contacts.map((c: { name: string }) => c.name)).toEqual([
      'Ana Lead',
      'Bruno Lead',
      'Carla Lead',
    ])
    res = await a3.get('/contacts?date=2026-11-22')
    expect(res.body.count).toBe(1)
    res = await a3.get('/contacts?dateStart=2026-11-21&dateEnd=2026-11-22&searchParam=lead')
    expect(res.body.count).toBe(3)
    res = await a3.get('/contacts?dateStart=2026-11-21&dateEnd=2026-11-22&searchParam=ana')
    expect(res.body.count).toBe(1)
    res = await a3.get('/dashboard?date_from=2026-11-21&date_to=2026-11-21')
    expect(res.body.counters.leads).toBe(3)
    res = await a3.get('/contacts')
    expect(res.body.count).toBe(4)
  })

  test.each([
    'dateStart=2026-11-21',
    'dateEnd=2026-11-21',
    'date=2026-02-30',
    'date=x',
    'dateStart=2026-11-22&dateEnd=2026-11-21',
  ])('bad: %s', async (q) => {
    const res = await admin.get(`/contacts?${q}`)
    expectNo500(q, res)
    expect(res.status).toBe(400)
  })
})

describe('the stats are exact by construction', () => {
  test('a range is its head quarters, its whole UTC days and its tail quarters, each quarter once', () => {
    const Q = 900_000
    for (let i = 0; i < 500; i++) {
      const from = Math.floor((START + ((i * 7919) % 400) * Q * 3) / Q) * Q
      const to = from + (1 + ((i * 104729) % 3000)) * Q
      const [, a, b, d1, d2, c, d] = statParts(1, { from, to })
      const covered: number[] = []
      for (let q = a; q <= b; q++) covered.push(q)
      for (let day = d1; day <= d2; day++) for (let q = day * 96; q < day * 96 + 96; q++) covered.push(q)
      for (let q = c; q <= d; q++) covered.push(q)
      const expected: number[] = []
      for (let q = from / Q; q < to / Q; q++) expected.push(q)
      expect(covered).toEqual(expected)
    }
  })

  test('the day sums equal the quarter sums', () => {
    const sums = (sql: string) => h.deps.sqlite.query(sql).all()
    expect(
      sums(`SELECT company_id, bucket / 96 AS day, user_id, sum(created) AS created, sum(waits) AS waits,
              sum(wait_ms) AS wait_ms, sum(closes) AS closes, sum(services) AS services,
              sum(service_ms) AS service_ms FROM dashboard_stats GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    ).toEqual(
      sums(`SELECT company_id, day, user_id, created, waits, wait_ms, closes, services, service_ms
              FROM dashboard_days ORDER BY 1, 2, 3`),
    )
  })

  test("the migration's backfill over the recorded events gives the trigger's figures", () => {
    const sql = readFileSync(join(import.meta.dir, '../../../../migrations/0027_dashboard.sql'), 'utf8')
    const backfill = sql
      .split('--> statement-breakpoint')
      .find((s) => s.includes('INSERT INTO dashboard_stats') && !s.includes('CREATE TRIGGER'))!
    const read = () =>
      h.deps.sqlite
        .query(
          'SELECT * FROM dashboard_stats WHERE created + waits + closes > 0 ORDER BY company_id, bucket, user_id',
        )
        .all()
    const byTrigger = read()
    expect(byTrigger.length).toBeGreaterThan(3)
    h.deps.sqlite.run('DELETE FROM dashboard_stats')
    h.deps.sqlite.run(backfill)
    expect(read()).toEqual(byTrigger)

    const counts = () =>
      h.deps.sqlite.query('SELECT * FROM message_counts WHERE count > 0 ORDER BY 1, 2, 3').all()
    const before = counts()
    h.deps.sqlite.run('DELETE FROM message_counts')
    h.deps.sqlite.run(
      sql
        .split('--> statement-breakpoint')
        .find((s) => s.includes('INSERT INTO message_counts') && !s.includes('TRIGGER'))!,
    )
    expect(counts()).toEqual(before)
  })

  test('a ticket created open by an attendant has no wait; a close from pending has no service', async () => {
    const h4 = await createHarness()
    const a4 = await h4.as(h4.a.admin)
    const t = makeTicket(h4, h4.a.id)
    recordTicketEvent(h4.deps.sqlite, {
      companyId: h4.a.id,
      ticketId: t.id,
      type: 'created',
      actorUserId: null,
      from: null,
      to: { status: 'pending', userId: null, queueId: null, whatsappId: null },
      at: h4.clock.now(),
    })
    h4.clock.advance(5 * MIN)
    expect((await a4.put(`/tickets/${t.id}`, { status: 'closed' })).status).toBe(200)
    const c = (await a4.get('/dashboard?days=1')).body.counters
    expect(c).toMatchObject({
      supportFinished: 1,
      avgSupportTime: null,
      avgWaitTime: null,
      ticketsCreated: 1,
    })
    void ids
  })
})

describe('a past range (issue 18, item 27)', () => {
  test("an attendant's figures count only the range: tickets open now belong to a range that contains today", async () => {
    const p = await createHarness() // 2026-11-21 09:00 in São Paulo
    const queue = p.makeQueue(p.a.id).id
    p.addToQueue(p.a.attendantId, queue)
    const pending = () => {
      const t = makeTicket(p, p.a.id, { queueId: queue })
      recordTicketEvent(p.deps.sqlite, {
        companyId: p.a.id,
        ticketId: t.id,
        type: 'created',
        actorUserId: null,
        from: null,
        to: { status: 'pending', userId: null, queueId: queue, whatsappId: null },
        at: p.clock.now(),
      })
      return t
    }
    const take = async (id: number, status: 'open' | 'closed') => {
      const res = await (await p.as(p.a.attendant)).put(`/tickets/${id}`, { status })
      expect(res.status).toBe(200)
    }
    // The 21st: the attendant closes one ticket and keeps another open, into the next day.
    const closed = pending()
    const kept = pending()
    p.clock.advance(10 * MIN)
    await take(closed.id, 'open')
    await take(kept.id, 'open')
    p.clock.advance(20 * MIN)
    await take(closed.id, 'closed')
    p.clock.advance(24 * 60 * MIN) // the 22nd
    const viewer = await p.as(p.a.admin)
    const figures = async (from: string, to: string) => {
      const res = await viewer.get(`/dashboard?date_from=${from}&date_to=${to}`)
      expect(res.status).toBe(200)
      const mine = res.body.attendants.find((a: { id: number }) => a.id === p.a.attendantId)
      return { tickets: mine.tickets, openCount: mine.openCount, closeCount: mine.closeCount }
    }
    expect(await figures('2026-11-21', '2026-11-21')).toEqual({ tickets: 1, openCount: 0, closeCount: 1 })
    expect(await figures('2026-11-01', '2026-11-20')).toEqual({ tickets: 0, openCount: 0, closeCount: 0 })
    expect(await figures('2026-11-22', '2026-11-22')).toEqual({ tickets: 1, openCount: 1, closeCount: 0 })
    expect(await figures('2026-11-21', '2026-11-22')).toEqual({ tickets: 2, openCount: 1, closeCount: 1 })
    expect(await figures('2026-11-23', '2026-11-30')).toEqual({ tickets: 0, openCount: 0, closeCount: 0 })
    // The counters "in service" and "waiting" are now, whatever the range (the spec's cards).
    const past = (await viewer.get('/dashboard?date_from=2026-11-21&date_to=2026-11-21')).body.counters
    expect(past).toMatchObject({ supportHappening: 1, supportPending: 0, supportFinished: 1 })
  })
})
