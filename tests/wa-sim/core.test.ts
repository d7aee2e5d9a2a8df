import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { connectBaileys, firstQr, memoryAuth, type TestClient, within } from './baileys-client'
import { type RunningSimulator, startSimulator } from './start'
import { distrustSimulator, trustSimulator } from './trust'

let simulator: RunningSimulator
const clients: TestClient[] = []
const client = (...args: Parameters<typeof connectBaileys>): TestClient => {
  const created = connectBaileys(...args)
  clients.push(created)
  return created
}

const control = async <T = Record<string, unknown>>(path: string, body?: unknown): Promise<{ status: number; json: T }> => {
  const response = await fetch(`${simulator.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as T }
}

beforeAll(async () => {
  simulator = await startSimulator()
})
afterEach(() => {
  for (const created of clients.splice(0)) created.sock.end(undefined)
})
afterAll(async () => {
  distrustSimulator()
  await simulator.stop()
})

describe('transport', () => {
  test('GET /control/root answers the root public key and serial', async () => {
    const { status, json } = await control<{ publicKey: string; serial: number }>('/control/root')
    expect(status).toBe(200)
    expect(Buffer.from(json.publicKey, 'base64')).toHaveLength(32)
    expect(json.serial).toBe(simulator.root.serial)
  })

  test('Baileys refuses the handshake unless the process trusts the simulator', async () => {
    distrustSimulator()
    const untrusted = client(simulator.wsUrl)
    const closed = await within(untrusted.closed, 5_000, 'untrusted close')
    // Baileys's Curve.verify never fails (see signatures.ts): the pinned serial is what refuses us.
    expect(closed.message).toBe('certification match failed')
    expect(untrusted.qrs).toHaveLength(0)

    trustSimulator((await control<{ publicKey: string; serial: number }>('/control/root')).json)
    const trusted = client(simulator.wsUrl)
    // A registration gets pair-device refs: Baileys turns the first into a QR.
    const qr = await within(firstQr(trusted), 5_000, 'first QR')
    expect(qr).toStartWith('https://wa.me/settings/linked_devices#')
  })
})
