/**
 * The phone's history sync after a link, with the real Baileys socket (its default history settings, as
 * Balcão runs it): Baileys leaves `AwaitingInitialSync` on the phone's INITIAL_BOOTSTRAP instead of buffering
 * for 20 s, so a burst queued before the first login reaches `messages.upsert` at once, and
 * `messaging-history.set` carries the customers and their LID/phone pairs. Phone flag `history: false` keeps
 * the old behaviour (nothing sent, the burst held in Baileys's buffer).
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { type BaileysEventMap, proto, type UserFacingSocketConfig } from '@whiskeysockets/baileys'
import { installSimulatorFetch, parseWaSimulatorUrl } from '../../src/server/channels/baileys/simulator'
import { firstQr, memoryAuth, type TestClient, within } from './baileys-client'
import { type LinkOutcome, makeHarness } from './harness'
import { type RunningSimulator, startSimulator } from './start'
import { distrustSimulator, trustSimulator } from './trust'

let simulator: RunningSimulator
const { control, client, newPhone, endClients } = makeHarness(() => simulator)

let restoreFetch: () => void = () => {}
beforeAll(async () => {
  simulator = await startSimulator()
  trustSimulator(simulator.root)
  // As `serve --wa-simulator` does: Baileys downloads the history blob from the simulator's media host.
  restoreFetch = installSimulatorFetch(parseWaSimulatorUrl(simulator.wsUrl))
})
afterEach(endClients)
afterAll(async () => {
  restoreFetch()
  distrustSimulator()
  await simulator.stop()
})

/** Baileys's own default: every history kind but FULL (Balcão does not override it). */
const withHistory: Partial<UserFacingSocketConfig> = {
  shouldSyncHistoryMessage: (notification) =>
    notification.syncType !== proto.HistorySync.HistorySyncType.FULL,
}

type Seen =
  | { event: 'history'; at: number; data: BaileysEventMap['messaging-history.set'] }
  | { event: 'upsert'; at: number; ids: string[] }

/**
 * Links a fresh companion by QR; `beforeLogin` runs between the link's restart (515) and the first login, so
 * what it sends waits in the phone's queue and arrives as the offline burst of that login.
 */
const linkWithBurst = async (number: string, beforeLogin: () => Promise<void>) => {
  const auth = memoryAuth()
  const pairing = client(auth, withHistory)
  const { json } = await control<LinkOutcome>(`/control/phones/${number}/scan`, {
    qr: await within(firstQr(pairing), 5_000, 'QR'),
  })
  expect(json.linked).toBe(true)
  expect((await within(pairing.closed, 5_000, 'restart')).statusCode).toBe(515)
  await beforeLogin()
  const startedAt = Date.now()
  const loggedIn: TestClient = client(auth, withHistory)
  const seen: Seen[] = []
  loggedIn.sock.ev.on('messaging-history.set', (data) =>
    seen.push({ event: 'history', at: Date.now(), data }),
  )
  loggedIn.sock.ev.on('messages.upsert', ({ messages }) =>
    seen.push({ event: 'upsert', at: Date.now(), ids: messages.map((m) => m.key.id ?? '') }),
  )
  await within(loggedIn.opened, 5_000, 'open')
  return { loggedIn, seen, startedAt, auth }
}

const until = async (check: () => boolean, ms: number): Promise<boolean> => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) return false
    await Bun.sleep(20)
  }
  return true
}

test('after a link the phone sends its history: messaging-history.set, and the first offline burst without the 20 s wait', async () => {
  const number = await newPhone({ refresh: false })
  const customer = (
    await control<{ number: string; jid: string; lid: string }>('/control/customers', {
      number: '5511977770001',
      name: 'Ana',
    })
  ).json
  let sentId = ''
  const { seen, startedAt } = await linkWithBurst(number, async () => {
    sentId = (
      await control<{ id: string }>(`/control/customers/${customer.number}/send`, { to: number, text: 'oi' })
    ).json.id
  })

  // Both within 10 s of the login (Baileys's own wait is 20 s). Their order is Baileys's race: the app-state
  // sync's flush (Socket/chats.js doAppStateSync) runs alongside the blob's download (processMessage).
  const arrived = () =>
    seen.some((s) => s.event === 'upsert' && s.ids.includes(sentId)) &&
    seen.some((s) => s.event === 'history')
  expect(await until(arrived, 10_000)).toBe(true)
  const upsert = seen.find((s) => s.event === 'upsert' && s.ids.includes(sentId))
  expect(upsert?.at ?? Number.POSITIVE_INFINITY).toBeLessThan(startedAt + 10_000)
  const set = seen.find((s) => s.event === 'history')
  if (set?.event !== 'history') throw new Error('no history')
  expect(set.at).toBeLessThan(startedAt + 10_000)
  // The customer as the phone knows her: by number, with her LID.
  expect(set.data.contacts).toContainEqual(
    expect.objectContaining({ id: customer.jid, name: 'Ana', lid: customer.lid }),
  )
}, 20_000)

test('the history comes once: a reconnect of the same companion gets none', async () => {
  const number = await newPhone({ refresh: false })
  const { seen, auth } = await linkWithBurst(number, async () => {})
  expect(await until(() => seen.some((s) => s.event === 'history'), 10_000)).toBe(true)
  const phone = simulator.sim.requirePhone(number)
  const sentAt = phone.companions.get(1)?.historySentAt
  expect(sentAt).toBeNumber()
  endClients()
  const again = client(auth, withHistory)
  const reseen: string[] = []
  again.sock.ev.on('messaging-history.set', () => reseen.push('history'))
  await within(again.opened, 5_000, 'open again')
  expect(phone.companions.get(1)?.historySentAt).toBe(sentAt)
  // Baileys counted the sync (accountSyncCounter), so this login does not wait for a history either.
  expect(auth.creds.accountSyncCounter).toBeGreaterThan(0)
  expect(reseen).toEqual([])
}, 20_000)

test('phone flag history: false sends none: Baileys keeps the first offline burst in its buffer', async () => {
  const number = await newPhone({ refresh: false, history: false })
  let sentId = ''
  const { seen } = await linkWithBurst(number, async () => {
    await control('/control/customers', { number: '5511977770002', name: 'Bruno' })
    sentId = (
      await control<{ id: string }>('/control/customers/5511977770002/send', { to: number, text: 'olá' })
    ).json.id
  })
  expect(sentId).not.toBe('')
  // Baileys holds it up to 20 s (AwaitingInitialSync); two seconds show it is held, not delivered.
  expect(await until(() => seen.length > 0, 2_000)).toBe(false)
}, 20_000)
