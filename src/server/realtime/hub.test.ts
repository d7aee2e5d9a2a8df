import { afterEach, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import { type LiveFrame, liveChannel } from '../../shared/live'
import { createHarness } from '../test/harness'
import { connectLive, listenLive, ticketAccessProbe, until } from '../test/live'
import { EventBuffer, Hub } from './hub'
import { rooms } from './rooms'
import type { SocketData } from './socket'

let server: Server<SocketData> | undefined
afterEach(() => {
  server?.stop(true)
  server = undefined
})

/** A settings event marked by its key, to tell frames apart. */
const marker = (key: string) => ({ action: 'update' as const, setting: { key, value: '' } })
const isMarker = (key: string) => (f: LiveFrame) =>
  (f.data as { setting?: { key: string } } | undefined)?.setting?.key === key

describe('live hub over /api/ws', () => {
  test('a socket receives its company user updates and nothing of another company', async () => {
    const h = await createHarness()
    server = listenLive(h)
    const alpha = connectLive(server, await h.login(h.a.attendant))
    const beta = connectLive(server, await h.login(h.b.attendant))
    await Promise.all([alpha.opened, beta.opened])
    await until(() => h.deps.hub.size === 2, 'both sockets joined')

    const admin = await h.as(h.a.admin)
    const res = await admin.put(`/users/${h.a.attendantId}`, { name: 'Renamed Live' })
    expect(res.status).toBe(200)
    const update = await alpha.next(
      (f) =>
        f.event === `company-${h.a.id}-user` &&
        (f.data as { user?: { name: string } }).user?.name === 'Renamed Live',
    )
    expect(update.data).toMatchObject({
      action: 'update',
      user: { id: h.a.attendantId, name: 'Renamed Live' },
    })
    // Frames reach a socket in order: once B's own marker is in, nothing published before it is still coming.
    h.deps.hub.publish(rooms.company(h.b.id), liveChannel(h.b.id, 'settings'), marker('barrier'))
    await beta.next(isMarker('barrier'))
    expect(beta.frames.filter((f) => f.event.startsWith(`company-${h.a.id}-`))).toEqual([])
    alpha.ws.close()
    beta.ws.close()
  })

  test('a missing or bad token is refused', async () => {
    const h = await createHarness()
    server = listenLive(h)
    expect((await fetch(`http://127.0.0.1:${server.port}/api/ws`)).status).toBe(401)
    const bad = connectLive(server, 'not-a-token')
    await expect(bad.opened).rejects.toThrow()
  })

  test('the admins room and queue rooms follow the user; joinChatBox needs access', async () => {
    const h = await createHarness()
    const tickets = ticketAccessProbe((id) => id !== 42)
    server = listenLive(h, { ticketAccess: tickets.access })
    const queue = h.makeQueue(h.a.id)
    const agent = connectLive(server, await h.login(h.a.attendant))
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')
    const event = liveChannel(h.a.id, 'settings')
    h.deps.hub.publish(rooms.admins(h.a.id), event, marker('admins-only'))
    h.deps.hub.publish(rooms.queue(h.a.id, queue.id), event, marker('queue-event'))
    // Being given the queue moves the open socket into its room at once.
    const admin = await h.as(h.a.admin)
    await admin.put(`/users/${h.a.attendantId}`, { queueIds: [queue.id] })
    h.deps.hub.publish(rooms.queue(h.a.id, queue.id), event, marker('queue-event-2'))
    agent.ws.send(JSON.stringify({ event: 'joinChatBox', data: 42 }))
    await tickets.askedAbout(42)
    h.deps.hub.publish(rooms.ticket(h.a.id, 42), event, marker('ticket-event'))
    h.deps.hub.publish(rooms.company(h.a.id), event, marker('barrier'))
    await agent.next(isMarker('barrier'))
    const keys = agent.frames.map((f) => (f.data as { setting?: { key: string } }).setting?.key)
    expect(keys).toContain('queue-event-2')
    expect(keys).not.toContain('admins-only')
    expect(keys).not.toContain('queue-event')
    expect(keys).not.toContain('ticket-event')
    agent.ws.close()
  })

  test('userStatus marks the user online; closing the last socket marks them offline', async () => {
    const h = await createHarness()
    server = listenLive(h)
    const agent = connectLive(server, await h.login(h.a.attendant))
    await agent.opened
    const admin = await h.as(h.a.admin)
    await until(() => h.deps.hub.size === 1, 'joined')
    expect((await admin.get(`/users/${h.a.attendantId}`)).body.online).toBe(true)
    agent.ws.close()
    await until(() => h.deps.hub.size === 0, 'left')
    expect((await admin.get(`/users/${h.a.attendantId}`)).body.online).toBe(false)
  })

  test('signing out closes that session socket', async () => {
    const h = await createHarness()
    server = listenLive(h)
    const token = await h.login(h.a.attendant)
    const agent = connectLive(server, token)
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')
    await h.call('DELETE', '/auth/logout', { token })
    expect((await agent.closed).code).toBe(4001)
  })

  test('a user holds at most 10 live sockets: the eleventh is refused until one closes', async () => {
    const h = await createHarness()
    server = listenLive(h)
    const token = await h.login(h.a.attendant)
    const tabs = Array.from({ length: 10 }, () => connectLive(server!, token))
    await Promise.all(tabs.map((t) => t.opened))
    await until(() => h.deps.hub.socketsOf(h.a.attendantId) === 10, 'ten sockets joined')

    const eleventh = connectLive(server, token)
    await expect(eleventh.opened).rejects.toThrow()
    const refused = await fetch(`http://127.0.0.1:${server.port}/api/ws?token=${token}`)
    expect(refused.status).toBe(429)
    expect(h.deps.hub.socketsOf(h.a.attendantId)).toBe(10)

    // The cap is per user: a colleague still gets in.
    const colleague = connectLive(server, await h.login(h.a.admin))
    await colleague.opened

    tabs[0]!.ws.close()
    await until(() => h.deps.hub.socketsOf(h.a.attendantId) === 9, 'a tab left')
    const again = connectLive(server, token)
    await again.opened
    for (const t of [...tabs, colleague, again]) t.ws.close()
  })

  test('disconnectCompany closes every socket of that company and no other', async () => {
    const h = await createHarness()
    server = listenLive(h)
    const alphaAdmin = connectLive(server, await h.login(h.a.admin))
    const alphaAgent = connectLive(server, await h.login(h.a.attendant))
    const beta = connectLive(server, await h.login(h.b.attendant))
    await Promise.all([alphaAdmin.opened, alphaAgent.opened, beta.opened])
    await until(() => h.deps.hub.size === 3, 'joined')

    h.deps.hub.disconnectCompany(h.a.id, 'company deactivated')
    const [adminClosed, agentClosed] = await Promise.all([alphaAdmin.closed, alphaAgent.closed])
    expect(adminClosed).toEqual({ code: 4003, reason: 'company deactivated' })
    expect(agentClosed.code).toBe(4003)
    await until(() => h.deps.hub.size === 1, 'alpha sockets left')

    h.deps.hub.publish(rooms.company(h.b.id), liveChannel(h.b.id, 'settings'), marker('still-here'))
    await beta.next(isMarker('still-here'))
    expect(beta.ws.readyState).toBe(WebSocket.OPEN)
    beta.ws.close()
  })
})

describe('typed live events', () => {
  test('the event buffer publishes after flush, with the payload its event name fixes', () => {
    const hub = new Hub()
    const seen: unknown[] = []
    hub.tap((e) => seen.push(e))
    const events = new EventBuffer()
    events.publish(rooms.company(1), liveChannel(1, 'queue'), { action: 'delete', queueId: 3 })
    expect(seen).toEqual([])
    events.flush(hub)
    expect(seen).toEqual([
      { room: 'company:1', event: 'company-1-queue', data: { action: 'delete', queueId: 3 } },
    ])
  })

  test('a wrong payload or an unknown event name does not compile', () => {
    // Checked by `tsc`, never run: each line below must stay an error.
    const compileOnly = (hub: Hub, events: EventBuffer) => {
      // @ts-expect-error a queue event carries a queue or a queueId, not a userId
      hub.publish('r', liveChannel(1, 'queue'), { action: 'delete', userId: 3 })
      // @ts-expect-error the action of a settings event is only 'update'
      events.publish('r', liveChannel(1, 'settings'), { action: 'delete', setting: { key: 'k', value: 'v' } })
      // @ts-expect-error no such event in CompanyEvents
      hub.publish('r', 'company-1-nothing', {})
      // @ts-expect-error no such event in CompanyEvents
      liveChannel(1, 'nothing')
      hub.publish('r', `company-${1}-user`, { action: 'delete', userId: 3 })
      hub.publish('r', 'ping', { t: 1 })
    }
    expect(typeof compileOnly).toBe('function')
  })
})
