import { afterEach, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import { eq } from 'drizzle-orm'
import { liveChannel } from '../../shared/live'
import { users } from '../db/schema'
import type { Logger } from '../logger'
import { createHarness } from '../test/harness'
import { connectLive, listenLive, rowsWritten, ticketAccessProbe, until } from '../test/live'
import { rooms } from './rooms'
import type { SocketData } from './socket'

let server: Server<SocketData> | undefined
afterEach(() => {
  server?.stop(true)
  server = undefined
})

const frame = (event: string, data?: unknown) =>
  JSON.stringify(data === undefined ? { event } : { event, data })
const ticketMarker = { action: 'update' as const, setting: { key: 'ticket-room', value: '' } }

function recordingLog() {
  const errors: { msg: string; fields?: Record<string, unknown> }[] = []
  const log: Logger = { info() {}, warn() {}, error: (msg, fields) => errors.push({ msg, fields }) }
  return { log, errors }
}

async function health(srv: Server<SocketData>) {
  return (await fetch(`http://127.0.0.1:${srv.port}/api/health`)).status
}

describe('the live socket survives what clients send', () => {
  test('junk frames (null, numbers, arrays, strings, binary, unknown events) are ignored', async () => {
    const h = await createHarness()
    const tickets = ticketAccessProbe(() => true)
    server = listenLive(h, { ticketAccess: tickets.access })
    const agent = connectLive(server, await h.login(h.a.attendant))
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')

    const junk: (string | Uint8Array<ArrayBuffer>)[] = [
      'null',
      '1',
      '[]',
      '"x"',
      'true',
      '{',
      '',
      '{}',
      frame('joinChatBox'),
      frame('joinChatBox', null),
      frame('joinChatBox', { id: 7 }),
      frame('joinChatBox', -7),
      frame('joinChatBox', '7abc'),
      '{"event":"__proto__","data":7}',
      frame('toString', 7),
      JSON.stringify('x'.repeat(8_000)),
      new Uint8Array([0x7b, 0x7d, 0x00, 0xff]),
    ]
    for (const j of junk) agent.ws.send(j)
    // The junk used most of the burst; time passes and the bucket refills.
    h.clock.advance(10_000)
    // The original client sends ids from the URL, as strings.
    agent.ws.send(frame('joinChatBox', '7'))
    await tickets.askedAbout(7)
    expect(tickets.asked).toEqual([7])

    h.deps.hub.publish(rooms.ticket(h.a.id, 7), liveChannel(h.a.id, 'settings'), ticketMarker)
    await agent.next((f) => f.event === `company-${h.a.id}-settings`)
    expect(agent.ws.readyState).toBe(WebSocket.OPEN)
    expect(await health(server)).toBe(200)
    agent.ws.close()
  })

  test('a frame past the size limit closes only that socket', async () => {
    const h = await createHarness()
    server = listenLive(h)
    const big = connectLive(server, await h.login(h.a.attendant))
    const other = connectLive(server, await h.login(h.a.admin))
    await Promise.all([big.opened, other.opened])
    await until(() => h.deps.hub.size === 2, 'joined')

    big.ws.send(JSON.stringify({ event: 'userStatus', data: 'x'.repeat(100_000) }))
    expect((await big.closed).code).toBe(1009)
    expect(await health(server)).toBe(200)
    h.deps.hub.publish(rooms.company(h.a.id), liveChannel(h.a.id, 'settings'), ticketMarker)
    await other.next((f) => f.event === `company-${h.a.id}-settings`)
    other.ws.close()
  })

  test('a throw inside a handler is logged; the server and the socket carry on', async () => {
    const h = await createHarness()
    const { log, errors } = recordingLog()
    const tickets = ticketAccessProbe((id) => {
      if (id === 13) throw new Error('access check failed')
      return true
    })
    server = listenLive(h, {
      log,
      ticketAccess: tickets.access,
      roomsOfUser: (userId) => {
        if (userId === h.b.attendantId) throw new Error('rooms lookup failed')
        return [rooms.company(h.a.id)]
      },
    })
    const agent = connectLive(server, await h.login(h.a.attendant))
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')

    agent.ws.send(frame('joinChatBox', 13))
    agent.ws.send(frame('joinChatBox', 7))
    await tickets.askedAbout(7)
    expect(errors).toEqual([
      { msg: 'live socket handler failed', fields: expect.objectContaining({ handler: 'message' }) },
    ])

    // A socket that fails to join its rooms is closed (so its client retries) instead of left silent.
    const broken = connectLive(server, await h.login(h.b.attendant))
    expect((await broken.closed).code).toBe(1011)
    expect(errors.map((e) => e.fields?.handler)).toEqual(['message', 'open'])
    expect(h.deps.hub.socketsOf(h.b.attendantId)).toBe(0)

    h.deps.hub.publish(rooms.ticket(h.a.id, 7), liveChannel(h.a.id, 'settings'), ticketMarker)
    await agent.next((f) => f.event === `company-${h.a.id}-settings`)
    expect(await health(server)).toBe(200)
    agent.ws.close()
  })
})

describe('per-socket limits', () => {
  test('userStatus writes the online flag only when it changes', async () => {
    const h = await createHarness()
    const tickets = ticketAccessProbe(() => false)
    server = listenLive(h, { ticketAccess: tickets.access })
    const agent = connectLive(server, await h.login(h.a.attendant))
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')

    const before = rowsWritten(h)
    for (let i = 0; i < 5; i++) agent.ws.send(frame('userStatus'))
    // Frames of one socket are handled in order: once the join is seen, the five statuses were handled.
    agent.ws.send(frame('joinChatBox', 1))
    await tickets.askedAbout(1)
    expect(rowsWritten(h) - before).toBe(0)

    // The flag went stale (say, a crash left it off): the next userStatus writes it once and tells the company.
    h.db.update(users).set({ online: false }).where(eq(users.id, h.a.attendantId)).run()
    const stale = rowsWritten(h)
    agent.ws.send(frame('userStatus'))
    agent.ws.send(frame('userStatus'))
    agent.ws.send(frame('joinChatBox', 2))
    await tickets.askedAbout(2)
    expect(rowsWritten(h) - stale).toBe(1)
    const update = await agent.next(
      (f) =>
        f.event === `company-${h.a.id}-user` &&
        (f.data as { user?: { online: boolean } }).user?.online === true,
    )
    expect(update.data).toMatchObject({ action: 'update', user: { id: h.a.attendantId, online: true } })
    agent.ws.close()
  })

  test('a flood of 20,000 userStatus frames writes nothing and is closed for policy violation', async () => {
    const h = await createHarness()
    server = listenLive(h)
    const agent = connectLive(server, await h.login(h.a.attendant))
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')
    const before = rowsWritten(h)

    const status = frame('userStatus')
    for (let i = 0; i < 20_000; i++) agent.ws.send(status)
    expect(await agent.closed).toEqual({ code: 1008, reason: 'too many frames' })
    await until(() => h.deps.hub.size === 0, 'left')
    // The one write is the user going offline as their last socket closed.
    expect(rowsWritten(h) - before).toBe(1)
    const row = h.db.select().from(users).where(eq(users.id, h.a.attendantId)).get()
    expect(row?.online).toBe(false)
    expect(await health(server)).toBe(200)
  })
})
