/**
 * Issue 20, defect 9: the watchdog trusts pongs. A deaf socket (the server answers its pings but delivers nothing:
 * phone flag `deaf`) must be recycled by the session's watchdog, on Balcão's clock, so that the new login gets what
 * WhatsApp queued meanwhile. Before the fix every frame, pongs included, counted as life: the deaf socket lived
 * forever and the customer's message waited on the server.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { SERVER_ACK_TIMEOUT_MS } from '../../../src/server/channels/baileys/messaging'
import { DEFAULT_WATCHDOG_MS } from '../../../src/server/channels/baileys/session'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { messageRow, untilValue } from './conversation'
import { newCustomer, rowsByWid, settle } from './inbound'

let simulator: ScenarioSimulator
let balcao: Balcao | undefined

beforeAll(async () => {
  simulator = await startScenarioSimulator()
})
afterEach(async () => {
  await balcao?.stop()
  balcao = undefined
})
afterAll(() => simulator.stop())

/** Resolves on the next keep-alive ping the simulator answers (its own handler still answers it). */
function pongs(scenario: ScenarioSimulator) {
  const { iq } = scenario.running.sim
  const answer = iq.find({ tag: 'iq', attrs: { xmlns: 'w:p', type: 'get' } })
  if (!answer) throw new Error('the simulator answers no ping')
  let waiters: (() => void)[] = []
  let answered = 0
  iq.on('w:p', 'get', async (context) => {
    const result = await answer(context)
    answered++
    for (const waiter of waiters.splice(0)) waiter()
    return result
  })
  return {
    next: () => new Promise<void>((resolve) => waiters.push(resolve)),
    get answered() {
      return answered
    },
    restore: () => {
      waiters = []
      iq.on('w:p', 'get', answer)
    },
  }
}

test('a deaf socket that answers pings is recycled by the watchdog; the new login gets the queued message, stored once', async () => {
  const b = await startBalcao(simulator, { keepAliveIntervalMs: 50 })
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  const id = await b.link(number)
  const ana = await newCustomer(simulator, '5511988880951', number)
  const hello = await ana.text('oi')
  expect(await settle(b, () => rowsByWid(b, [hello]).length === 1)).toBe(true)

  await simulator.control(`/control/phones/${number}/flags`, { deaf: true })
  const waiting = await ana.text('alguém aí?')
  const phone = await simulator.control<{ queued: number }>(`/control/phones/${number}`)
  expect(phone.queued).toBe(1)
  expect(rowsByWid(b, [waiting])).toHaveLength(0)

  // Time passes on Balcão's clock while the deaf socket keeps answering Baileys's real pings: one minute per pong.
  const socketsBefore = b.sockets.length
  const ping = pongs(simulator)
  try {
    for (let minute = 0; minute <= DEFAULT_WATCHDOG_MS / 60_000 + 5; minute++) {
      await ping.next()
      await b.clock.tick(60_000)
      if (b.sockets.length > socketsBefore) break
    }
  } finally {
    ping.restore()
  }
  expect(ping.answered).toBeGreaterThan(DEFAULT_WATCHDOG_MS / 60_000 - 1)
  expect(b.sockets.length).toBe(socketsBefore + 1)

  await b.connected(id)
  // Baileys (chats.js, AwaitingInitialSync) holds a login's events up to 20 s (real time) waiting for a history
  // sync notification while creds.accountSyncCounter is 0, which the simulator does not send yet.
  expect(await settle(b, () => rowsByWid(b, [waiting]).length > 0, 25_000)).toBe(true)
  const after = await simulator.control<{ queued: number; flags: { deaf: boolean } }>(
    `/control/phones/${number}`,
  )
  expect(after.queued).toBe(0)
  expect(after.flags.deaf).toBe(false)
  // stored once, on the same ticket as the first message
  const rows = rowsByWid(b, [hello, waiting])
  expect(rows.map((row) => row.wid)).toEqual([hello, waiting])
  expect(rows[1]!.body).toBe('alguém aí?')
  expect(rows[1]!.ticketId).toBe(rows[0]!.ticketId)
}, 45_000)

test('a reply that gets no server ack on a deaf socket recycles it at once; its delivery receipt comes on the new login', async () => {
  const b = await startBalcao(simulator)
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  const id = await b.link(number)
  await b.h.deps.jobs.start(['outbound'])
  const bia = await newCustomer(simulator, '5511988880952', number, 'Bia')
  // the server's ack of Baileys's receipt for `hello` is the last delivery before the phone goes deaf: a late one
  // would (rightly) tell the session the socket still hears
  // (the phone's history after the link is acked too: wait for the one of `hello`)
  const acked = new Set<string>()
  let ackedNow: (() => void) | undefined
  b.sockets.at(-1)!.ws.on('CB:ack,class:receipt', (node: { attrs: { id: string } }) => {
    acked.add(node.attrs.id)
    ackedNow?.()
  })
  const hello = await bia.text('oi')
  const ticketId = await untilValue(b, () => rowsByWid(b, [hello])[0]?.ticketId, 'the first message stored')
  await new Promise<void>((resolve) => {
    ackedNow = () => acked.has(hello) && resolve()
    ackedNow()
  })
  expect((await b.admin.put(`/tickets/${ticketId}`, { status: 'open' })).status).toBe(200)

  await simulator.control(`/control/phones/${number}/flags`, { deaf: true })
  const res = await b.admin.post(`/messages/${ticketId}`, { body: 'Já vou ver' })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const messageId = (res.body as { message: { id: number } }).message.id
  // WhatsApp took the reply and the customer got it; only the deaf socket hears nothing back (no ack, no receipt)
  const customer = simulator.running.customers.find(bia.number)!.customer
  expect(await settle(b, () => customer.received().some((entry) => entry.text === 'Já vou ver'))).toBe(true)
  const socketsBefore = b.sockets.length

  await b.clock.tick(SERVER_ACK_TIMEOUT_MS)
  expect(await settle(b, () => b.sockets.length > socketsBefore)).toBe(true)
  await b.connected(id)
  // the customer's delivery receipt waited on the server: the new login brings it (Baileys may hold it 20 s, as above)
  expect(
    await untilValue(b, () => (messageRow(b, messageId).ack >= 2 ? true : undefined), 'ack 2', 25_000),
  ).toBe(true)
  expect(b.sockets.length).toBe(socketsBefore + 1)
}, 45_000)
