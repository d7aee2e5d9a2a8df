import { afterEach, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import type { MessageDto, TicketDto } from '../../../shared/api'
import { type LiveFrame, liveChannel } from '../../../shared/live'
import { EventBuffer } from '../../realtime/hub'
import { rooms } from '../../realtime/rooms'
import type { SocketData, TicketAccess } from '../../realtime/socket'
import { createHarness, type Harness } from '../../test/harness'
import { connectLive, type LiveClient, listenLive, until } from '../../test/live'
import { ticketAccess } from './access'
import { loadTicketDtos } from './dto'
import { publishMessage, publishTicket, ticketRooms } from './live'
import { makeContact, makeTicket } from './testing'

let server: Server<SocketData> | undefined
afterEach(() => {
  server?.stop(true)
  server = undefined
})

/** The real access check, recording what was asked so a test can wait for a joinChatBox to be handled. */
function recordingAccess(h: Harness) {
  const real = ticketAccess(h.deps.sqlite)
  const asked: { userId: number; ticketId: number; allowed: boolean }[] = []
  const access: TicketAccess = (actor, ticketId) => {
    const allowed = real(actor, ticketId)
    asked.push({ userId: actor.userId, ticketId, allowed })
    return allowed
  }
  return { access, asked }
}

const isTicketEvent = (companyId: number) => (f: LiveFrame) =>
  f.event === liveChannel(companyId, 'ticket') || f.event === liveChannel(companyId, 'appMessage')

/** Publishes a marker every socket of the company gets, and waits until `client` has it: frames before it arrived. */
async function drained(h: Harness, client: LiveClient, marker: string) {
  h.deps.hub.publish(rooms.company(h.a.id), liveChannel(h.a.id, 'settings'), {
    action: 'update',
    setting: { key: marker, value: '' },
  })
  await client.next(
    (f) =>
      f.event === liveChannel(h.a.id, 'settings') &&
      (f.data as { setting: { key: string } }).setting.key === marker,
  )
}

describe('live: a ticket reaches only the users allowed to see it', () => {
  test('an attendant of another queue never hears of the ticket, nor may follow its conversation', async () => {
    const h = await createHarness()
    const q1 = h.makeQueue(h.a.id)
    const q2 = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, q1.id)
    const seller = h.makeUser(h.a.id, { name: 'Carlos', email: 'carlos@alpha.test' })
    h.addToQueue(seller.id, q2.id)
    // The admin sees numbers masked; the attendant (default) in full.
    h.deps.sqlite.query("UPDATE users SET is_tricked = 'disabled' WHERE id = ?").run(h.a.adminId)
    const contact = makeContact(h, h.a.id, { number: '5511987654321' })
    const t = makeTicket(h, h.a.id, { status: 'pending', queueId: q1.id, contactId: contact.id })
    const probe = recordingAccess(h)
    server = listenLive(h, { ticketAccess: probe.access })
    const agent = connectLive(server, await h.login(h.a.attendant))
    const sellerSocket = connectLive(server, await h.login('carlos@alpha.test'))
    const admin = connectLive(server, await h.login(h.a.admin))
    const companyB = connectLive(server, await h.login(h.b.admin))
    await Promise.all([agent.opened, sellerSocket.opened, admin.opened, companyB.opened])
    await until(() => h.deps.hub.size === 4, 'all joined')

    // Both ask to follow the ticket's conversation: only the attendant of its queue may.
    agent.ws.send(JSON.stringify({ event: 'joinChatBox', data: t.id }))
    sellerSocket.ws.send(JSON.stringify({ event: 'joinChatBox', data: t.id }))
    await until(() => probe.asked.length === 2, 'joinChatBox handled')
    expect(probe.asked.map((a) => [a.userId, a.allowed]).sort()).toEqual(
      [
        [h.a.attendantId, true],
        [seller.id, false],
      ].sort(),
    )

    const client = await h.as(h.a.attendant)
    expect((await client.put(`/tickets/${t.id}`, { status: 'open' })).status).toBe(200)
    const update = await agent.next(isTicketEvent(h.a.id))
    expect((update.data as { ticket: TicketDto }).ticket).toMatchObject({
      id: t.id,
      status: 'open',
      contact: { number: '5511987654321' },
    })
    const masked = await admin.next(isTicketEvent(h.a.id))
    expect((masked.data as { ticket: TicketDto }).ticket.contact.number).toBe('551198765****')

    // Something published to the ticket's own room does not reach the seller either.
    h.deps.hub.publish(rooms.ticket(h.a.id, t.id), liveChannel(h.a.id, 'settings'), {
      action: 'update',
      setting: { key: 'ticket-room', value: '' },
    })
    await drained(h, sellerSocket, 'after-accept')
    expect(sellerSocket.frames.filter(isTicketEvent(h.a.id))).toEqual([])
    expect(
      sellerSocket.frames.some(
        (f) => (f.data as { setting?: { key: string } }).setting?.key === 'ticket-room',
      ),
    ).toBe(false)
    await drained(h, agent, 'agent-drained')
    expect(
      agent.frames.some((f) => (f.data as { setting?: { key: string } }).setting?.key === 'ticket-room'),
    ).toBe(true)
    // Another company hears nothing at all.
    expect(companyB.frames.filter((f) => f.event.startsWith(`company-${h.a.id}-`))).toEqual([])
    for (const c of [agent, sellerSocket, admin, companyB]) c.ws.close()
  })

  test("a ticket without a queue: the admins and the attendants with allTicket 'enable' hear it", async () => {
    const h = await createHarness()
    const allowed = h.makeUser(h.a.id, { email: 'all@alpha.test', allTicket: 'enable' })
    const t = makeTicket(h, h.a.id, { status: 'pending' })
    server = listenLive(h)
    const yes = connectLive(server, await h.login('all@alpha.test'))
    const no = connectLive(server, await h.login(h.a.attendant))
    await Promise.all([yes.opened, no.opened])
    await until(() => h.deps.hub.size === 2, 'joined')
    const admin = await h.as(h.a.admin)
    expect((await admin.put(`/tickets/${t.id}`, { status: 'open', userId: h.a.adminId })).status).toBe(200)
    const seen = await yes.next(isTicketEvent(h.a.id))
    expect((seen.data as { ticket: TicketDto }).ticket.id).toBe(t.id)
    await drained(h, no, 'no-queue')
    expect(no.frames.filter(isTicketEvent(h.a.id))).toEqual([])
    expect(allowed.id).toBeGreaterThan(0)
    yes.ws.close()
    no.ws.close()
  })
})

describe('live: publishers', () => {
  test('ticketRooms: admins, the queue (or no-queue) room, the assignee', () => {
    expect(ticketRooms({ id: 1, companyId: 7, queueId: 3, userId: 9 })).toEqual([
      rooms.admins(7),
      rooms.queue(7, 3),
      rooms.user(7, 9),
    ])
    expect(ticketRooms({ id: 1, companyId: 7, queueId: null, userId: null })).toEqual([
      rooms.admins(7),
      rooms.noQueue(7),
    ])
  })

  test('publishMessage: create carries the ticket and contact, masked to the rooms and in full to #full', async () => {
    const h = await createHarness()
    const contact = makeContact(h, h.a.id, { number: '5511987654321' })
    const t = makeTicket(h, h.a.id, { status: 'pending', contactId: contact.id })
    const ticket = loadTicketDtos(h.db, [t.id])[0]!
    const message = { id: 1, ticketId: t.id, body: 'oi' } as MessageDto
    const live = h.recordEvents()
    const events = new EventBuffer()
    publishMessage(events, ticket, message, 'create')
    publishMessage(events, ticket, message, 'update')
    events.flush(h.deps.hub)
    expect(live.map((e) => e.room)).toEqual([
      rooms.admins(h.a.id),
      rooms.noQueue(h.a.id),
      rooms.admins(h.a.id),
      rooms.noQueue(h.a.id),
    ])
    const create = live[0]!
    expect(create.event).toBe(liveChannel(h.a.id, 'appMessage'))
    expect(create.data).toMatchObject({
      action: 'create',
      message,
      ticket: { id: t.id, contact: { number: '551198765****' } },
      contact: { number: '551198765****' },
    })
    expect(create.unmasked).toMatchObject({
      ticket: { contact: { number: '5511987654321' } },
      contact: { number: '5511987654321' },
    })
    expect(live[2]!.data).toEqual({ action: 'update', message })
    expect(live[2]!.unmasked).toBeUndefined()
  })

  test('publishTicket with where it was: delete to the rooms it left, then update to where it is', async () => {
    const h = await createHarness()
    const t = makeTicket(h, h.a.id, { status: 'open', queueId: null, userId: h.a.adminId })
    const ticket = loadTicketDtos(h.db, [t.id])[0]!
    const live = h.recordEvents()
    const events = new EventBuffer()
    publishTicket(events, ticket, { id: t.id, companyId: h.a.id, queueId: 5, userId: 6 })
    events.flush(h.deps.hub)
    expect(live.map((e) => [e.room, (e.data as { action: string }).action])).toEqual([
      [rooms.queue(h.a.id, 5), 'delete'],
      [rooms.user(h.a.id, 6), 'delete'],
      [rooms.admins(h.a.id), 'update'],
      [rooms.noQueue(h.a.id), 'update'],
      [rooms.user(h.a.id, h.a.adminId), 'update'],
    ])
  })
})
