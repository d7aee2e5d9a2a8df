import { afterEach, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import type { LiveFrame } from '../../shared/api'
import { createHarness, type Harness } from '../test/harness'
import { liveSocketHandler, type SocketData } from './socket'

/** A real Bun server on 127.0.0.1 around the harness app, so sockets speak the real protocol. */
function listen(h: Harness) {
  const server = Bun.serve<SocketData>({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req, srv) => h.app.fetch(req, { server: srv }),
    websocket: liveSocketHandler(h.deps),
  })
  h.deps.hub.attach(server)
  return server
}

function connect(server: Server<SocketData>, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/ws?token=${token}`)
  const frames: LiveFrame[] = []
  ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)))
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve()
    ws.onerror = () => reject(new Error('socket refused'))
  })
  return { ws, frames, opened }
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await Bun.sleep(5)
  if (!check()) throw new Error(`timed out waiting for ${what}`)
}

let server: Server<SocketData> | undefined
afterEach(() => {
  server?.stop(true)
  server = undefined
})

describe('live hub over /api/ws', () => {
  test('a socket receives its company user updates and nothing of another company', async () => {
    const h = await createHarness()
    server = listen(h)
    const alpha = connect(server, await h.login(h.a.attendant))
    const beta = connect(server, await h.login(h.b.attendant))
    await Promise.all([alpha.opened, beta.opened])
    await until(() => h.deps.hub.size === 2, 'both sockets joined')

    const admin = await h.as(h.a.admin)
    const res = await admin.put(`/users/${h.a.attendantId}`, { name: 'Renamed Live' })
    expect(res.status).toBe(200)
    const renamed = () =>
      alpha.frames.find(
        (f) =>
          f.event === `company-${h.a.id}-user` &&
          (f.data as { user?: { name: string } }).user?.name === 'Renamed Live',
      )
    await until(() => !!renamed(), 'the user event')
    const update = renamed()
    expect(update?.data).toMatchObject({
      action: 'update',
      user: { id: h.a.attendantId, name: 'Renamed Live' },
    })
    // Give a stray frame time to arrive before asserting that none did.
    await Bun.sleep(50)
    expect(beta.frames.filter((f) => f.event.startsWith(`company-${h.a.id}-`))).toEqual([])
    alpha.ws.close()
    beta.ws.close()
  })

  test('a missing or bad token is refused', async () => {
    const h = await createHarness()
    server = listen(h)
    expect((await fetch(`http://127.0.0.1:${server.port}/api/ws`)).status).toBe(401)
    const bad = connect(server, 'not-a-token')
    await expect(bad.opened).rejects.toThrow()
  })

  test('the admins room and queue rooms follow the user; joinChatBox needs access', async () => {
    const h = await createHarness()
    server = listen(h)
    const queue = h.makeQueue(h.a.id)
    const agent = connect(server, await h.login(h.a.attendant))
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')
    h.deps.hub.publish(`company:${h.a.id}:admins`, 'admins-only', {})
    h.deps.hub.publish(`company:${h.a.id}:queue:${queue.id}`, 'queue-event', {})
    // Being given the queue moves the open socket into its room at once.
    const admin = await h.as(h.a.admin)
    await admin.put(`/users/${h.a.attendantId}`, { queueIds: [queue.id] })
    h.deps.hub.publish(`company:${h.a.id}:queue:${queue.id}`, 'queue-event-2', {})
    agent.ws.send(JSON.stringify({ event: 'joinChatBox', data: 42 }))
    await Bun.sleep(20)
    h.deps.hub.publish(`company:${h.a.id}:ticket:42`, 'ticket-event', {})
    await until(() => agent.frames.some((f) => f.event === 'queue-event-2'), 'queue event after joining')
    await Bun.sleep(30)
    const names = agent.frames.map((f) => f.event)
    expect(names).not.toContain('admins-only')
    expect(names).not.toContain('queue-event')
    expect(names).not.toContain('ticket-event')
    agent.ws.close()
  })

  test('userStatus marks the user online; closing the last socket marks them offline', async () => {
    const h = await createHarness()
    server = listen(h)
    const agent = connect(server, await h.login(h.a.attendant))
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
    server = listen(h)
    const token = await h.login(h.a.attendant)
    const agent = connect(server, token)
    await agent.opened
    await until(() => h.deps.hub.size === 1, 'joined')
    let closed = 0
    agent.ws.onclose = (e) => {
      closed = e.code
    }
    await h.call('DELETE', '/auth/logout', { token })
    await until(() => closed !== 0, 'close')
    expect(closed).toBe(4001)
  })
})
