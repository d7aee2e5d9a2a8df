import { afterEach, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import type { LiveFrame } from '../../../shared/live'
import { fullRoom, rooms } from '../../realtime/rooms'
import type { SocketData } from '../../realtime/socket'
import { createHarness } from '../../test/harness'
import { connectLive, listenLive, until } from '../../test/live'
import { roomsOfUser } from '../users/service'
import { setTricked } from './testing'

let server: Server<SocketData> | undefined
afterEach(() => {
  server?.stop(true)
  server = undefined
})

type ContactFrame = { action: string; contact?: { name: string; number: string } }
const contactNamed = (companyId: number, name: string) => (f: LiveFrame) =>
  f.event === `company-${companyId}-contact` && (f.data as ContactFrame).contact?.name === name

describe('masked live rooms', () => {
  test("an isTricked user's socket receives the full number, another user's the masked one", async () => {
    const h = await createHarness()
    setTricked(h, h.a.attendantId, 'disabled')
    setTricked(h, h.a.adminId, 'enabled')
    server = listenLive(h)
    const masked = connectLive(server, await h.login(h.a.attendant))
    const full = connectLive(server, await h.login(h.a.admin))
    await Promise.all([masked.opened, full.opened])
    await until(() => h.deps.hub.size === 2, 'both joined')
    const agent = await h.as(h.a.attendant)
    expect((await agent.post('/contacts', { name: 'Ao vivo', number: '5511987654321' })).status).toBe(201)
    const [seenMasked, seenFull] = await Promise.all([
      masked.next(contactNamed(h.a.id, 'Ao vivo')),
      full.next(contactNamed(h.a.id, 'Ao vivo')),
    ])
    expect((seenMasked.data as ContactFrame).contact?.number).toBe('551198765****')
    expect((seenFull.data as ContactFrame).contact?.number).toBe('5511987654321')
    // Each socket got one flavour only: no second frame for the same contact.
    await agent.post('/contacts', { name: 'Barreira', number: '5511900000000' })
    await Promise.all([
      masked.next(contactNamed(h.a.id, 'Barreira')),
      full.next(contactNamed(h.a.id, 'Barreira')),
    ])
    expect(masked.frames.filter(contactNamed(h.a.id, 'Ao vivo'))).toHaveLength(1)
    expect(full.frames.filter(contactNamed(h.a.id, 'Ao vivo'))).toHaveLength(1)
    masked.ws.close()
    full.ws.close()
  })

  test('changing isTricked moves the open socket to the other flavour at once', async () => {
    const h = await createHarness()
    setTricked(h, h.a.attendantId, 'disabled')
    server = listenLive(h)
    const socket = connectLive(server, await h.login(h.a.attendant))
    await socket.opened
    await until(() => h.deps.hub.size === 1, 'joined')
    const admin = await h.as(h.a.admin)
    expect((await admin.put(`/users/${h.a.attendantId}`, { isTricked: 'enabled' })).status).toBe(200)
    await admin.post('/contacts', { name: 'Depois', number: '5511987654321' })
    const frame = await socket.next(contactNamed(h.a.id, 'Depois'))
    expect((frame.data as ContactFrame).contact?.number).toBe('5511987654321')
    socket.ws.close()
  })

  test('roomsOfUser gives the #full flavour of every room to isTricked users only', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, queue.id)
    setTricked(h, h.a.attendantId, 'disabled')
    expect(roomsOfUser(h.deps.db, h.a.attendantId).sort()).toEqual(
      [
        rooms.company(h.a.id),
        rooms.user(h.a.id, h.a.attendantId),
        rooms.queue(h.a.id, queue.id),
        rooms.everyone,
      ].sort(),
    )
    setTricked(h, h.a.attendantId, 'enabled')
    expect(roomsOfUser(h.deps.db, h.a.attendantId).sort()).toEqual(
      [
        rooms.company(h.a.id),
        rooms.user(h.a.id, h.a.attendantId),
        rooms.queue(h.a.id, queue.id),
        rooms.everyone,
      ]
        .map(fullRoom)
        .sort(),
    )
  })

  test('a ticket room joined later follows the socket flavour', async () => {
    const h = await createHarness()
    const subscribed: string[] = []
    const socket = { send() {}, subscribe: (r: string) => subscribed.push(r), unsubscribe() {}, close() {} }
    h.deps.hub.join(socket, { companyId: h.a.id, userId: h.a.adminId, sessionId: 's' }, [
      fullRoom(rooms.company(h.a.id)),
    ])
    h.deps.hub.addRoom(socket, rooms.ticket(h.a.id, 7))
    expect(subscribed).toEqual([fullRoom(rooms.company(h.a.id)), fullRoom(rooms.ticket(h.a.id, 7))])
    const other = { send() {}, subscribe: (r: string) => subscribed.push(r), unsubscribe() {}, close() {} }
    h.deps.hub.join(other, { companyId: h.a.id, userId: h.a.attendantId, sessionId: 't' }, [
      rooms.company(h.a.id),
    ])
    h.deps.hub.addRoom(other, rooms.ticket(h.a.id, 7))
    expect(subscribed.slice(2)).toEqual([rooms.company(h.a.id), rooms.ticket(h.a.id, 7)])
  })
})
