/**
 * Issue 20, defect 11: credentials saved late. A server killed (no graceful stop) right after the phone linked
 * must find the link in its database: a restarted Balcão logs in with the stored creds, without a new QR.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { createSqliteAuthState } from '../../../src/server/channels/baileys/auth-store'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'

let simulator: ScenarioSimulator
const running: Balcao[] = []
const files: string[] = []

beforeAll(async () => {
  simulator = await startScenarioSimulator()
})
afterEach(async () => {
  for (const b of running.splice(0)) await b.stop()
  for (const file of files.splice(0))
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
})
afterAll(() => simulator.stop())

const balcao = async (database?: string) => {
  const b = await startBalcao(simulator, database ? { database } : {})
  running.push(b)
  return b
}

test('killed right after pair-success and the restart (515): the restarted server logs in without a QR', async () => {
  const first = await balcao()
  const number = await simulator.newPhone({ refresh: false })
  const id = await first.addConnection()
  const qr = await first.qr(id)
  expect(await simulator.scan(number, qr)).toMatchObject({ linked: true })
  const snapshot = first.kill()
  files.push(snapshot)

  const second = await balcao(snapshot)
  await second.h.deps.channels.startAll(0)
  const after = await second.until(
    id,
    (c) => c.status === 'CONNECTED' || c.status === 'qrcode' || c.status === 'DISCONNECTED',
    'CONNECTED, a QR or a stop',
  )
  expect({ status: after.status, statusReason: after.statusReason }).toEqual({
    status: 'CONNECTED',
    statusReason: null,
  })
  expect(after.number).toBe(number)
  const phone = await simulator.control<{ companions: unknown[] }>(`/control/phones/${number}`)
  expect(phone.companions).toHaveLength(1)
})

test('creds WhatsApp changes while inbound work is slow are on disk at once, not behind that work', async () => {
  const first = await balcao()
  const number = await simulator.newPhone({ refresh: false })
  const id = await first.link(number)

  // Slow inbound work (a stand-in for a slow disk or media download): a sink that holds every ack it is given.
  const release = Promise.withResolvers<void>()
  const holding = Promise.withResolvers<void>()
  first.h.deps.channels.onEvent(async (_connection, event) => {
    if (event.t !== 'ack') return
    holding.resolve()
    await release.promise
  })
  const t = String(Math.floor(Date.now() / 1000))
  const receipt: BinaryNode = {
    tag: 'receipt',
    attrs: { from: '5511955550000@s.whatsapp.net', id: 'OLD-SEND-1', t },
  }
  simulator.running.sim.sendToCompanion(number, receipt)
  await holding.promise

  // WhatsApp moves the companion to another edge: Baileys updates creds.routingInfo (creds.update).
  const sock = first.sockets.at(-1)!
  const routed = new Promise<void>((resolve) => sock.ws.on('CB:ib,,edge_routing', () => resolve()))
  const routingInfo = Buffer.from([8, 3, 8, 13])
  simulator.running.sim.sendToCompanion(number, {
    tag: 'ib',
    attrs: { from: 's.whatsapp.net' },
    content: [
      { tag: 'edge_routing', attrs: {}, content: [{ tag: 'routing_info', attrs: {}, content: routingInfo }] },
    ],
  })
  await routed
  expect(Buffer.from(sock.authState.creds.routingInfo ?? [])).toEqual(routingInfo)

  const snapshot = first.kill()
  files.push(snapshot)
  release.resolve()

  const second = await balcao(snapshot)
  const stored = await createSqliteAuthState(
    { db: second.h.db, sqlite: second.h.deps.sqlite, clock: second.clock },
    id,
  )
  expect(Buffer.from(stored.state.creds.routingInfo ?? [])).toEqual(routingInfo)
  await second.h.deps.channels.startAll(0)
  expect(await second.connected(id)).toMatchObject({ status: 'CONNECTED', number })
})
