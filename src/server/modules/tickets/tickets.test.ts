import { describe, expect, test } from 'bun:test'
import type { TicketDto } from '../../../shared/api'
import { transact } from '../../context'
import { createHarness, type Harness } from '../../test/harness'
import { loadTicketDtos } from './dto'
import { markTicketRead } from './read'
import { makeContact, makeMessage, makeTicket } from './testing'

function eventsOf(h: Harness, ticketId: number) {
  return h.deps.sqlite
    .query<Record<string, unknown>, [number]>(
      `SELECT type, actor_user_id AS actorUserId, from_status AS fromStatus, to_status AS toStatus,
              from_user_id AS fromUserId, to_user_id AS toUserId, from_queue_id AS fromQueueId,
              to_queue_id AS toQueueId, from_whatsapp_id AS fromWhatsappId, to_whatsapp_id AS toWhatsappId,
              created_at AS createdAt
         FROM ticket_events WHERE ticket_id = ? ORDER BY id`,
    )
    .all(ticketId)
}

describe('GET /tickets/{id} and /tickets/u/{uuid}', () => {
  test('the ticket with its contact, user, queue, connection and tags, by id and by uuid', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id, { name: 'Suporte', color: '#123456' })
    const w = h.makeConnection(h.a.id, { name: 'Principal' })
    const contact = makeContact(h, h.a.id, { name: 'Maria Souza', number: '5511987654321', email: 'm@x.com' })
    const t = makeTicket(h, h.a.id, {
      contactId: contact.id,
      status: 'open',
      queueId: q.id,
      userId: h.a.adminId,
      whatsappId: w.id,
      unread: 3,
      lastMessage: 'Oi',
    })
    const admin = await h.as(h.a.admin)
    const res = await admin.get(`/tickets/${t.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: t.id,
      uuid: t.uuid,
      status: 'open',
      contactId: contact.id,
      contact: {
        id: contact.id,
        name: 'Maria Souza',
        number: '5511987654321',
        email: 'm@x.com',
        isGroup: false,
      },
      userId: h.a.adminId,
      user: { id: h.a.adminId, name: 'Alpha Admin' },
      queueId: q.id,
      queue: { id: q.id, name: 'Suporte', color: '#123456' },
      whatsappId: w.id,
      whatsapp: { id: w.id, name: 'Principal' },
      unreadMessages: 3,
      lastMessage: 'Oi',
      tags: [],
      companyId: h.a.id,
      isGroup: false,
    })
    expect(res.body.createdAt).toBe(new Date(h.clock.now()).toISOString())
    const byUuid = await admin.get(`/tickets/u/${t.uuid}`)
    expect(byUuid.status).toBe(200)
    expect(byUuid.body).toEqual(res.body)
  })

  test("another company's ticket, an unknown id or a malformed one: 404 ERR_NO_TICKET_FOUND", async () => {
    const h = await createHarness()
    const theirs = makeTicket(h, h.b.id, { status: 'pending' })
    const admin = await h.as(h.a.admin)
    for (const path of [
      `/tickets/${theirs.id}`,
      `/tickets/u/${theirs.uuid}`,
      '/tickets/999999',
      '/tickets/01',
      '/tickets/abc',
      '/tickets/u/not-a-uuid',
    ]) {
      const res = await admin.get(path)
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_TICKET_FOUND')
    }
    for (const res of [
      await admin.put(`/tickets/${theirs.id}`, { status: 'open' }),
      await admin.del(`/tickets/${theirs.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_TICKET_FOUND')
    }
    expect(h.deps.sqlite.query('SELECT status FROM tickets WHERE id = ?').get(theirs.id)).toEqual({
      status: 'pending',
    })
  })

  test("an attendant opens the tickets of their queues and their own; others: 403 'Acesso não permitido'", async () => {
    const h = await createHarness()
    const mine = h.makeQueue(h.a.id)
    const theirs = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, mine.id)
    const inMine = makeTicket(h, h.a.id, { status: 'pending', queueId: mine.id })
    const inTheirs = makeTicket(h, h.a.id, { status: 'pending', queueId: theirs.id })
    const assigned = makeTicket(h, h.a.id, { status: 'open', queueId: theirs.id, userId: h.a.attendantId })
    const noQueue = makeTicket(h, h.a.id, { status: 'pending' })
    const agent = await h.as(h.a.attendant)
    expect((await agent.get(`/tickets/${inMine.id}`)).status).toBe(200)
    expect((await agent.get(`/tickets/${assigned.id}`)).status).toBe(200)
    for (const t of [inTheirs, noQueue]) {
      for (const res of [
        await agent.get(`/tickets/${t.id}`),
        await agent.get(`/tickets/u/${t.uuid}`),
        await agent.put(`/tickets/${t.id}`, { status: 'open' }),
      ]) {
        expect(res.status).toBe(403)
        expect(res.body).toMatchObject({ error: 'ERR_NO_PERMISSION', message: 'Acesso não permitido' })
      }
    }
    // allTicket 'enable': tickets without a queue too.
    h.deps.sqlite.query("UPDATE users SET all_ticket = 'enable' WHERE id = ?").run(h.a.attendantId)
    expect((await agent.get(`/tickets/${noQueue.id}`)).status).toBe(200)
    // The admin opens any ticket of the company.
    const admin = await h.as(h.a.admin)
    expect((await admin.get(`/tickets/${inTheirs.id}`)).status).toBe(200)
  })

  test("numbers are masked unless the reader's isTricked is 'enabled'", async () => {
    const h = await createHarness()
    const contact = makeContact(h, h.a.id, { number: '5511987654321' })
    const t = makeTicket(h, h.a.id, { contactId: contact.id, status: 'pending' })
    h.deps.sqlite.query("UPDATE users SET is_tricked = 'disabled' WHERE id = ?").run(h.a.adminId)
    const admin = await h.as(h.a.admin)
    expect((await admin.get(`/tickets/${t.id}`)).body.contact.number).toBe('551198765****')
    expect((await admin.get('/tickets?status=pending')).body.tickets[0].contact.number).toBe('551198765****')
    h.deps.sqlite.query("UPDATE users SET is_tricked = 'enabled' WHERE id = ?").run(h.a.adminId)
    const again = await h.as(h.a.admin)
    expect((await again.get(`/tickets/${t.id}`)).body.contact.number).toBe('5511987654321')
  })
})

describe('reading a ticket (markTicketRead, for GET /messages)', () => {
  test('marks the incoming messages read, zeroes the count and publishes updateUnread to the ticket rooms', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    const t = makeTicket(h, h.a.id, { status: 'open', queueId: q.id, userId: h.a.attendantId, unread: 2 })
    makeMessage(h, t, { body: 'um', wid: 'W1' })
    makeMessage(h, t, { body: 'dois', wid: 'W2' })
    makeMessage(h, t, { body: 'nosso', fromMe: true, read: true })
    const events = h.recordEvents()
    expect(markTicketRead(h.deps, t)).toBe(true)
    expect(h.deps.sqlite.query('SELECT unread_messages AS n FROM tickets WHERE id = ?').get(t.id)).toEqual({
      n: 0,
    })
    expect(
      h.deps.sqlite.query('SELECT count(*) AS n FROM messages WHERE ticket_id = ? AND read = 0').get(t.id),
    ).toEqual({ n: 0 })
    expect(events.map((e) => [e.room, e.data])).toEqual([
      [`company:${h.a.id}:admins`, { action: 'updateUnread', ticketId: t.id }],
      [`company:${h.a.id}:queue:${q.id}`, { action: 'updateUnread', ticketId: t.id }],
      [`company:${h.a.id}:user:${h.a.attendantId}`, { action: 'updateUnread', ticketId: t.id }],
    ])
    // Nothing left to read: no write, no event.
    expect(markTicketRead(h.deps, t)).toBe(false)
    expect(events).toHaveLength(3)
  })

  test("another company's ticket id changes nothing", async () => {
    const h = await createHarness()
    const t = makeTicket(h, h.a.id, { status: 'open', userId: h.a.attendantId, unread: 1 })
    makeMessage(h, t, { body: 'oi' })
    expect(markTicketRead(h.deps, { ...t, companyId: h.b.id })).toBe(false)
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM messages WHERE read = 0').get()).toEqual({ n: 1 })
    expect(h.deps.sqlite.query('SELECT unread_messages AS n FROM tickets WHERE id = ?').get(t.id)).toEqual({
      n: 1,
    })
  })
})

describe('POST /tickets', () => {
  test('a new open ticket assigned to the actor, on the default connection, recorded and published', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, q.id)
    const w = h.makeConnection(h.a.id, { isDefault: true })
    const contact = makeContact(h, h.a.id)
    const agent = await h.as(h.a.attendant)
    const events = h.recordEvents()
    const res = await agent.post('/tickets', {
      contactId: contact.id,
      queueId: q.id,
      status: 'open',
      companyId: h.b.id,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      status: 'open',
      contactId: contact.id,
      userId: h.a.attendantId,
      queueId: q.id,
      whatsappId: w.id,
      companyId: h.a.id,
    })
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(eventsOf(h, res.body.id)).toEqual([
      expect.objectContaining({
        type: 'created',
        actorUserId: h.a.attendantId,
        fromStatus: null,
        toStatus: 'open',
        toUserId: h.a.attendantId,
        toQueueId: q.id,
        toWhatsappId: w.id,
      }),
    ])
    expect(events.map((e) => e.room)).toEqual([
      `company:${h.a.id}:admins`,
      `company:${h.a.id}:queue:${q.id}`,
      `company:${h.a.id}:user:${h.a.attendantId}`,
    ])
  })

  test("a queue is required unless the user is an admin ('Selecione uma fila')", async () => {
    const h = await createHarness()
    h.makeConnection(h.a.id, { isDefault: true })
    const contact = makeContact(h, h.a.id)
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/tickets', { contactId: contact.id })
    expect(res.status).toBe(400)
    expect(res.body.fields).toEqual([{ field: 'queueId', message: 'Selecione uma fila' }])
    const admin = await h.as(h.a.admin)
    expect((await admin.post('/tickets', { contactId: contact.id })).status).toBe(201)
  })

  test("another user's active ticket for the contact: 409 whose error is that ticket's JSON text", async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id, { name: 'Vendas' })
    h.addToQueue(h.a.attendantId, q.id)
    const w = h.makeConnection(h.a.id, { isDefault: true })
    const contact = makeContact(h, h.a.id)
    const held = makeTicket(h, h.a.id, {
      contactId: contact.id,
      status: 'open',
      userId: h.a.adminId,
      queueId: q.id,
      whatsappId: w.id,
    })
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/tickets', { contactId: contact.id, queueId: q.id, whatsappId: w.id })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('ERR_OTHER_OPEN_TICKET')
    const inError = JSON.parse(res.body.error) as TicketDto
    expect(inError).toMatchObject({
      id: held.id,
      userId: h.a.adminId,
      user: { name: 'Alpha Admin' },
      queue: { name: 'Vendas' },
    })
    expect(res.body.details.ticket.id).toBe(held.id)
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 1 })
  })

  test('to a user who may not see the held ticket, the 409 names only its holder and queue', async () => {
    const h = await createHarness()
    const mine = h.makeQueue(h.a.id, { name: 'Suporte' })
    const theirs = h.makeQueue(h.a.id, { name: 'Vendas' })
    h.addToQueue(h.a.attendantId, mine.id)
    const seller = h.makeUser(h.a.id, { name: 'Carlos', email: 'carlos@alpha.test' })
    h.addToQueue(seller.id, theirs.id)
    const w = h.makeConnection(h.a.id, { isDefault: true })
    const contact = makeContact(h, h.a.id, { name: 'Maria Souza' })
    const held = makeTicket(h, h.a.id, {
      contactId: contact.id,
      status: 'open',
      userId: seller.id,
      queueId: theirs.id,
      whatsappId: w.id,
      unread: 3,
      lastMessage: 'segredo da negociação',
    })
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/tickets', { contactId: contact.id, queueId: mine.id, whatsappId: w.id })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('ERR_OTHER_OPEN_TICKET')
    const shown = {
      userId: seller.id,
      user: { id: seller.id, name: 'Carlos' },
      queueId: theirs.id,
      queue: { id: theirs.id, name: 'Vendas', color: theirs.color },
    }
    expect(JSON.parse(res.body.error)).toEqual(shown)
    expect(res.body.details).toEqual({ ticket: shown })
    const text = JSON.stringify(res.body)
    for (const secret of ['segredo', 'Maria', contact.number, held.uuid]) expect(text).not.toContain(secret)
    // The admin, who may see it, still gets what the client needs to open it.
    const admin = await h.as(h.a.admin)
    const full = await admin.post('/tickets', { contactId: contact.id, queueId: mine.id, whatsappId: w.id })
    expect(full.status).toBe(409)
    expect(JSON.parse(full.body.error)).toMatchObject({ id: held.id, uuid: held.uuid, unreadMessages: 3 })
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 1 })
  })

  test("the actor's own open ticket for the contact is simply answered", async () => {
    const h = await createHarness()
    const w = h.makeConnection(h.a.id, { isDefault: true })
    const contact = makeContact(h, h.a.id)
    const mine = makeTicket(h, h.a.id, {
      contactId: contact.id,
      status: 'open',
      userId: h.a.adminId,
      whatsappId: w.id,
    })
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/tickets', { contactId: contact.id })
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(mine.id)
  })

  test("another company's contact, queue, connection or user: not found; no connection at all: ERR_NO_DEF_WAPP_FOUND", async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const contact = makeContact(h, h.a.id)
    expect((await admin.post('/tickets', { contactId: contact.id })).body.error).toBe('ERR_NO_DEF_WAPP_FOUND')
    h.makeConnection(h.a.id, { isDefault: true })
    const bContact = makeContact(h, h.b.id)
    const bQueue = h.makeQueue(h.b.id)
    const bConnection = h.makeConnection(h.b.id)
    const cases: [Record<string, unknown>, number, string][] = [
      [{ contactId: bContact.id }, 404, 'ERR_NO_CONTACT_FOUND'],
      [{ contactId: contact.id, queueId: bQueue.id }, 404, 'ERR_NO_QUEUE_FOUND'],
      [{ contactId: contact.id, whatsappId: bConnection.id }, 404, 'ERR_NO_WAPP_FOUND'],
      [{ contactId: contact.id, userId: h.b.adminId }, 404, 'ERR_NO_USER_FOUND'],
      [{ contactId: 'x' }, 400, 'ERR_VALIDATION'],
      [{}, 400, 'ERR_VALIDATION'],
      [{ contactId: contact.id, status: 'closed' }, 400, 'ERR_VALIDATION'],
    ]
    for (const [body, status, code] of cases) {
      const res = await admin.post('/tickets', body)
      expect([res.status, res.body.error]).toEqual([status, code])
    }
    expect((await admin.post('/tickets', '[1]')).status).toBe(400)
    expect((await admin.post('/tickets', 'not json')).status).toBe(400)
  })

  test('an attendant may not open a ticket for another user', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    h.makeConnection(h.a.id, { isDefault: true })
    const contact = makeContact(h, h.a.id)
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/tickets', { contactId: contact.id, queueId: q.id, userId: h.a.adminId })
    expect(res.status).toBe(403)
  })
})

describe('DELETE /tickets/{id}', () => {
  test('an admin deletes a ticket with its messages and search entries; the rooms hear delete', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    const t = makeTicket(h, h.a.id, { status: 'pending', queueId: q.id })
    makeMessage(h, t, { body: 'palavra única zebrafino' })
    const admin = await h.as(h.a.admin)
    expect((await admin.get('/tickets?searchParam=zebrafino')).body.tickets).toHaveLength(1)
    const events = h.recordEvents()
    const res = await admin.del(`/tickets/${t.id}`)
    expect(res.status).toBe(200)
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 0 })
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 })
    expect(
      h.deps.sqlite
        .query("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'zebrafino'")
        .get(),
    ).toEqual({ n: 0 })
    expect(events.map((e) => [e.room, e.data])).toEqual([
      [`company:${h.a.id}:admins`, { action: 'delete', ticketId: t.id }],
      [`company:${h.a.id}:queue:${q.id}`, { action: 'delete', ticketId: t.id }],
    ])
    expect((await admin.get(`/tickets/${t.id}`)).status).toBe(404)
  })

  test('an attendant may not delete (ticket-options:deleteTicket)', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, q.id)
    const t = makeTicket(h, h.a.id, { status: 'open', queueId: q.id, userId: h.a.attendantId })
    const agent = await h.as(h.a.attendant)
    const res = await agent.del(`/tickets/${t.id}`)
    expect(res.status).toBe(403)
    expect(res.body.error).toBe('ERR_NO_PERMISSION')
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 1 })
  })
})

describe('loadTicketDtos', () => {
  test('many tickets in the order asked, unknown ids left out, with their tags', async () => {
    const h = await createHarness()
    const a = makeTicket(h, h.a.id, { status: 'pending' })
    const b = makeTicket(h, h.a.id, { status: 'pending' })
    const now = h.clock.now()
    const tag = h.deps.sqlite
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO tags (company_id, name, color, created_at, updated_at) VALUES (?, 'Urgente', '#f00', ?, ?) RETURNING id",
      )
      .get(h.a.id, now, now)!
    h.deps.sqlite.query('INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)').run(b.id, tag.id)
    const dtos = loadTicketDtos(h.db, [b.id, 999, a.id])
    expect(dtos.map((t) => t.id)).toEqual([b.id, a.id])
    expect(dtos[0]!.tags).toEqual([{ id: tag.id, name: 'Urgente', color: '#f00' }])
    // Inside a transaction, on the same connection.
    const inTx = transact(h.deps, (tx) => loadTicketDtos(tx, [a.id]))
    expect(inTx.map((t) => t.id)).toEqual([a.id])
    expect(loadTicketDtos(h.db, [])).toEqual([])
  })
})
