/**
 * Issue 20, defect 1: linking a number. WhatsApp sends `companion_reg_refresh` when the phone scans the first
 * QR; the companion must rotate its advertised secret and show a new QR, which the phone then scans. A failed
 * pairing-code attempt leaves the connection unpaired (a fresh QR), and an account that requires a passkey
 * never links: the connection says why.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'

let simulator: ScenarioSimulator
const running: Balcao[] = []
const balcao = async (options: Parameters<typeof startBalcao>[1] = {}) => {
  const started = await startBalcao(simulator, options)
  running.push(started)
  return started
}

beforeAll(async () => {
  simulator = await startScenarioSimulator()
})
afterEach(async () => {
  for (const b of running.splice(0)) await b.stop()
})
afterAll(() => simulator.stop())

test('the phone scans the QR, WhatsApp refreshes the registration, the phone scans the new QR: CONNECTED', async () => {
  const b = await balcao({ qrTimeout: 2_000 })
  const number = await simulator.newPhone()
  const id = await b.addConnection()
  const first = await b.qr(id)

  expect(await simulator.scan(number, first)).toMatchObject({ linked: false, reason: 'refreshed' })
  const next = await b.qr(id, first)
  expect(await simulator.scan(number, next)).toMatchObject({
    linked: true,
    jid: `${number}:1@s.whatsapp.net`,
  })

  const connected = await b.connected(id)
  expect(connected.number).toBe(number)
  // the phone shows one linked device, online
  const phone = await simulator.control<{ companions: { online: boolean }[] }>(`/control/phones/${number}`)
  expect(phone.companions).toEqual([expect.objectContaining({ online: true })])
})

test('a pairing code the phone fails to confirm leaves the connection unpaired, with a fresh QR', async () => {
  const b = await balcao()
  const number = await simulator.newPhone()
  const id = await b.addConnection()
  await b.qr(id)
  const asked = await b.admin.post(`/whatsappsession/${id}`, { phone: number })
  expect(asked.status).toBe(200)
  const pairing = await b.until(id, (c) => c.status === 'PAIRING' && !!c.pairingCode, 'a pairing code')
  expect(pairing.pairingCode).toHaveLength(8)
  const wrong = pairing.pairingCode === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA'
  expect(await simulator.control(`/control/phones/${number}/link-code`, { code: wrong })).toMatchObject({
    linked: false,
    reason: 'wrong-code',
  })

  // The admin gives up on the code and asks for a QR instead.
  const retried = await b.admin.post(`/whatsappsession/${id}`)
  expect(retried.status).toBe(200)
  const after = await b.until(
    id,
    (c) => (c.status === 'qrcode' && !!c.qrcode) || c.status === 'DISCONNECTED' || c.status === 'TIMEOUT',
    'a QR or a stop',
  )
  expect({ status: after.status, statusReason: after.statusReason }).toEqual({
    status: 'qrcode',
    statusReason: null,
  })
})

test('an account that requires a passkey never links: the connection says the phone did not confirm', async () => {
  const b = await balcao({ qrTimeout: 300 })
  const number = await simulator.newPhone()
  const id = await b.addConnection()
  const first = await b.qr(id)
  expect(await simulator.scan(number, first)).toMatchObject({ linked: false, reason: 'refreshed' })
  // The phone then asks for the account's passkey, which nobody gives: it refuses to link.
  await simulator.control(`/control/phones/${number}/flags`, { passkeyRequired: true })
  const next = await b.qr(id, first)
  expect(await simulator.scan(number, next)).toMatchObject({ linked: false, reason: 'passkey-required' })

  const stopped = await b.until(
    id,
    (c) => c.status === 'TIMEOUT' || c.status === 'CONNECTED',
    'the QRs to run out',
  )
  expect({ status: stopped.status, statusReason: stopped.statusReason }).toEqual({
    status: 'TIMEOUT',
    statusReason: 'link_unconfirmed',
  })
})

test('nobody scans: the QRs run out with qr_timeout', async () => {
  const b = await balcao({ qrTimeout: 150, maxQrSockets: 1 })
  const id = await b.addConnection()
  const stopped = await b.until(id, (c) => c.status === 'TIMEOUT', 'the QRs to run out')
  expect(stopped.statusReason).toBe('qr_timeout')
})
