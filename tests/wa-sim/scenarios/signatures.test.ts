/**
 * Baileys rc14 never checks a signature (`Curve.verify` ignores libsignal's verdict): a server whose certificate
 * chain carries WhatsApp's serial but is signed by some other key was accepted. The provider puts the check back
 * (src/server/channels/baileys/signatures.ts). Here the process pins a root key the simulator does not hold, with
 * the simulator's serial: the handshake must fail, so no QR code is ever shown.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Curve } from '@whiskeysockets/baileys'
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys/lib/Defaults/index.js'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'

let simulator: ScenarioSimulator
let balcao: Balcao | undefined
let pinned: typeof WA_CERT_DETAILS.PUBLIC_KEY

beforeAll(async () => {
  simulator = await startScenarioSimulator()
  pinned = WA_CERT_DETAILS.PUBLIC_KEY
})
afterAll(async () => {
  WA_CERT_DETAILS.PUBLIC_KEY = pinned
  await balcao?.stop()
  await simulator.stop()
})

test('a server whose certificates the pinned key did not sign is refused, serial or not', async () => {
  // The serial stays the simulator's: only the signatures can tell this server is not the pinned one.
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(Curve.generateKeyPair().public)
  balcao = await startBalcao(simulator)
  const id = await balcao.addConnection()

  const refused = await balcao.until(id, (c) => c.retries >= 1, 'the handshake refused and a retry scheduled')
  expect(refused.status).not.toBe('qrcode')
  expect(refused.qrcode).toBeFalsy()
}, 20_000)
