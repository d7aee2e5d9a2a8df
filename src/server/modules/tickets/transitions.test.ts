import { describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../../test/harness'
import { makeContact, makeTicket } from './testing'

/** What the customers were told: the outbound messages written on the tickets, oldest first. */
function notices(h: Harness) {
  return h.deps.sqlite
    .query<{ ticketId: number; body: string; userId: number; sendState: string }, []>(
      `SELECT ticket_id AS ticketId, body, user_id AS userId, send_state AS sendState
         FROM messages WHERE from_me = 1 ORDER BY id`,
    )
    .all()
}

/** Company A: queues q1 (both attendants and the admin) and q2 (a third attendant), one connection, one customer. */
async function setup() {
  const h = await createHarness()
  const A = h.a.id
  const q1 = h.makeQueue(A, { name: 'Suporte' })
  const q2 = h.makeQueue(A, { name: 'Vendas' })
  const w = h.makeConnection(A, {
    name: 'Principal',
    isDefault: true,
    complationMessage: 'Até logo, {{firstName}}!',
  })
  const w2 = h.makeConnection(A, { name: 'Segunda' })
  const colleague = h.makeUser(A, { name: 'Bruna', email: 'bruna@alpha.test' })
  const seller = h.makeUser(A, { name: 'Carlos', email: 'carlos@alpha.test' })
  h.addToQueue(h.a.attendantId, q1.id)
  h.addToQueue(colleague.id, q1.id)
  h.addToQueue(seller.id, q2.id)
  h.addToQueue(h.a.adminId, q1.id)
  const contact = makeContact(h, A, { name: 'Maria Souza' })
  const ticket = (fields: Parameters<typeof makeTicket>[2] = {}) =>
    makeTicket(h, A, {
      contactId: contact.id,
      whatsappId: w.id,
      queueId: q1.id,
      status: 'pending',
      ...fields,
    })
  return {
    h,
    q1,
    q2,
    w,
    w2,
    colleague,
    seller,
    contact,
    ticket,
    agent: await h.as(h.a.attendant),
    admin: await h.as(h.a.admin),
    bruna: await h.as('bruna@alpha.test'),
  }
}

function row(h: Harness, id: number) {
  return h.deps.sqlite
    .query<Record<string, unknown>, [number]>(
      `SELECT status, user_id AS userId, queue_id AS queueId, whatsapp_id AS whatsappId, closed_at AS closedAt,
              unread_messages AS unread FROM tickets WHERE id = ?`,
    )
    .get(id)
}

function events(h: Harness, id: number) {
  return h.deps.sqlite
    .query<Record<string, unknown>, [number]>(
      `SELECT type, actor_user_id AS actor, from_status AS fromStatus, to_status AS toStatus, from_user_id AS fromUser,
              to_user_id AS toUser, from_queue_id AS fromQueue, to_queue_id AS toQueue,
              from_whatsapp_id AS fromWhatsapp, to_whatsapp_id AS toWhatsapp, created_at AS at
         FROM ticket_events WHERE ticket_id = ? ORDER BY id`,
    )
    .all(id)
}

function setting(h: Harness, key: string, value: string) {
  h.deps.sqlite
    .query('UPDATE settings SET value = ? WHERE company_id = ? AND key = ?')
    .run(value, h.a.id, key)
}

/** The ticket events, by room and action, in the order published (the notices' own events left out). */
const roomsOf = (list: { room: string; event: string; data: unknown }[]) =>
  list.filter((e) => e.event.endsWith('-ticket')).map((e) => [e.room, (e.data as { action: string }).action])

describe('accept (pending → open)', () => {
  test('assigns the actor, records accepted, publishes to the ticket rooms', async () => {
    const { h, q1, w, agent, ticket } = await setup()
    const t = ticket()
    const live = h.recordEvents()
    h.clock.advance(5_000)
    const res = await agent.put(`/tickets/${t.id}`, { status: 'open', userId: h.a.attendantId })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: 'open',
      userId: h.a.attendantId,
      user: { name: 'Alpha Attendant' },
    })
    expect(row(h, t.id)).toMatchObject({ status: 'open', userId: h.a.attendantId, queueId: q1.id })
    expect(events(h, t.id)).toEqual([
      {
        type: 'accepted',
        actor: h.a.attendantId,
        fromStatus: 'pending',
        toStatus: 'open',
        fromUser: null,
        toUser: h.a.attendantId,
        fromQueue: q1.id,
        toQueue: q1.id,
        fromWhatsapp: w.id,
        toWhatsapp: w.id,
        at: h.clock.now(),
      },
    ])
    expect(roomsOf(live)).toEqual([
      [`company:${h.a.id}:admins`, 'update'],
      [`company:${h.a.id}:queue:${q1.id}`, 'update'],
      [`company:${h.a.id}:user:${h.a.attendantId}`, 'update'],
    ])
    expect(notices(h)).toEqual([])
  })

  test('two attendants racing: the second gets 409 ERR_TICKET_ALREADY_ACCEPTED; a repeat by the first is harmless', async () => {
    const { h, agent, bruna, admin, colleague, ticket } = await setup()
    const t = ticket()
    expect((await agent.put(`/tickets/${t.id}`, { status: 'open', userId: h.a.attendantId })).status).toBe(
      200,
    )
    const late = await bruna.put(`/tickets/${t.id}`, { status: 'open', userId: colleague.id })
    expect(late.status).toBe(409)
    expect(late.body).toMatchObject({
      error: 'ERR_TICKET_ALREADY_ACCEPTED',
      details: { userId: h.a.attendantId },
    })
    const adminLate = await admin.put(`/tickets/${t.id}`, { status: 'open', userId: h.a.adminId })
    expect(adminLate.status).toBe(409)
    const noUser = await bruna.put(`/tickets/${t.id}`, { status: 'open' })
    expect([noUser.status, noUser.body.error]).toEqual([409, 'ERR_TICKET_ALREADY_ACCEPTED'])
    const again = await agent.put(`/tickets/${t.id}`, { status: 'open', userId: h.a.attendantId })
    expect(again.status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'open', userId: h.a.attendantId })
    expect(events(h, t.id).map((e) => e.type)).toEqual(['accepted'])
  })

  test('with sendGreetingAccepted the customer is greeted by name, never a group', async () => {
    const { h, agent, ticket, contact } = await setup()
    setting(h, 'sendGreetingAccepted', 'enabled')
    const t = ticket()
    const live = h.recordEvents()
    await agent.put(`/tickets/${t.id}`, { status: 'open' })
    const [greeting, ...rest] = notices(h)
    expect(rest).toEqual([])
    expect(greeting).toMatchObject({ ticketId: t.id, userId: h.a.attendantId, sendState: 'queued' })
    expect(greeting!.body).toMatch(/^(Bom dia|Boa tarde|Boa noite), Maria! Meu nome é \*Alpha Attendant\*/)
    // The message goes live with the ticket, like any message, and the ticket's preview shows it.
    expect(live.some((e) => e.event === `company-${h.a.id}-appMessage`)).toBe(true)
    expect(h.deps.sqlite.query('SELECT last_message AS m FROM tickets WHERE id = ?').get(t.id)).toEqual({
      m: greeting!.body,
    })
    const group = makeContact(h, h.a.id, { name: 'Grupo', isGroup: true })
    const g = ticket({ contactId: group.id, isGroup: true })
    await agent.put(`/tickets/${g.id}`, { status: 'open' })
    expect(notices(h)).toHaveLength(1)
    expect(contact.id).toBeGreaterThan(0)
  })
})

describe('return to queue (open → pending)', () => {
  test('clears the user; the old attendant hears delete, the queue hears the update', async () => {
    const { h, q1, agent, ticket } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    const live = h.recordEvents()
    const res = await agent.put(`/tickets/${t.id}`, { status: 'pending' })
    expect(res.status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'pending', userId: null, queueId: q1.id })
    expect(events(h, t.id)).toEqual([
      expect.objectContaining({
        type: 'returned',
        fromStatus: 'open',
        toStatus: 'pending',
        fromUser: h.a.attendantId,
        toUser: null,
      }),
    ])
    expect(roomsOf(live)).toEqual([
      [`company:${h.a.id}:user:${h.a.attendantId}`, 'delete'],
      [`company:${h.a.id}:admins`, 'update'],
      [`company:${h.a.id}:queue:${q1.id}`, 'update'],
    ])
  })

  test('a pending ticket is already pending: 409 ERR_TICKET_INVALID_TRANSITION', async () => {
    const { agent, ticket } = await setup()
    const t = ticket()
    const res = await agent.put(`/tickets/${t.id}`, { status: 'pending' })
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('ERR_TICKET_INVALID_TRANSITION')
  })
})

describe('close (open or pending → closed)', () => {
  test("with the user's farewell message when they have one, else the connection's; closes as the actor", async () => {
    const { h, agent, ticket } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId, unread: 4 })
    h.clock.advance(1_000)
    const res = await agent.put(`/tickets/${t.id}`, { status: 'closed', userId: h.a.attendantId })
    expect(res.status).toBe(200)
    expect(row(h, t.id)).toMatchObject({
      status: 'closed',
      userId: h.a.attendantId,
      closedAt: h.clock.now(),
      unread: 0,
    })
    expect(notices(h)).toEqual([
      { ticketId: t.id, body: 'Até logo, Maria!', userId: h.a.attendantId, sendState: 'queued' },
    ])
    expect(events(h, t.id)).toEqual([
      expect.objectContaining({ type: 'closed', fromStatus: 'open', toStatus: 'closed' }),
    ])

    h.deps.sqlite
      .query("UPDATE users SET farewell_message = 'Obrigado, {{name}}!' WHERE id = ?")
      .run(h.a.attendantId)
    const t2 = makeTicket(h, h.a.id, { status: 'open', userId: h.a.attendantId, whatsappId: t.whatsappId })
    await agent.put(`/tickets/${t2.id}`, { status: 'closed' })
    expect(notices(h).map((n) => n.body)).toEqual([
      'Até logo, Maria!',
      expect.stringMatching(/^Obrigado, Cliente \d+!$/),
    ])
  })

  test('a farewell that fills to nothing, or a ticket without a connection, sends nothing and still closes', async () => {
    const { h, agent, ticket } = await setup()
    h.deps.sqlite
      .query("UPDATE users SET farewell_message = '{{firstName}} ' WHERE id = ?")
      .run(h.a.attendantId)
    const nameless = makeContact(h, h.a.id, { name: ' ' })
    const t = ticket({ status: 'open', userId: h.a.attendantId, contactId: nameless.id })
    expect((await agent.put(`/tickets/${t.id}`, { status: 'closed' })).status).toBe(200)
    const loose = makeTicket(h, h.a.id, { status: 'open', userId: h.a.attendantId, whatsappId: null })
    expect((await agent.put(`/tickets/${loose.id}`, { status: 'closed' })).status).toBe(200)
    expect(notices(h)).toEqual([])
    expect(row(h, t.id)).toMatchObject({ status: 'closed' })
  })

  test('without farewell when asked, and never to a group', async () => {
    const { h, agent, ticket } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    expect(
      (await agent.put(`/tickets/${t.id}`, { status: 'closed', sendFarewellMessage: false })).status,
    ).toBe(200)
    const group = makeContact(h, h.a.id, { isGroup: true })
    const g = ticket({ status: 'open', userId: h.a.attendantId, contactId: group.id, isGroup: true })
    expect((await agent.put(`/tickets/${g.id}`, { status: 'closed' })).status).toBe(200)
    expect(notices(h)).toEqual([])
  })

  test('a pending ticket: closed by an attendant unless their userClosePendingTicket is disabled', async () => {
    const { h, agent, ticket } = await setup()
    h.deps.sqlite
      .query("UPDATE users SET user_close_pending_ticket = 'disabled' WHERE id = ?")
      .run(h.a.attendantId)
    const t = ticket()
    const refused = await agent.put(`/tickets/${t.id}`, { status: 'closed' })
    expect(refused.status).toBe(403)
    expect(row(h, t.id)).toMatchObject({ status: 'pending' })
    h.deps.sqlite
      .query("UPDATE users SET user_close_pending_ticket = 'enabled' WHERE id = ?")
      .run(h.a.attendantId)
    expect((await agent.put(`/tickets/${t.id}`, { status: 'closed' })).status).toBe(200)
    expect(events(h, t.id)).toEqual([
      expect.objectContaining({ type: 'closed', fromStatus: 'pending', toUser: h.a.attendantId }),
    ])
  })

  test('requiredTag: a ticket without a tag cannot be closed (ERR_TICKET_TAG_REQUIRED)', async () => {
    const { h, agent, ticket } = await setup()
    setting(h, 'requiredTag', 'enabled')
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    const res = await agent.put(`/tickets/${t.id}`, { status: 'closed' })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_TICKET_TAG_REQUIRED')
    expect(row(h, t.id)).toMatchObject({ status: 'open' })
    const now = h.clock.now()
    const tag = h.deps.sqlite
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO tags (company_id, name, color, created_at, updated_at) VALUES (?, 'Resolvido', '#0f0', ?, ?) RETURNING id",
      )
      .get(h.a.id, now, now)!
    h.deps.sqlite.query('INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)').run(t.id, tag.id)
    expect((await agent.put(`/tickets/${t.id}`, { status: 'closed' })).status).toBe(200)
  })

  test("an attendant may not close another user's open ticket; the admin may", async () => {
    const { h, bruna, admin, ticket } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    const res = await bruna.put(`/tickets/${t.id}`, { status: 'closed' })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe('ERR_NO_PERMISSION')
    expect((await admin.put(`/tickets/${t.id}`, { status: 'closed' })).status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'closed', userId: h.a.adminId })
  })

  test('a closed ticket: closing again, returning or transferring it is 409 ERR_TICKET_INVALID_TRANSITION', async () => {
    const { h, q2, agent, ticket } = await setup()
    const t = ticket({ status: 'closed', userId: h.a.attendantId })
    for (const body of [{ status: 'closed' }, { status: 'pending' }, { queueId: q2.id }, {}]) {
      const res = await agent.put(`/tickets/${t.id}`, body)
      expect([res.status, res.body.error]).toEqual([409, 'ERR_TICKET_INVALID_TRANSITION'])
    }
    expect(events(h, t.id)).toEqual([])
  })
})

describe('reopen (closed → open)', () => {
  test('assigned to whoever reopens it, recorded as reopened', async () => {
    const { h, bruna, colleague, ticket } = await setup()
    const t = ticket({ status: 'closed', userId: h.a.attendantId })
    const res = await bruna.put(`/tickets/${t.id}`, { status: 'open' })
    expect(res.status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'open', userId: colleague.id, closedAt: null })
    expect(events(h, t.id)).toEqual([
      expect.objectContaining({
        type: 'reopened',
        fromStatus: 'closed',
        toStatus: 'open',
        fromUser: h.a.attendantId,
        toUser: colleague.id,
      }),
    ])
  })

  test('not while the contact has another active ticket on the connection (409 ERR_OTHER_OPEN_TICKET)', async () => {
    const { h, agent, ticket } = await setup()
    const closed = ticket({ status: 'closed', userId: h.a.attendantId })
    const active = ticket({ status: 'pending' })
    const res = await agent.put(`/tickets/${closed.id}`, { status: 'open' })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('ERR_OTHER_OPEN_TICKET')
    expect(JSON.parse(res.body.error).id).toBe(active.id)
    expect(row(h, closed.id)).toMatchObject({ status: 'closed' })
  })

  test('reopening against a ticket the user may not see: the 409 names only its holder and queue', async () => {
    const { h, agent, ticket, seller, q2 } = await setup()
    const closed = ticket({ status: 'closed', userId: h.a.attendantId })
    ticket({ status: 'open', userId: seller.id, queueId: q2.id, lastMessage: 'proposta confidencial' })
    const res = await agent.put(`/tickets/${closed.id}`, { status: 'open' })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('ERR_OTHER_OPEN_TICKET')
    expect(JSON.parse(res.body.error)).toEqual({
      userId: seller.id,
      user: { id: seller.id, name: 'Carlos' },
      queueId: q2.id,
      queue: { id: q2.id, name: 'Vendas', color: q2.color },
    })
    expect(JSON.stringify(res.body)).not.toContain('confidencial')
    expect(row(h, closed.id)).toMatchObject({ status: 'closed' })
  })

  test('an attendant may not reopen a ticket for someone else', async () => {
    const { h, agent, colleague, ticket } = await setup()
    const t = ticket({ status: 'closed', userId: h.a.attendantId })
    expect((await agent.put(`/tickets/${t.id}`, { status: 'open', userId: colleague.id })).status).toBe(403)
  })
})

describe('transfer', () => {
  test('to a user (and queue): open, assigned to them; the old rooms hear delete; sendMsgTransfTicket tells the customer', async () => {
    const { h, q1, q2, seller, agent, ticket } = await setup()
    setting(h, 'sendMsgTransfTicket', 'enabled')
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    const live = h.recordEvents()
    const res = await agent.put(`/tickets/${t.id}`, { userId: seller.id, queueId: q2.id, status: 'open' })
    expect(res.status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'open', userId: seller.id, queueId: q2.id })
    expect(events(h, t.id)).toEqual([
      expect.objectContaining({
        type: 'transferred',
        actor: h.a.attendantId,
        fromUser: h.a.attendantId,
        toUser: seller.id,
        fromQueue: q1.id,
        toQueue: q2.id,
      }),
    ])
    // The notice's own events come first (its message and the ticket's new preview, to the new rooms); then the
    // rooms that lost the ticket hear delete, and the rooms that have it now hear the update, last.
    const seen = roomsOf(live)
    expect(seen.slice(-5)).toEqual([
      [`company:${h.a.id}:queue:${q1.id}`, 'delete'],
      [`company:${h.a.id}:user:${h.a.attendantId}`, 'delete'],
      [`company:${h.a.id}:admins`, 'update'],
      [`company:${h.a.id}:queue:${q2.id}`, 'update'],
      [`company:${h.a.id}:user:${seller.id}`, 'update'],
    ])
    const allowed = new Set([
      `company:${h.a.id}:admins`,
      `company:${h.a.id}:queue:${q2.id}`,
      `company:${h.a.id}:user:${seller.id}`,
    ])
    expect(seen.slice(0, -5).filter(([room]) => !allowed.has(room!))).toEqual([])
    expect(live.filter((e) => e.event.endsWith('-appMessage') && !allowed.has(e.room))).toEqual([])
    expect(notices(h).map((n) => n.body)).toEqual([expect.stringContaining('*Carlos*')])
    // The old attendant no longer sees it: it is in another queue and assigned to someone else.
    expect((await agent.get(`/tickets/${t.id}`)).status).toBe(403)
  })

  test('to a queue only: pending in that queue, user cleared', async () => {
    const { h, q2, agent, ticket } = await setup()
    setting(h, 'sendMsgTransfTicket', 'enabled')
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    expect((await agent.put(`/tickets/${t.id}`, { queueId: q2.id })).status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'pending', userId: null, queueId: q2.id })
    expect(events(h, t.id)).toEqual([
      expect.objectContaining({ type: 'transferred', toStatus: 'pending', toQueue: q2.id }),
    ])
    expect(notices(h).map((n) => n.body)).toEqual([expect.stringContaining('*Vendas*')])
    // A pending ticket moves between queues too.
    const p = ticket({ status: 'pending', contactId: makeContact(h, h.a.id).id })
    expect((await agent.put(`/tickets/${p.id}`, { queueId: q2.id, status: 'pending' })).status).toBe(200)
    expect(row(h, p.id)).toMatchObject({ status: 'pending', queueId: q2.id })
  })

  test('a pending ticket handed to a user: open, assigned to them, transferred', async () => {
    const { h, admin, seller, ticket } = await setup()
    const t = ticket()
    expect((await admin.put(`/tickets/${t.id}`, { status: 'open', userId: seller.id })).status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'open', userId: seller.id })
    expect(events(h, t.id).map((e) => e.type)).toEqual(['transferred'])
  })

  test('to another connection, unless the contact has an active ticket there', async () => {
    const { h, q1, w, w2, agent, ticket, contact } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    const res = await agent.put(`/tickets/${t.id}`, {
      whatsappId: w2.id,
      queueId: q1.id,
      userId: h.a.attendantId,
    })
    expect(res.status).toBe(200)
    expect(row(h, t.id)).toMatchObject({ status: 'open', whatsappId: w2.id, userId: h.a.attendantId })
    expect(events(h, t.id)).toEqual([
      expect.objectContaining({ type: 'transferred', fromWhatsapp: w.id, toWhatsapp: w2.id }),
    ])
    makeTicket(h, h.a.id, { contactId: contact.id, whatsappId: w.id, status: 'pending' })
    const back = await agent.put(`/tickets/${t.id}`, { whatsappId: w.id, userId: h.a.attendantId })
    expect(back.status).toBe(409)
    expect(back.body.code).toBe('ERR_OTHER_OPEN_TICKET')
  })

  test("an attendant may not transfer another user's ticket; the admin may", async () => {
    const { h, q2, bruna, admin, ticket } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    expect((await bruna.put(`/tickets/${t.id}`, { queueId: q2.id })).status).toBe(403)
    expect((await admin.put(`/tickets/${t.id}`, { queueId: q2.id })).status).toBe(200)
  })
})

describe('PUT /tickets/{id}: input', () => {
  test.each([
    [{ status: 'archived' }, 400, 'ERR_VALIDATION'],
    [{ userId: 'x' }, 400, 'ERR_VALIDATION'],
    [{ queueId: -1 }, 400, 'ERR_VALIDATION'],
    [{ whatsappId: null }, 400, 'ERR_VALIDATION'],
    [{ sendFarewellMessage: 'no' }, 400, 'ERR_VALIDATION'],
    [{ status: 'open', userId: null }, 400, 'ERR_VALIDATION'],
  ])('%p answers %i %s', async (body, status, code) => {
    const { agent, ticket } = await setup()
    const t = ticket()
    const res = await agent.put(`/tickets/${t.id}`, body)
    expect([res.status, res.body.error]).toEqual([status, code])
  })

  test('a pending status with a user is contradictory: 400 naming userId', async () => {
    const { h, agent, ticket } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    const res = await agent.put(`/tickets/${t.id}`, { status: 'pending', userId: h.a.attendantId })
    expect(res.status).toBe(400)
    expect(res.body.fields[0].field).toBe('userId')
  })

  test("another company's user, queue or connection in the body: not found, nothing changes", async () => {
    const { h, agent, ticket } = await setup()
    const t = ticket({ status: 'open', userId: h.a.attendantId })
    const bQueue = h.makeQueue(h.b.id)
    const bConnection = h.makeConnection(h.b.id)
    const cases: [Record<string, unknown>, string][] = [
      [{ userId: h.b.adminId, status: 'open' }, 'ERR_NO_USER_FOUND'],
      [{ queueId: bQueue.id }, 'ERR_NO_QUEUE_FOUND'],
      [{ whatsappId: bConnection.id }, 'ERR_NO_WAPP_FOUND'],
    ]
    for (const [body, code] of cases) {
      const res = await agent.put(`/tickets/${t.id}`, body)
      expect([res.status, res.body.error]).toEqual([404, code])
    }
    expect(events(h, t.id)).toEqual([])
  })
})
