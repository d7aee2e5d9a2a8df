import { describe, expect, test } from 'bun:test'
import { DEFAULT_CONNECTION_CONFIG, initAuthCreds } from '@whiskeysockets/baileys'
import baileysPackage from '@whiskeysockets/baileys/package.json' with { type: 'json' }
import { createBaileysProvider } from '../../channels/baileys/provider'
import { fakeSocketFactory, settle } from '../../channels/baileys/testing/fake-socket'
import type { ChannelProvider } from '../../channels/types'
import { silentLogger } from '../../logger'
import { createHarness, type Harness } from '../../test/harness'
import { textMessage } from '../inbound/testing'
import { doorOf } from '../outbound/door'

const CUSTOMER = '5511988887777'
const MIN = 60_000

/** A harness with company A's connection started on the scripted session and connected. */
async function connected() {
  const h = await createHarness()
  const conn = h.makeConnection(h.a.id)
  await h.deps.channels.start(conn)
  const session = h.sessions.get(conn.id)!
  await session.emit({ t: 'status', status: 'CONNECTED' })
  const admin = await h.as(h.a.admin)
  const health = async () => (await admin.get(`/whatsapp/${conn.id}`)).body.health
  return { h, conn, session, admin, health }
}

const iso = (h: Harness) => new Date(h.clock.now()).toISOString()

describe("a connection's health", () => {
  test('a stored message someone sent is the last received; one written on the phone is not', async () => {
    const { h, session, health } = await connected()
    expect(await health()).toEqual({
      baileysVersion: null,
      waWebVersion: null,
      lastReceivedAt: null,
      lastAckedAt: null,
      lastDisconnect: null,
      restricted: null,
    })
    h.clock.advance(5 * MIN)
    await session.emit(textMessage({ from: CUSTOMER, text: 'oi' }))
    const received = iso(h)
    expect((await health()).lastReceivedAt).toBe(received)

    h.clock.advance(5 * MIN)
    const fromPhone = textMessage({ from: CUSTOMER, text: 'do celular', ack: 1 })
    fromPhone.ref.fromMe = true
    await session.emit(fromPhone)
    expect((await health()).lastReceivedAt).toBe(received)
  })

  test('a batch of held messages writes it once, in their transaction', async () => {
    const { h, conn, session, health } = await connected()
    h.clock.advance(MIN)
    const batch = [textMessage({ from: CUSTOMER }), textMessage({ from: CUSTOMER })]
    for (const event of batch) {
      h.inbound.defer(event)
      await session.emit(event)
    }
    expect((await health()).lastReceivedAt).toBeNull()
    expect(h.inbound.flush(conn.id)).toBe(0)
    expect((await health()).lastReceivedAt).toBe(iso(h))
  })

  test('a send WhatsApp acknowledges (ack >= 1) is the last acknowledged; a receipt of a received message is not', async () => {
    const { h, session, health } = await connected()
    const sent = textMessage({ from: CUSTOMER, text: 'nosso', ack: 0 })
    sent.ref.fromMe = true
    await session.emit(sent)
    const incoming = textMessage({ from: CUSTOMER, text: 'deles' })
    await session.emit(incoming)
    h.clock.advance(MIN)
    await session.emit({ t: 'ack', ref: incoming.ref, ack: 4 })
    expect((await health()).lastAckedAt).toBeNull()
    await session.emit({ t: 'ack', ref: sent.ref, ack: 0 })
    expect((await health()).lastAckedAt).toBeNull()
    await session.emit({ t: 'ack', ref: sent.ref, ack: 1 })
    expect((await health()).lastAckedAt).toBe(iso(h))
  })

  test('the reason a session gives for not being connected is the last disconnect, with its code and time; it stays once connected', async () => {
    const { h, conn, session, health } = await connected()
    h.clock.advance(MIN)
    const events = h.recordEvents()
    await session.emit({
      t: 'status',
      status: 'OPENING',
      statusReason: 'no_network',
      reason: 428,
      retryInMs: 1000,
    })
    const lastDisconnect = { reason: 'no_network', code: 428, at: iso(h) }
    expect((await health()).lastDisconnect).toEqual(lastDisconnect)
    // The live session frame carries it.
    expect(events.find((e) => e.event === `company-${h.a.id}-whatsappSession`)?.data).toMatchObject({
      session: { id: conn.id, health: { lastDisconnect } },
    })
    h.clock.advance(MIN)
    await session.emit({ t: 'status', status: 'CONNECTED' })
    expect((await health()).lastDisconnect).toEqual(lastDisconnect)
    await session.emit({ t: 'status', status: 'DISCONNECTED', statusReason: 'logged_out', reason: 401 })
    expect((await health()).lastDisconnect).toEqual({ reason: 'logged_out', code: 401, at: iso(h) })
  })

  test('a restriction of the outbound door shows since when and why, until an admin lifts it', async () => {
    const { h, conn, session, health } = await connected()
    session.send = async () => {
      throw new Error('463: reachout timelock')
    }
    h.clock.advance(MIN)
    const door = doorOf(h.deps, conn.id)
    const refused = door.turn('conversation', (turn) =>
      turn.claim(() => true)!.send({ jid: `${CUSTOMER}@s.whatsapp.net` }, { kind: 'text', body: 'oi' }),
    )
    await expect(refused).rejects.toThrow('463')
    expect((await health()).restricted).toEqual({
      since: iso(h),
      until: null,
      detail: '463: reachout timelock',
    })
    door.lift()
    expect((await health()).restricted).toBeNull()
  })

  test('attendants never get it; another company answers 404 as before; the live whatsapp event carries it', async () => {
    const { h, conn, admin } = await connected()
    const attendant = await h.as(h.a.attendant)
    const one = await attendant.get(`/whatsapp/${conn.id}`)
    expect(one.status).toBe(200)
    expect(one.body).not.toHaveProperty('health')
    const list = await attendant.get('/whatsapp')
    expect(list.body.map((c: object) => 'health' in c)).toEqual([false])
    expect((await admin.get('/whatsapp')).body[0].health).toMatchObject({ lastReceivedAt: null })

    const other = await h.as(h.b.admin)
    expect((await other.get(`/whatsapp/${conn.id}`)).status).toBe(404)

    const events = h.recordEvents()
    expect((await admin.put(`/whatsapp/${conn.id}`, { name: 'Renomeada' })).status).toBe(200)
    const frame = events.find((e) => e.event === `company-${h.a.id}-whatsapp`)
    expect(frame?.room).toBe(`company:${h.a.id}:admins`)
    expect(frame?.data).toMatchObject({ action: 'update', whatsapp: { health: { lastReceivedAt: null } } })
  })

  test('a Baileys session records the Baileys and WhatsApp Web versions it connects with, the new one after a 405', async () => {
    const f = fakeSocketFactory({ auto: true })
    let build: ChannelProvider | undefined
    const h = await createHarness({ providers: { beta: (connection) => build!(connection) } })
    const creds = initAuthCreds()
    creds.me = { id: '5511900000000:1@s.whatsapp.net' }
    creds.registered = true
    // linked: pair-success brought the account signature (creds without it are an unfinished pairing)
    creds.account = { details: new Uint8Array([1]), accountSignatureKey: new Uint8Array(32) }
    build = createBaileysProvider({
      log: silentLogger,
      clock: h.clock,
      authState: async () => ({
        state: { creds, keys: { get: async () => ({}), set: async () => {} } },
        saveCreds() {},
        clear() {},
      }),
      socketFactory: f.factory,
      fetchVersion: async () => [2, 3000, 1234567],
      random: () => 1,
    })
    const conn = h.makeConnection(h.a.id)
    await h.deps.channels.start(conn)
    await settle()
    const admin = await h.as(h.a.admin)
    const health = async () => (await admin.get(`/whatsapp/${conn.id}`)).body.health
    expect((await admin.get(`/whatsapp/${conn.id}`)).body.status).toBe('CONNECTED')
    expect(await health()).toMatchObject({
      baileysVersion: baileysPackage.version,
      waWebVersion: DEFAULT_CONNECTION_CONFIG.version.join('.'),
    })

    f.current.sim.close(405, 'Connection Failure')
    await settle()
    expect((await health()).lastDisconnect).toMatchObject({ reason: 'unavailable', code: 405 })
    h.clock.advance(h.clock.delays()[0] ?? 0)
    await settle()
    expect((await admin.get(`/whatsapp/${conn.id}`)).body.status).toBe('CONNECTED')
    expect((await health()).waWebVersion).toBe('2.3000.1234567')
    await h.deps.channels.stopAll()
  })
})
