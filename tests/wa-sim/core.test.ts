import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { firstQr, memoryAuth, type TestClient, within } from './baileys-client'
import { type LinkOutcome, makeHarness } from './harness'
import { type RunningSimulator, startSimulator } from './start'
import { distrustSimulator, trustSimulator } from './trust'

let simulator: RunningSimulator
const harness = makeHarness(() => simulator)
const { control, newPhone, pairAndLogin } = harness
const { client } = harness

beforeAll(async () => {
  simulator = await startSimulator()
  trustSimulator(simulator.root)
})
afterEach(harness.endClients)
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
    const untrusted = client()
    const closed = await within(untrusted.closed, 5_000, 'untrusted close')
    // Baileys's Curve.verify never fails (see signatures.ts): the pinned serial is what refuses us.
    expect(closed.message).toBe('certification match failed')
    expect(untrusted.qrs).toHaveLength(0)

    trustSimulator((await control<{ publicKey: string; serial: number }>('/control/root')).json)
    const trusted = client()
    // A registration gets pair-device refs: Baileys turns the first into a QR.
    const qr = await within(firstQr(trusted), 5_000, 'first QR')
    expect(qr).toStartWith('https://wa.me/settings/linked_devices#')
  })
})

type PhoneState = {
  companions: { jid: string; online: boolean; preKeys: number; registrationId: number }[]
  lid: string
}
/** Resolves after the simulator answered `count` iqs of that kind (the original handler keeps answering). */
const observeIq = (xmlns: string, type: string, child?: string, count = 1): Promise<void> => {
  const original = simulator.sim.iq.find({
    tag: 'iq',
    attrs: { xmlns, type },
    content: child ? [{ tag: child, attrs: {} }] : undefined,
  })
  let seen = 0
  return new Promise<void>((resolve) => {
    simulator.sim.iq.on(
      xmlns,
      type,
      async (context) => {
        const answer = await original?.(context)
        if (++seen === count) {
          if (original) simulator.sim.iq.on(xmlns, type, original, child)
          resolve()
        }
        return answer
      },
      child,
    )
  })
}

describe('QR pairing', () => {
  beforeAll(async () =>
    trustSimulator((await control<{ publicKey: string; serial: number }>('/control/root')).json),
  )

  test('without the refresh step, real Baileys pairs, restarts (515) and logs in', async () => {
    const number = await newPhone({ refresh: false })
    const auth = memoryAuth()
    const pairing = client(auth)
    const qr = await within(firstQr(pairing), 5_000, 'QR')
    const { status, json } = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr })
    expect(status).toBe(200)
    expect(json).toMatchObject({ linked: true, jid: `${number}:1@s.whatsapp.net`, device: 1 })
    const closed = await within(pairing.closed, 5_000, 'restart')
    expect(closed.statusCode).toBe(515)
    expect(auth.creds.me?.id).toBe(`${number}:1@s.whatsapp.net`)
    expect(auth.creds.me?.lid).toMatch(/^\d{15}:1@lid$/)
    expect(auth.creds.account?.accountSignatureKey).toBeTruthy()

    const loggedIn = client(auth)
    await within(loggedIn.opened, 5_000, 'open')
    const phone = (await control<PhoneState>(`/control/phones/${number}`)).json
    expect(phone.companions).toHaveLength(1)
    expect(phone.companions[0]?.online).toBe(true)
  })

  test('a QR whose secret the phone cannot verify links nothing', async () => {
    const number = await newPhone({ refresh: false })
    const pairing = client()
    const qr = await within(firstQr(pairing), 5_000, 'QR')
    const parts = qr.split(',')
    parts[3] = Buffer.alloc(32, 7).toString('base64')
    const { json } = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr: parts.join(',') })
    // Baileys checks the HMAC with its own secret and ends the socket: the phone sees no signed reply.
    expect(json).toMatchObject({ linked: false, reason: 'companion-rejected' })
    expect((await control<PhoneState>(`/control/phones/${number}`)).json.companions).toHaveLength(0)
  })

  test('with companion_reg_refresh (WhatsApp today), rc14 never pairs: its next QR keeps the retired secret', async () => {
    // Issue 20, defect 1 (Baileys issue 2737): rc14 acks the refresh and drops it. When the
    // adapter rotates the adv secret and re-renders the QR, the second scan links instead.
    const number = await newPhone()
    const pairing = client(memoryAuth(), { qrTimeout: 500 })
    const first = await within(firstQr(pairing), 5_000, 'QR')
    const refreshed = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr: first })
    expect(refreshed.json).toMatchObject({ linked: false, reason: 'refreshed' })
    const next = await within(pairing.nextQr(3_000), 5_000, 'next QR')
    expect(next.split(',')[3]).toBe(first.split(',')[3])
    const second = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr: next })
    expect(second.json).toMatchObject({ linked: false, reason: 'retired-secret' })
  })
})

describe('QR pairing with a companion that handles the refresh', () => {
  test('rotating the adv secret on companion_reg_refresh and showing the QR again links', async () => {
    // What a fixed companion does (Baileys PR 2765): a new secret, the current ref re-rendered.
    // rc14 captured the secret when it built its QRs, so the test re-renders the QR itself.
    const number = await newPhone()
    const auth = memoryAuth()
    const pairing = client(auth)
    const refreshed = new Promise<void>((resolve) =>
      pairing.sock.ws.on('CB:notification,type:companion_reg_refresh', () => {
        auth.creds.advSecretKey = randomBytes(32).toString('base64')
        resolve()
      }),
    )
    const qr = await within(firstQr(pairing), 5_000, 'QR')
    const first = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr })
    expect(first.json).toMatchObject({ linked: false, reason: 'refreshed' })
    await within(refreshed, 5_000, 'refresh notification')
    const parts = qr.split(',')
    parts[3] = auth.creds.advSecretKey
    const second = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr: parts.join(',') })
    expect(second.json).toMatchObject({ linked: true, jid: `${number}:1@s.whatsapp.net` })
    expect((await within(pairing.closed, 5_000, 'restart')).statusCode).toBe(515)
    const loggedIn = client(auth)
    await within(loggedIn.opened, 5_000, 'open')
  })
})

describe('login', () => {
  test('keep-alive pings are answered and the connection stays open', async () => {
    const number = await newPhone({ refresh: false })
    const loggedIn = await pairAndLogin(number)
    loggedIn.sock.end(undefined)
    const threePings = observeIq('w:p', 'get', undefined, 3)
    const pinging = client(loggedIn.auth, { keepAliveIntervalMs: 100 })
    await within(pinging.opened, 5_000, 'open')
    await within(threePings, 5_000, 'three pings')
    const state = await Promise.race([pinging.closed, Promise.resolve('still open')])
    expect(state).toBe('still open')
  })

  test('after login Baileys uploads its pre-keys and the server keeps them on the companion', async () => {
    const number = await newPhone({ refresh: false })
    const uploaded = observeIq('encrypt', 'set', 'registration')
    const loggedIn = await pairAndLogin(number)
    await within(uploaded, 5_000, 'pre-key upload')
    const companion = (await control<PhoneState>(`/control/phones/${number}`)).json.companions[0]
    expect(companion?.preKeys).toBeGreaterThanOrEqual(5)
    expect(companion?.registrationId).toBe(loggedIn.auth.creds.registrationId)
    // Keep-alive, props, blocklist, privacy and media_conn are answered.
    await loggedIn.sock.query({
      tag: 'iq',
      attrs: { to: 's.whatsapp.net', type: 'get', xmlns: 'w:p' },
      content: [{ tag: 'ping', attrs: {} }],
    })
    expect(await loggedIn.sock.fetchBlocklist()).toEqual([])
    expect(await loggedIn.sock.fetchPrivacySettings(true)).toMatchObject({ readreceipts: 'all' })
  })

  test('a login carrying routing info (the ED intro prefix) is accepted', async () => {
    const number = await newPhone({ refresh: false })
    const first = await pairAndLogin(number)
    first.sock.end(undefined)
    first.auth.creds.routingInfo = Buffer.from([8, 2, 8, 5])
    const routed = client(first.auth)
    await within(routed.opened, 5_000, 'open with routing info')
  })

  test('an iq the simulator does not model gets an error iq at once', async () => {
    const number = await newPhone({ refresh: false })
    const loggedIn = await pairAndLogin(number)
    const started = Date.now()
    const failed = await loggedIn.sock
      .query({ tag: 'iq', attrs: { to: 's.whatsapp.net', type: 'get', xmlns: 'sim:unknown' } })
      .then(
        () => undefined,
        (error: Error) => error,
      )
    expect(failed?.message).toContain('feature-not-implemented')
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})

describe('pairing by code', () => {
  test('requestPairingCode, then the phone enters the code: pair-success, 515, login', async () => {
    const number = await newPhone()
    const auth = memoryAuth()
    const pairing = client(auth)
    await within(firstQr(pairing), 5_000, 'registration')
    const code = await pairing.sock.requestPairingCode(number)
    expect(code).toHaveLength(8)
    const { json } = await control<LinkOutcome>(`/control/phones/${number}/link-code`, { code })
    expect(json).toMatchObject({ linked: true, jid: `${number}:1@s.whatsapp.net` })
    expect((await within(pairing.closed, 5_000, 'restart')).statusCode).toBe(515)
    expect(auth.creds.registered).toBe(true)
    const loggedIn = client(auth)
    await within(loggedIn.opened, 5_000, 'open')
  })

  test('a wrong code links nothing', async () => {
    const number = await newPhone()
    const pairing = client()
    await within(firstQr(pairing), 5_000, 'registration')
    await pairing.sock.requestPairingCode(number, 'AAAAAAAA')
    const { json } = await control<LinkOutcome>(`/control/phones/${number}/link-code`, { code: 'BBBBBBBB' })
    expect(json).toMatchObject({ linked: false, reason: 'wrong-code' })
    expect((await control<PhoneState>(`/control/phones/${number}`)).json.companions).toHaveLength(0)
  })
})

describe('ending', () => {
  test('logout from the phone: Baileys sees 401 loggedOut, and the creds no longer log in', async () => {
    const number = await newPhone({ refresh: false })
    const loggedIn = await pairAndLogin(number)
    const { json } = await control<{ removed: string[] }>(`/control/phones/${number}/logout`, {})
    expect(json.removed).toEqual([`${number}:1@s.whatsapp.net`])
    expect((await within(loggedIn.closed, 5_000, 'logout')).statusCode).toBe(401)
    const again = client(loggedIn.auth)
    expect((await within(again.closed, 5_000, 'refused')).statusCode).toBe(401)
  })

  test('logout from the companion (sock.logout) unlinks it on the server', async () => {
    const number = await newPhone({ refresh: false })
    const loggedIn = await pairAndLogin(number)
    expect(
      await loggedIn.sock
        .profilePictureUrl(`${number}@s.whatsapp.net`)
        .catch((error: Error) => error.message),
    ).toBe('item-not-found')
    await loggedIn.sock.logout()
    expect((await within(loggedIn.closed, 5_000, 'logout')).statusCode).toBe(401)
    const again = client(loggedIn.auth)
    expect((await within(again.closed, 5_000, 'refused')).statusCode).toBe(401)
    expect((await control<PhoneState>(`/control/phones/${number}`)).json.companions).toHaveLength(0)
  })

  test('a second login of the same companion replaces the first (440)', async () => {
    const number = await newPhone({ refresh: false })
    const first = await pairAndLogin(number)
    const second = client(first.auth)
    await within(second.opened, 5_000, 'second open')
    expect((await within(first.closed, 5_000, 'replaced')).statusCode).toBe(440)
  })

  test('a version rejection closes the login with 405', async () => {
    const number = await newPhone({ refresh: false })
    const first = await pairAndLogin(number)
    first.sock.end(undefined)
    await control(`/control/phones/${number}/flags`, { rejectVersion: true })
    const rejected = client(first.auth)
    expect((await within(rejected.closed, 5_000, 'rejected')).statusCode).toBe(405)
  })

  test('an account that requires a passkey never links: the QRs run out (408)', async () => {
    const number = await newPhone({ passkeyRequired: true })
    const pairing = client(memoryAuth(), { qrTimeout: 150 })
    const qr = await within(firstQr(pairing), 5_000, 'QR')
    const { json } = await control<LinkOutcome>(`/control/phones/${number}/scan`, { qr })
    expect(json).toMatchObject({ linked: false, reason: 'passkey-required' })
    const closed = await within(pairing.closed, 5_000, 'refs ended')
    expect(closed).toEqual({ statusCode: 408, message: 'QR refs attempts ended' })
    expect(pairing.qrs).toHaveLength(6)
    expect(pairing.auth.creds.me).toBeUndefined()
  })

  test('offline closes the socket and queues deliveries; online delivers them on the next login', async () => {
    const number = await newPhone({ refresh: false })
    const first = await pairAndLogin(number)
    await control(`/control/phones/${number}/offline`, {})
    expect((await within(first.closed, 5_000, 'offline close')).statusCode).toBe(428)
    simulator.sim.sendToCompanion(number, {
      tag: 'notification',
      attrs: {
        from: 's.whatsapp.net',
        type: 'sim_probe',
        id: 'probe-1',
        t: String(Math.floor(Date.now() / 1000)),
      },
    })
    expect((await control<{ queued: number }>(`/control/phones/${number}`)).json.queued).toBe(1)
    const refused = client(first.auth)
    expect((await within(refused.closed, 5_000, 'refused while offline')).statusCode).toBe(428)

    await control(`/control/phones/${number}/online`, {})
    const back = client(first.auth)
    const probe = new Promise<string>((resolve) =>
      back.sock.ws.on('CB:notification,type:sim_probe', (node: { attrs: { id: string } }) =>
        resolve(node.attrs.id),
      ),
    )
    await within(back.opened, 5_000, 'open again')
    expect(await within(probe, 5_000, 'queued notification')).toBe('probe-1')
    expect((await control<{ queued: number }>(`/control/phones/${number}`)).json.queued).toBe(0)
  })
})

describe('a deaf socket (phone flag deaf)', () => {
  const probe = (id: string) => ({
    tag: 'notification',
    attrs: { from: 's.whatsapp.net', type: 'sim_probe', id, t: String(Math.floor(Date.now() / 1000)) },
  })
  /** The sim_probe notifications a client received, and a promise of the next one. */
  const probesOf = (listening: TestClient) => {
    const ids: string[] = []
    let waiter: ((id: string) => void) | undefined
    listening.sock.ws.on('CB:notification,type:sim_probe', (node: { attrs: { id: string } }) => {
      ids.push(node.attrs.id)
      waiter?.(node.attrs.id)
    })
    return { ids, next: () => new Promise<string>((resolve) => (waiter = resolve)) }
  }
  const queued = async (number: string) =>
    (await control<{ queued: number }>(`/control/phones/${number}`)).json.queued

  test('answers pings but delivers nothing until the flag is lifted; then the socket gets what it missed', async () => {
    const number = await newPhone({ refresh: false })
    const first = await pairAndLogin(number)
    first.sock.end(undefined)
    const live = client(first.auth, { keepAliveIntervalMs: 100 })
    await within(live.opened, 5_000, 'open')
    const probes = probesOf(live)

    const { json } = await control<{ flags: { deaf: boolean } }>(`/control/phones/${number}/flags`, {
      deaf: true,
    })
    expect(json.flags.deaf).toBe(true)
    simulator.sim.sendToCompanion(number, probe('deaf-1'))
    expect(await queued(number)).toBe(1)
    await within(observeIq('w:p', 'get', undefined, 3), 5_000, 'three pings answered while deaf')
    expect(await Promise.race([live.closed, Promise.resolve('still open')])).toBe('still open')
    expect(probes.ids).toEqual([])

    const delivered = probes.next()
    await control(`/control/phones/${number}/flags`, { deaf: false })
    expect(await within(delivered, 5_000, 'the withheld notification')).toBe('deaf-1')
    expect(await queued(number)).toBe(0)
  })

  test('a new login of the companion gets the queue and is not deaf', async () => {
    const number = await newPhone({ refresh: false })
    const first = await pairAndLogin(number)
    const probes = probesOf(first)
    await control(`/control/phones/${number}/flags`, { deaf: true })
    simulator.sim.sendToCompanion(number, probe('missed-1'))
    expect(await queued(number)).toBe(1)
    first.sock.end(undefined)

    const again = client(first.auth)
    const after = probesOf(again)
    const delivered = after.next()
    await within(again.opened, 5_000, 'open again')
    expect(await within(delivered, 5_000, 'the queued notification')).toBe('missed-1')
    expect(probes.ids).toEqual([])
    const state = await control<{ flags: { deaf: boolean }; queued: number }>(`/control/phones/${number}`)
    expect(state.json.flags.deaf).toBe(false)
    expect(state.json.queued).toBe(0)

    const live = after.next()
    simulator.sim.sendToCompanion(number, probe('live-1'))
    expect(await within(live, 5_000, 'a live notification')).toBe('live-1')
  })
})
