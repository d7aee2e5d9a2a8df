import { describe, expect, test } from 'bun:test'
import type { TicketDto } from '../../../shared/api'
import { createHarness, type Harness } from '../../test/harness'
import { type ActorScope, canSeeTicket, loadActorScope } from './access'
import { TICKET_COUNT_CAP } from './list'
import { makeContact, makeMessage, makeTicket } from './testing'

const MIN = 60_000

/**
 * Company A: queues q1 (the attendant's) and q2 (another attendant's); tickets in every state and place,
 * one minute apart so the order is known (the highest number is the newest).
 */
async function world() {
  const h = await createHarness()
  const A = h.a.id
  const q1 = h.makeQueue(A, { name: 'Suporte' })
  const q2 = h.makeQueue(A, { name: 'Vendas' })
  h.addToQueue(h.a.attendantId, q1.id)
  const other = h.makeUser(A, { name: 'Outra Atendente' })
  h.addToQueue(other.id, q2.id)
  const base = h.clock.now() - 100 * MIN
  let n = 0
  const t = (fields: Parameters<typeof makeTicket>[2]) =>
    makeTicket(h, A, { updatedAt: base + ++n * MIN, ...fields })
  const tickets = {
    pendingQ1: t({ status: 'pending', queueId: q1.id }),
    pendingQ2: t({ status: 'pending', queueId: q2.id }),
    openMineQ1: t({ status: 'open', queueId: q1.id, userId: h.a.attendantId, unread: 2 }),
    openAdminQ1: t({ status: 'open', queueId: q1.id, userId: h.a.adminId }),
    pendingNoQueue: t({ status: 'pending' }),
    closedMineQ1: t({ status: 'closed', queueId: q1.id, userId: h.a.attendantId }),
    closedAdminQ1: t({ status: 'closed', queueId: q1.id, userId: h.a.adminId }),
    openMineQ2: t({ status: 'open', queueId: q2.id, userId: h.a.attendantId }),
    openOtherQ2: t({ status: 'open', queueId: q2.id, userId: other.id }),
    groupPendingQ1: t({ status: 'pending', queueId: q1.id, isGroup: true }),
  }
  // Company B has tickets of its own that company A never sees.
  const bQueue = h.makeQueue(h.b.id)
  makeTicket(h, h.b.id, { status: 'pending', queueId: bQueue.id })
  makeTicket(h, h.b.id, { status: 'open', queueId: bQueue.id, userId: h.b.adminId })
  return { h, q1, q2, other, tickets }
}

type World = Awaited<ReturnType<typeof world>>

const ids = (body: { tickets: TicketDto[] }) => body.tickets.map((t) => t.id)
const byNewest = (...list: { id: number }[]) => list.map((t) => t.id).sort((a, b) => b - a)

function setFlags(h: Harness, userId: number, flags: Record<string, string>) {
  for (const [column, value] of Object.entries(flags))
    h.deps.sqlite.query(`UPDATE users SET ${column} = ? WHERE id = ?`).run(value, userId)
}

describe('GET /tickets: who sees what', () => {
  test('the admin: every pending ticket, only their own open ones unless show-all, every closed one', async () => {
    const { h, tickets: t } = await world()
    const admin = await h.as(h.a.admin)
    const pending = await admin.get('/tickets?status=pending')
    expect(pending.status).toBe(200)
    expect(ids(pending.body)).toEqual(byNewest(t.pendingQ1, t.pendingQ2, t.pendingNoQueue, t.groupPendingQ1))
    expect(pending.body).toMatchObject({ count: 4, hasMore: false })
    expect(ids((await admin.get('/tickets?status=open')).body)).toEqual([t.openAdminQ1.id])
    expect(ids((await admin.get('/tickets?status=open&showAll=true')).body)).toEqual(
      byNewest(t.openMineQ1, t.openAdminQ1, t.openMineQ2, t.openOtherQ2),
    )
    expect(ids((await admin.get('/tickets?status=closed')).body)).toEqual(
      byNewest(t.closedMineQ1, t.closedAdminQ1),
    )
  })

  test('an attendant: pending of their queues, their own open ones (show-all ignored), their own closed ones', async () => {
    const { h, tickets: t } = await world()
    const agent = await h.as(h.a.attendant)
    expect(ids((await agent.get('/tickets?status=pending')).body)).toEqual(
      byNewest(t.pendingQ1, t.groupPendingQ1),
    )
    const open = byNewest(t.openMineQ1, t.openMineQ2)
    expect(ids((await agent.get('/tickets?status=open')).body)).toEqual(open)
    // Without tickets-manager:showall or allUserChat, show-all changes nothing (not refused: a stale client works).
    expect(ids((await agent.get('/tickets?status=open&showAll=true')).body)).toEqual(open)
    expect(ids((await agent.get('/tickets?status=closed')).body)).toEqual([t.closedMineQ1.id])
    // The search tab (no status): everything visible that is not closed, and their own closed tickets.
    expect(ids((await agent.get('/tickets')).body)).toEqual(
      byNewest(t.pendingQ1, t.openMineQ1, t.openAdminQ1, t.closedMineQ1, t.openMineQ2, t.groupPendingQ1),
    )
  })

  test("allUserChat lets an attendant switch show-all on: other users' open tickets of their queues", async () => {
    const { h, tickets: t } = await world()
    setFlags(h, h.a.attendantId, { all_user_chat: 'enabled' })
    const agent = await h.as(h.a.attendant)
    expect(ids((await agent.get('/tickets?status=open&showAll=true')).body)).toEqual(
      byNewest(t.openMineQ1, t.openAdminQ1, t.openMineQ2),
    )
  })

  test('allTicket shows tickets without a queue; allHistoric shows every closed ticket of their queues', async () => {
    const { h, tickets: t } = await world()
    setFlags(h, h.a.attendantId, { all_ticket: 'enable', all_historic: 'enabled' })
    const agent = await h.as(h.a.attendant)
    expect(ids((await agent.get('/tickets?status=pending')).body)).toEqual(
      byNewest(t.pendingQ1, t.pendingNoQueue, t.groupPendingQ1),
    )
    expect(ids((await agent.get('/tickets?status=closed')).body)).toEqual(
      byNewest(t.closedMineQ1, t.closedAdminQ1),
    )
  })

  test('every listed ticket passes canSeeTicket, and the count is the list, for many filter combinations', async () => {
    const { h, q1, q2, other } = await world()
    const scopes: [string, number][] = [
      [h.a.admin, h.a.adminId],
      [h.a.attendant, h.a.attendantId],
    ]
    const queries = [
      '',
      'status=open',
      'status=open&showAll=true',
      'status=pending',
      'status=closed',
      `status=pending&queueIds=[${q1.id}]`,
      `status=open&showAll=true&queueIds=[${q2.id}]`,
      `queueIds=[${q1.id},${q2.id}]`,
      `status=open&showAll=true&users=[${other.id}]`,
      'status=pending&isGroup=true',
      'status=pending&isGroup=false',
    ]
    for (const [email, userId] of scopes) {
      const client = await h.as(email)
      const scope: ActorScope = loadActorScope(h.deps.sqlite, {
        kind: 'user',
        userId,
        companyId: h.a.id,
        profile: userId === h.a.adminId ? 'admin' : 'user',
        super: false,
        sessionId: '-',
      })
      for (const q of queries) {
        const res = await client.get(`/tickets?${q}`)
        expect(res.status).toBe(200)
        expect(res.body.count).toBe(res.body.tickets.length)
        for (const ticket of res.body.tickets as TicketDto[]) {
          expect(ticket.companyId).toBe(h.a.id)
          expect(canSeeTicket(scope, ticket)).toBe(true)
        }
      }
    }
  })
})

describe('GET /tickets: filters', () => {
  test('queueIds keeps those queues and the tickets without a queue; users keeps those users', async () => {
    const { h, q2, other, tickets: t } = await world()
    const admin = await h.as(h.a.admin)
    expect(ids((await admin.get(`/tickets?status=pending&queueIds=[${q2.id}]`)).body)).toEqual(
      byNewest(t.pendingQ2, t.pendingNoQueue),
    )
    expect(ids((await admin.get(`/tickets?status=open&showAll=true&users=[${other.id}]`)).body)).toEqual([
      t.openOtherQ2.id,
    ])
  })

  test('isGroup separates the groups tab from the other lists', async () => {
    const { h, tickets: t } = await world()
    const admin = await h.as(h.a.admin)
    expect(ids((await admin.get('/tickets?status=pending&isGroup=true')).body)).toEqual([t.groupPendingQ1.id])
    expect(ids((await admin.get('/tickets?status=pending&isGroup=false')).body)).not.toContain(
      t.groupPendingQ1.id,
    )
  })

  test('withUnreadMessages, tags, date and updatedAt', async () => {
    const { h, tickets: t } = await world()
    const admin = await h.as(h.a.admin)
    const unread = await admin.get('/tickets?status=open&showAll=true&withUnreadMessages=true')
    expect(ids(unread.body)).toEqual([t.openMineQ1.id])
    expect(unread.body.count).toBe(1)

    const now = h.clock.now()
    const tag = h.deps.sqlite
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO tags (company_id, name, color, created_at, updated_at) VALUES (?, 'VIP', '#ff0000', ?, ?) RETURNING id",
      )
      .get(h.a.id, now, now)!
    h.deps.sqlite
      .query('INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)')
      .run(t.pendingQ2.id, tag.id)
    const tagged = await admin.get(`/tickets?tags=[${tag.id}]`)
    expect(ids(tagged.body)).toEqual([t.pendingQ2.id])
    expect(tagged.body.tickets[0].tags).toEqual([{ id: tag.id, name: 'VIP', color: '#ff0000' }])

    // One ticket created and updated two days earlier (server-local days).
    const twoDaysAgo = new Date(now - 2 * 86_400_000)
    const day = `${twoDaysAgo.getFullYear()}-${String(twoDaysAgo.getMonth() + 1).padStart(2, '0')}-${String(twoDaysAgo.getDate()).padStart(2, '0')}`
    const old = makeTicket(h, h.a.id, { status: 'closed', updatedAt: twoDaysAgo.getTime() })
    expect(ids((await admin.get(`/tickets?date=${day}`)).body)).toEqual([old.id])
    expect(ids((await admin.get(`/tickets?updatedAt=${day}`)).body)).toEqual([old.id])
    expect(ids((await admin.get('/tickets?date=2001-01-01')).body)).toEqual([])
  })

  test('pages of 40, newest update first, with the count of the whole list', async () => {
    const h = await createHarness()
    const base = h.clock.now()
    const made = Array.from({ length: 45 }, (_, i) =>
      makeTicket(h, h.a.id, { status: 'pending', updatedAt: base - i * MIN }),
    )
    const admin = await h.as(h.a.admin)
    const one = await admin.get('/tickets?status=pending&pageNumber=1')
    expect(one.body.tickets).toHaveLength(40)
    expect(one.body).toMatchObject({ count: 45, hasMore: true })
    expect(ids(one.body)).toEqual(made.slice(0, 40).map((t) => t.id))
    const two = await admin.get('/tickets?status=pending&pageNumber=2')
    expect(ids(two.body)).toEqual(made.slice(40).map((t) => t.id))
    expect(two.body).toMatchObject({ count: 45, hasMore: false })
    const past = await admin.get('/tickets?status=pending&pageNumber=9')
    expect(past.body).toMatchObject({ tickets: [], count: 45, hasMore: false })
    // A filtered list counts exactly too (below the cap), across its pages.
    const searched = await admin.get('/tickets?status=pending&pageNumber=2&searchParam=Cliente')
    expect(searched.body).toMatchObject({ count: 45, hasMore: false })
    expect(searched.body.tickets).toHaveLength(5)
    expect(searched.body.countCapped).toBeUndefined()
  })

  test(`a filtered list counts up to ${TICKET_COUNT_CAP} and says so`, async () => {
    const h = await createHarness()
    const contact = makeContact(h, h.a.id)
    for (let i = 0; i < TICKET_COUNT_CAP + 5; i++)
      makeTicket(h, h.a.id, { status: 'closed', contactId: contact.id, unread: 1 })
    const admin = await h.as(h.a.admin)
    const res = await admin.get('/tickets?status=closed&withUnreadMessages=true')
    expect(res.body).toMatchObject({ count: TICKET_COUNT_CAP, hasMore: true, countCapped: true })
    // The unfiltered tab counts from ticket_counts: exact, whatever the size.
    expect((await admin.get('/tickets?status=closed')).body).toMatchObject({ count: TICKET_COUNT_CAP + 5 })
  })

  test.each([
    ['queueIds=[1,', 'queueIds'],
    ['queueIds={"a":1}', 'queueIds'],
    ['queueIds=5', 'queueIds'],
    ['users=["x"]', 'users'],
    ['tags=[0]', 'tags'],
    ['tags=[1.5]', 'tags'],
    ['status=archived', 'status'],
    ['showAll=yes', 'showAll'],
    ['withUnreadMessages=1', 'withUnreadMessages'],
    ['date=2026-13-01', 'date'],
    ['updatedAt=yesterday', 'updatedAt'],
    ['pageNumber=0', 'pageNumber'],
    ['pageNumber=abc', 'pageNumber'],
    [`searchParam=${'x'.repeat(201)}`, 'searchParam'],
  ])('bad input %s is a 400 naming %s, never a 500', async (query, field) => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const res = await admin.get(`/tickets?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_VALIDATION')
    expect(res.body.fields.map((f: { field: string }) => f.field.split('.')[0])).toContain(field)
  })

  test("tags=[] and users=[] (what the spec's client always sends) are no filter; queueIds=[] is no queue chosen", async () => {
    const { h, q1, q2, tickets: t } = await world()
    const admin = await h.as(h.a.admin)
    const agent = await h.as(h.a.attendant)
    const q = (list: unknown[]) => encodeURIComponent(JSON.stringify(list))
    for (const who of [admin, agent])
      for (const base of [
        'status=pending',
        'status=open&showAll=true',
        'status=closed',
        'searchParam=Cliente',
      ]) {
        const plain = await who.get(`/tickets?${base}`)
        const empty = await who.get(`/tickets?${base}&tags=${q([])}&users=${q([])}&pageNumber=1`)
        expect(empty.status).toBe(200)
        expect(ids(empty.body)).toEqual(ids(plain.body))
        expect(empty.body.count).toBe(plain.body.count)
        expect(ids(plain.body).length).toBeGreaterThan(0)
      }
    // queueIds=[]: none of the queues chosen leaves the tickets waiting without a queue (spec: "only when its
    // queue is among the selected queues"), as the web's live rule does.
    expect(ids((await admin.get(`/tickets?status=pending&queueIds=${q([])}`)).body)).toEqual([
      t.pendingNoQueue.id,
    ])
    expect(
      ids((await admin.get(`/tickets?status=pending&queueIds=${q([q1.id, q2.id])}&tags=${q([])}`)).body),
    ).toEqual(byNewest(t.pendingQ1, t.pendingQ2, t.pendingNoQueue, t.groupPendingQ1))
  })

  test("date and updatedAt: the company's day, as YYYY-MM-DD or as an ISO instant of that day", async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    // 02:30 UTC on the 20th is 23:30 on the 19th in São Paulo (UTC-3), the company's zone by default.
    const at = Date.parse('2026-11-20T02:30:00Z')
    const late = makeTicket(h, h.a.id, { status: 'closed', createdAt: at, updatedAt: at })
    const next = makeTicket(h, h.a.id, {
      status: 'closed',
      createdAt: at + 60 * MIN,
      updatedAt: at + 60 * MIN,
    })
    const list = async (query: string) => {
      const res = await admin.get(`/tickets?${query}`)
      expect(res.status).toBe(200)
      return ids(res.body)
    }
    for (const field of ['date', 'updatedAt']) {
      expect(await list(`${field}=2026-11-19`)).toEqual([late.id])
      expect(await list(`${field}=2026-11-20`)).toEqual([next.id])
      // What a date picker sends: local midnight as an instant, or any instant of the day.
      expect(await list(`${field}=2026-11-19T03:00:00.000Z`)).toEqual([late.id])
      expect(await list(`${field}=${encodeURIComponent('2026-11-19T21:15:00-03:00')}`)).toEqual([late.id])
      expect(await list(`${field}=2026-11-20T03:00:00.000Z`)).toEqual([next.id])
      expect(await list(`${field}=2026-11-20T02:59:59Z`)).toEqual([late.id])
    }
    // In another zone the same instants fall on other days.
    expect((await admin.put('/settings/timezone', { value: 'UTC' })).status).toBe(200)
    expect(await list('date=2026-11-20')).toEqual(byNewest(late, next))
    expect(await list('date=2026-11-19T03:00:00.000Z')).toEqual([])
    for (const bad of ['2026-02-31', '2026-02-30T03:00:00Z', '2026-11-99T00:00:00Z', '2026-11-19T03:00', '2026-11-19T03:00:00.000Zx', 'amanhã']) {
      const res = await admin.get(`/tickets?date=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(400)
      expect(res.body.fields[0].field).toBe('date')
    }
  })

  test('a contact whose name is its number: masked in the list, the ticket and live; never found by hidden digits', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, q.id)
    h.deps.sqlite.query("UPDATE users SET is_tricked = 'disabled' WHERE id = ?").run(h.a.attendantId)
    h.deps.sqlite.query("UPDATE users SET is_tricked = 'enabled' WHERE id = ?").run(h.a.adminId)
    const contact = makeContact(h, h.a.id, { name: '5511987654321', number: '5511987654321' })
    const ticket = makeTicket(h, h.a.id, { status: 'pending', queueId: q.id, contactId: contact.id })
    const named = makeTicket(h, h.a.id, {
      status: 'pending',
      queueId: q.id,
      contactId: makeContact(h, h.a.id, { name: 'Loja 4321', number: '5521900001111' }).id,
    })
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    const listed = (await agent.get('/tickets?status=pending')).body.tickets.find(
      (t: TicketDto) => t.id === ticket.id,
    )
    expect(listed.contact).toMatchObject({ name: '551198765****', number: '551198765****' })
    expect((await agent.get(`/tickets/${ticket.id}`)).body.contact.name).toBe('551198765****')
    expect((await agent.get(`/messages/${ticket.id}`)).body.ticket.contact.name).toBe('551198765****')
    expect((await admin.get(`/tickets/${ticket.id}`)).body.contact.name).toBe('5511987654321')
    // Search: the hidden digits find nothing through the number or the name; what the reader sees still does.
    const found = async (who: typeof agent, term: string) =>
      ids((await who.get(`/tickets?searchParam=${encodeURIComponent(term)}`)).body)
    for (const term of ['5511987654321', '4321', '54321', '21', '+55 (11) 98765-4321'])
      expect(await found(agent, term)).toEqual(term === '4321' || term === '21' ? [named.id] : [])
    expect(await found(agent, '98765')).toEqual([ticket.id])
    expect(await found(agent, 'Loja')).toEqual([named.id])
    expect(await found(admin, '4321')).toEqual(byNewest(ticket, named))
    expect(await found(admin, '5511987654321')).toEqual([ticket.id])
    // Live: the masked flavour of a ticket event masks the name too.
    const events = h.recordEvents()
    await agent.put(`/tickets/${ticket.id}`, { status: 'open' })
    const event = events.find((e) => e.event === `company-${h.a.id}-ticket`)
    expect(event).toMatchObject({
      data: { ticket: { contact: { name: '551198765****' } } },
      unmasked: { ticket: { contact: { name: '5511987654321' } } },
    })
  })

  test('empty values count as absent', async () => {
    const { h } = await world()
    const admin = await h.as(h.a.admin)
    const res = await admin.get('/tickets?status=&queueIds=&searchParam=&date=')
    expect(res.status).toBe(200)
  })

  test('without a token: 401', async () => {
    const h = await createHarness()
    expect((await h.call('GET', '/tickets')).status).toBe(401)
  })
})

describe('GET /tickets: search', () => {
  async function searchWorld() {
    const h = await createHarness()
    const A = h.a.id
    const maria = makeContact(h, A, { name: 'Maria Souza', number: '5511987654321' })
    const joao = makeContact(h, A, { name: 'João Lima', number: '5521912340000' })
    const jo = makeContact(h, A, { name: 'Jo', number: '5531900000001' })
    const ana = makeContact(h, A, { name: 'Ana Paula', number: '5541900000002' })
    const t = {
      maria: makeTicket(h, A, { status: 'pending', contactId: maria.id, updatedAt: h.clock.now() - 4 * MIN }),
      joao: makeTicket(h, A, { status: 'pending', contactId: joao.id, updatedAt: h.clock.now() - 3 * MIN }),
      jo: makeTicket(h, A, { status: 'pending', contactId: jo.id, updatedAt: h.clock.now() - 2 * MIN }),
      ana: makeTicket(h, A, { status: 'closed', contactId: ana.id, updatedAt: h.clock.now() - MIN }),
    }
    makeMessage(h, t.ana, { body: 'Preciso da segunda via do boleto, por favor' })
    makeMessage(h, t.joao, { body: 'A Mariana já resolveu, obrigado' })
    // Company B: the same name and words, never found by company A.
    const bMaria = makeContact(h, h.b.id, { name: 'Maria B', number: '5511987650000' })
    const bTicket = makeTicket(h, h.b.id, { status: 'pending', contactId: bMaria.id })
    makeMessage(h, bTicket, { body: 'boleto maria' })
    return { h, t }
  }

  test('by any part of the contact name, by number, by message words (the last as a prefix), across statuses', async () => {
    const { h, t } = await searchWorld()
    const admin = await h.as(h.a.admin)
    const find = async (term: string) =>
      ids((await admin.get(`/tickets?searchParam=${encodeURIComponent(term)}`)).body)
    expect(await find('aria')).toEqual([t.maria.id]) // inside "Maria" (trigram)
    expect(await find('MARIA')).toEqual(byNewest(t.maria, t.joao)) // the name, and "Mariana" in a message
    expect(await find('joão')).toEqual([t.joao.id])
    expect(await find('joao')).toEqual([t.joao.id]) // diacritics ignored
    expect(await find('87654')).toEqual([t.maria.id])
    expect(await find('(11) 98765')).toEqual([t.maria.id]) // a formatted number searches its digits
    expect(await find('bolet')).toEqual([t.ana.id]) // closed tickets are found too
    expect(await find('segunda via')).toEqual([t.ana.id])
    expect(await find('Jo')).toEqual(byNewest(t.joao, t.jo)) // two characters: a scan of the names
    expect(await find('nada disso')).toEqual([])
  })

  test('search combines with the other filters and the count follows', async () => {
    const { h, t } = await searchWorld()
    const admin = await h.as(h.a.admin)
    const res = await admin.get('/tickets?status=pending&searchParam=maria')
    expect(ids(res.body)).toEqual(byNewest(t.maria, t.joao))
    expect(res.body.count).toBe(2)
  })

  test('query syntax in the search text is searched as text, never an error', async () => {
    const { h } = await searchWorld()
    const admin = await h.as(h.a.admin)
    for (const term of [
      '"',
      '*',
      'a"b',
      'AND',
      'NOT maria',
      'x OR y',
      '(',
      'col:val',
      '%',
      '_',
      '\\',
      '^',
      'NEAR(a b)',
    ]) {
      const res = await admin.get(`/tickets?searchParam=${encodeURIComponent(term)}`)
      expect(res.status).toBe(200)
    }
  })

  test('an attendant finds only what they may see', async () => {
    const { h, t } = await searchWorld()
    const q = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, q.id)
    h.deps.sqlite.query('UPDATE tickets SET queue_id = ? WHERE id = ?').run(q.id, t.joao.id)
    const agent = await h.as(h.a.attendant)
    const res = await agent.get('/tickets?searchParam=maria')
    expect(ids(res.body)).toEqual([t.joao.id])
  })
})

describe('GET /tickets/counts', () => {
  test('the badges: open (own, or all with show-all) and pending, apart for groups', async () => {
    const w: World = await world()
    const { h } = w
    const admin = await h.as(h.a.admin)
    expect((await admin.get('/tickets/counts')).body).toEqual({
      open: { assigned: 1, pending: 3 },
      groups: { assigned: 0, pending: 1 },
    })
    expect((await admin.get('/tickets/counts?showAll=true')).body).toEqual({
      open: { assigned: 4, pending: 3 },
      groups: { assigned: 0, pending: 1 },
    })
    expect((await admin.get(`/tickets/counts?showAll=true&queueIds=[${w.q1.id}]`)).body).toEqual({
      open: { assigned: 2, pending: 2 },
      groups: { assigned: 0, pending: 1 },
    })
    const agent = await h.as(h.a.attendant)
    expect((await agent.get('/tickets/counts?showAll=true')).body).toEqual({
      open: { assigned: 2, pending: 1 },
      groups: { assigned: 0, pending: 1 },
    })
    expect((await agent.get('/tickets/counts?queueIds=[1,')).status).toBe(400)
  })

  test('the badges agree with the lists', async () => {
    const { h } = await world()
    for (const email of [h.a.admin, h.a.attendant]) {
      const client = await h.as(email)
      const counts = (await client.get('/tickets/counts?showAll=true')).body
      const list = async (q: string) => (await client.get(`/tickets?${q}`)).body.count
      expect(counts.open.assigned).toBe(await list('status=open&showAll=true&isGroup=false'))
      expect(counts.open.pending).toBe(await list('status=pending&isGroup=false'))
      expect(counts.groups.pending).toBe(await list('status=pending&isGroup=true'))
    }
  })
})
