/**
 * Test helpers over a running simulator: the control API, real Baileys clients that are ended
 * after each test, phones, and a QR pairing + login in one call.
 */
import { expect } from 'bun:test'
import type { UserFacingSocketConfig } from '@whiskeysockets/baileys'
import {
  connectBaileys,
  firstQr,
  type MemoryAuth,
  memoryAuth,
  type TestClient,
  within,
} from './baileys-client'
import type { RunningSimulator } from './start'

export type LinkOutcome = { linked: boolean; reason?: string; jid?: string; lid?: string; device?: number }

let phoneCounter = 0

export const makeHarness = (simulator: () => RunningSimulator) => {
  const clients: TestClient[] = []

  const control = async <T = Record<string, unknown>>(
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: T }> => {
    const response = await fetch(`${simulator().url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, json: (await response.json()) as T }
  }

  const client = (auth?: MemoryAuth, config?: Partial<UserFacingSocketConfig>): TestClient => {
    const created = connectBaileys(simulator().wsUrl, auth, config)
    clients.push(created)
    return created
  }

  /** A fresh simulated company phone (numbers unique per process). */
  const newPhone = async (flags: Record<string, boolean> = {}): Promise<string> => {
    const number = `55219888${String(process.pid % 10)}${String(++phoneCounter).padStart(4, '0')}`
    const { status } = await control('/control/phones', { number, ...flags })
    expect(status).toBe(200)
    return number
  }

  /** QR-pairs a fresh companion (the phone's refresh flag must be off), then logs it in. */
  const pairAndLogin = async (
    number: string,
    config?: Partial<UserFacingSocketConfig>,
  ): Promise<TestClient> => {
    const auth = memoryAuth()
    const pairing = client(auth, config)
    const qr = await within(firstQr(pairing), 5_000, 'QR')
    const { json } = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr })
    expect(json.linked).toBe(true)
    expect((await within(pairing.closed, 5_000, 'restart')).statusCode).toBe(515)
    const loggedIn = client(auth, config)
    await within(loggedIn.opened, 5_000, 'open')
    return loggedIn
  }

  const endClients = () => {
    for (const created of clients.splice(0)) created.sock.end(undefined)
  }

  return { control, client, newPhone, pairAndLogin, endClients }
}
