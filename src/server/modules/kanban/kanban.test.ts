import { describe, expect, test } from 'bun:test'
import { plans } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { makeContact, makeTag, makeTicket, setTricked } from '../contacts/testing'

type Listed = { id: number; tags: { id: number; name: string }[] }
const idsOf = (body: { tickets: Listed[] }) => body.tickets.map((t) => t.id)

function tagsOf(h: Harness, ticketId: number) {
  return h.deps.sqlite
    .query<{ tagId: number }, [number]>(
      'SELECT tag_id AS tagId FROM ticket_tags WHERE ticket_id = ? ORDER BY 1',
    )
    .all(ticketId)
    .map((r) => r.tagId)
}

describe('kanban: lanes and board', () => {
  test('GET /tags/kanban answers the lanes (kanban 1) of the company as lista', async () => {
    const h = await createHarness()
    const lane = makeTag(h, h.a.id, 'Negociação', '#FF0000', 1)
    const other = makeTag(h, h.a.id, 'Atendido', '#00FF00', 1)
    makeTag(h, h.a.id, 'VIP')
    makeTag(h, h.b.id, 'Lane de Beta', '#000000', 1)
    const res = await (await h.as(h.a.attendant)).get('/tags/kanban')
    expect(res.status).toBe(200)
    expect(res.body.lista.map((t: { id: number }) => t.id)).toEqual([other.id, lane.id])
    expect(res.body.lista[1]).toMatchObject({ name: 'Negociação', color: '#FF0000', kanban: 1 })
    // The lanes screen's list: GET /tags/?kanban=1.
    expect((await (await h.as(h.a.attendant)).get('/tags/?kanban=1')).body.count).toBe(2)
    expect((await h.call('GET', '/tags/kanban')).status).toBe(401)
  })

  test('GET /ticket/kanban: open and pending tickets with their tags, newest first, in the asked queues', async () => {
    const h = await createHarness()
    const [q1, q2] = [h.makeQueue(h.a.id), h.makeQueue(h.a.id)]
    const lane = makeTag(h, h.a.id, 'Lane', '#111111', 1)
    const contact = () => makeContact(h, h.a.id).id
    const t = h.clock.now()
    const pending = makeTicket(h, h.a.id, { contactId: contact(), queueId: q1.id, updatedAt: t - 3 })
    const mine = makeTicket(h, h.a.id, {
      contactId: contact(),
      queueId: q1.id,
      status: 'open',
      userId: h.a.adminId,
      updatedAt: t - 1,
    })
    const othersOpen = makeTicket(h, h.a.id, {
      contactId: contact(),
      queueId: q1.id,
      status: 'open',
      userId: h.a.attendantId,
      updatedAt: t - 2,
    })
    const closed = makeTicket(h, h.a.id, { contactId: contact(), queueId: q1.id, status: 'closed' })
    const noQueue = makeTicket(h, h.a.id, { contactId: contact(), updatedAt: t - 4 })
    const otherQueue = makeTicket(h, h.a.id, { contactId: contact(), queueId: q2.id, updatedAt: t - 5 })
    makeTicket(h, h.b.id, { contactId: makeContact(h, h.b.id).id })
    h.deps.sqlite.query('INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)').run(pending.id, lane.id)
    const admin = await h.as(h.a.admin)
    const all = await admin.get('/ticket/kanban')
    expect(all.status).toBe(200)
    // Another user's open ticket is left out unless show-all (the inbox's rule); closed never shows.
    expect(idsOf(all.body)).toEqual([mine.id, pending.id, noQueue.id, otherQueue.id])
    expect(all.body.hasMore).toBe(false)
    expect(all.body.tickets[1].tags).toEqual([{ id: lane.id, name: 'Lane', color: '#111111' }])
    expect(idsOf((await admin.get('/ticket/kanban?showAll=true')).body)).toEqual([
      mine.id,
      othersOpen.id,
      pending.id,
      noQueue.id,
      otherQueue.id,
    ])
    expect(idsOf((await admin.get(`/ticket/kanban?queueIds=[${q1.id}]`)).body)).toEqual([
      mine.id,
      pending.id,
      noQueue.id,
    ])
    expect(idsOf((await admin.get('/ticket/kanban?queueIds=')).body)).toHaveLength(4)
    expect(idsOf((await admin.get('/ticket/kanban?showAll=true')).body)).not.toContain(closed.id)
  })

  test('an attendant sees only the tickets of their queues (and their own) on the board', async () => {
    const h = await createHarness()
    const [mine, theirs] = [h.makeQueue(h.a.id), h.makeQueue(h.a.id)]
    h.addToQueue(h.a.attendantId, mine.id)
    setTricked(h, h.a.attendantId, 'disabled')
    const inMine = makeTicket(h, h.a.id, {
      contactId: makeContact(h, h.a.id, { number: '5511987654321' }).id,
      queueId: mine.id,
    })
    const assigned = makeTicket(h, h.a.id, {
      contactId: makeContact(h, h.a.id).id,
      queueId: theirs.id,
      status: 'open',
      userId: h.a.attendantId,
    })
    makeTicket(h, h.a.id, { contactId: makeContact(h, h.a.id).id, queueId: theirs.id })
    makeTicket(h, h.a.id, { contactId: makeContact(h, h.a.id).id }) // no queue, allTicket off
    const agent = await h.as(h.a.attendant)
    const res = await agent.get(`/ticket/kanban?queueIds=[${mine.id},${theirs.id}]&showAll=true`)
    expect(idsOf(res.body).sort()).toEqual([inMine.id, assigned.id].sort())
    // Numbers masked as the reader may see them.
    const card = res.body.tickets.find((t: Listed) => t.id === inMine.id)
    expect(card.contact.number).toBe('551198765****')
  })

  test('moving a card replaces the lane tag, keeps ordinary tags, and is live; a no-op publishes nothing', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, queue.id)
    const ticket = makeTicket(h, h.a.id, { contactId: makeContact(h, h.a.id).id, queueId: queue.id })
    const [todo, done] = [
      makeTag(h, h.a.id, 'A fazer', '#111111', 1),
      makeTag(h, h.a.id, 'Feito', '#222222', 1),
    ]
    const vip = makeTag(h, h.a.id, 'VIP')
    h.deps.sqlite.query('INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)').run(ticket.id, vip.id)
    const agent = await h.as(h.a.attendant)
    const events = h.recordEvents()
    const first = await agent.put(`/ticket/kanban/${ticket.id}`, { tagId: todo.id })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ removed: [], added: { id: todo.id, name: 'A fazer' } })
    expect(first.body.ticket.tags.map((t: { id: number }) => t.id).sort()).toEqual([todo.id, vip.id].sort())
    const second = await agent.put(`/ticket/kanban/${ticket.id}`, { tagId: done.id })
    expect(second.body).toMatchObject({
      removed: [{ id: todo.id, name: 'A fazer', color: '#111111' }],
      added: { id: done.id },
    })
    expect(tagsOf(h, ticket.id)).toEqual([done.id, vip.id].sort((a, b) => a - b))
    const updates = events.filter((e) => e.event === `company-${h.a.id}-ticket`)
    expect(updates.map((e) => e.room)).toContain(`company:${h.a.id}:queue:${queue.id}`)
    expect(updates.at(-1)!.data).toMatchObject({ action: 'update', ticket: { id: ticket.id } })
    const before = events.length
    const same = await agent.put(`/ticket/kanban/${ticket.id}`, { tagId: done.id })
    expect(same.body).toMatchObject({ removed: [], added: null })
    expect(events.length).toBe(before)
    const back = await agent.put(`/ticket/kanban/${ticket.id}`, { tagId: null })
    expect(back.body).toMatchObject({ removed: [{ id: done.id }], added: null })
    expect(tagsOf(h, ticket.id)).toEqual([vip.id])
  })

  test("another company's ticket or lane is 404; a ticket outside the attendant's queues is 403", async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    const ticket = makeTicket(h, h.a.id, { contactId: makeContact(h, h.a.id).id, queueId: queue.id })
    const lane = makeTag(h, h.a.id, 'Lane', '#111111', 1)
    const foreignLane = makeTag(h, h.b.id, 'Beta lane', '#111111', 1)
    const beta = await h.as(h.b.admin)
    const res = await beta.put(`/ticket/kanban/${ticket.id}`, { tagId: foreignLane.id })
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('ERR_NO_TICKET_FOUND')
    expect(idsOf((await beta.get('/ticket/kanban?showAll=true')).body)).toEqual([])
    expect((await beta.get('/tags/kanban')).body.lista.map((t: { id: number }) => t.id)).toEqual([
      foreignLane.id,
    ])
    const admin = await h.as(h.a.admin)
    const foreign = await admin.put(`/ticket/kanban/${ticket.id}`, { tagId: foreignLane.id })
    expect(foreign.status).toBe(404)
    expect(foreign.body.error).toBe('ERR_NO_TAG_FOUND')
    const agent = await h.as(h.a.attendant)
    expect((await agent.put(`/ticket/kanban/${ticket.id}`, { tagId: lane.id })).status).toBe(403)
    expect(tagsOf(h, ticket.id)).toEqual([])
  })

  test.each([
    ['GET', '/ticket/kanban?queueIds=nope', undefined, 400],
    ['GET', '/ticket/kanban?queueIds={"a":1}', undefined, 400],
    ['GET', '/ticket/kanban?queueIds=[0]', undefined, 400],
    ['GET', '/ticket/kanban?queueIds=[1.5]', undefined, 400],
    ['GET', '/ticket/kanban?showAll=yes', undefined, 400],
    ['GET', '/ticket/kanban?pageNumber=0', undefined, 400],
    ['PUT', '/ticket/kanban/TICKET', {}, 400],
    ['PUT', '/ticket/kanban/TICKET', { tagId: 'x' }, 400],
    ['PUT', '/ticket/kanban/TICKET', { tagId: -1 }, 400],
    ['PUT', '/ticket/kanban/TICKET', [], 400],
    ['PUT', '/ticket/kanban/TICKET', 'not json', 400],
    ['PUT', '/ticket/kanban/TICKET', { tagId: 'VIP' }, 400],
    ['PUT', '/ticket/kanban/abc', { tagId: null }, 404],
    ['PUT', '/ticket/kanban/0', { tagId: null }, 404],
    ['PUT', '/ticket/kanban/99999', { tagId: null }, 404],
    ['PUT', '/ticket/kanban/TICKET', { tagId: 99999 }, 404],
  ])('bad input %s %s %j answers %i, never 500', async (method, path, body, status) => {
    const h = await createHarness()
    const ticket = makeTicket(h, h.a.id, { contactId: makeContact(h, h.a.id).id })
    const vip = makeTag(h, h.a.id, 'VIP')
    const token = await h.login(h.a.admin)
    const res = await h.call(method, path.replace('TICKET', String(ticket.id)), {
      token,
      body:
        body && typeof body === 'object' && 'tagId' in body && body.tagId === 'VIP'
          ? { tagId: vip.id }
          : body,
    })
    expect(res.status).toBe(status)
  })

  test('the plan flag useKanban off refuses the board, the lanes and the move (403)', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const basic = h.db
      .insert(plans)
      .values({ name: 'Sem Kanban', useKanban: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Kanban Ltda', { planId: basic.id })
    const admin = h.makeUser(company.id, { profile: 'admin' })
    const ticket = makeTicket(h, company.id, { contactId: makeContact(h, company.id).id })
    const lane = makeTag(h, company.id, 'Lane', '#111111', 1)
    const client = await h.as(admin.email)
    for (const res of [
      await client.get('/ticket/kanban'),
      await client.get('/tags/kanban'),
      await client.put(`/ticket/kanban/${ticket.id}`, { tagId: lane.id }),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
    expect(tagsOf(h, ticket.id)).toEqual([])
    // The ordinary tags screen stays open to the plan.
    expect((await client.get('/tags')).status).toBe(200)
  })

  test('the board is paged: 100 a page, hasMore', async () => {
    const h = await createHarness()
    const contact = makeContact(h, h.a.id).id
    const t = h.clock.now()
    for (let i = 0; i < 101; i++) makeTicket(h, h.a.id, { contactId: contact, updatedAt: t - i })
    const admin = await h.as(h.a.admin)
    const first = await admin.get('/ticket/kanban')
    expect(first.body.tickets).toHaveLength(100)
    expect(first.body.hasMore).toBe(true)
    const second = await admin.get('/ticket/kanban?pageNumber=2')
    expect(second.body.tickets).toHaveLength(1)
    expect(second.body.hasMore).toBe(false)
  })
})
