import { describe, expect, test } from 'bun:test'
import { AppError } from '../../../shared/errors'
import { createSandboxProvider } from './network'
import { connectedSession, createTestNetwork, recordEvents } from './testing'

const CONNECTION = { id: 1, companyId: 1, name: 'Sandbox' }
const ME = '5511980000001'

async function rejects(promise: Promise<unknown>, code: string) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  expect((err as AppError).code).toBe(code as AppError['code'])
  return err as AppError
}

describe('sandbox session life cycle', () => {
  test('start shows a QR, then pairs by itself after 5 s: the 515 restart, then CONNECTED', async () => {
    const { network, clock } = createTestNetwork()
    const session = createSandboxProvider(network)(CONNECTION)
    const rec = recordEvents(session)
    const t0 = clock.now()
    await session.start()
    expect(session.status).toBe('qrcode')
    expect(rec.events).toEqual([
      { t: 'status', status: 'OPENING' },
      { t: 'qr', qr: expect.any(String), attempt: 1, expiresAt: t0 + 60_000 },
      { t: 'status', status: 'qrcode' },
    ])
    const [qr] = rec.of('qr')
    expect(qr?.qr).toMatch(
      /^2@[A-Za-z0-9+/=]{40,},[A-Za-z0-9+/]{43}=,[A-Za-z0-9+/]{43}=,[A-Za-z0-9+/]{43}=,sandbox$/,
    )

    await clock.tick(4_999)
    expect(session.status).toBe('qrcode')
    rec.clear()
    await clock.tick(1)
    expect(rec.events).toEqual([
      { t: 'status', status: 'OPENING', reason: 515, detail: 'restart required' },
      {
        t: 'status',
        status: 'CONNECTED',
        me: { jid: `${ME}@s.whatsapp.net`, pn: ME, lid: expect.stringMatching(/^1\d{14}@lid$/) },
      },
    ])
    expect(session.status).toBe('CONNECTED')
    expect(network.isPaired(1)).toBe(true)
    expect(clock.pendingTimers).toBe(0)
  })

  test('pair() pairs at once and cancels the pending QR timers', async () => {
    const { network, clock } = createTestNetwork()
    const session = network.createSession(CONNECTION)
    const rec = recordEvents(session)
    await session.start()
    await network.pair(1)
    expect(rec.statuses()).toEqual(['OPENING', 'qrcode', 'OPENING', 'CONNECTED'])
    expect(session.status).toBe('CONNECTED')
    expect(clock.pendingTimers).toBe(0)
    await network.pair(1) // already connected: nothing happens
    expect(rec.statuses()).toHaveLength(4)
  })

  test('without pairing, the QR is renewed (60 s, then 20 s) and after 3 QRs the session times out', async () => {
    const { network, clock } = createTestNetwork({ autoPair: false })
    const session = network.createSession(CONNECTION)
    const rec = recordEvents(session)
    await session.start()
    await clock.tick(60_000)
    await clock.tick(20_000)
    const qrs = rec.of('qr')
    expect(qrs.map((q) => q.attempt)).toEqual([1, 2, 3])
    expect(qrs[2]?.expiresAt).toBe(clock.now() + 20_000)
    expect(new Set(qrs.map((q) => q.qr)).size).toBe(3)
    expect(session.status).toBe('qrcode')
    await clock.tick(20_000)
    expect(session.status).toBe('TIMEOUT')
    expect(rec.events.at(-1)).toEqual({
      t: 'status',
      status: 'TIMEOUT',
      reason: 408,
      detail: 'QR refs attempts ended',
      statusReason: 'qr_timeout',
    })
    expect(rec.statuses()).toEqual(['OPENING', 'qrcode', 'TIMEOUT'])
    expect(clock.pendingTimers).toBe(0)
    // pairing is refused, a new start shows a fresh QR
    await rejects(network.pair(1), 'ERR_WAPP_NOT_INITIALIZED')
    await session.start()
    expect(session.status).toBe('qrcode')
  })

  test('timeScale scales QR lifetimes and the auto-pairing delay', async () => {
    const { network, clock } = createTestNetwork({ timeScale: 0.01 })
    const session = network.createSession(CONNECTION)
    const rec = recordEvents(session)
    await session.start()
    expect(rec.of('qr')[0]?.expiresAt).toBe(clock.now() + 600)
    await clock.tick(50)
    expect(session.status).toBe('CONNECTED')
  })

  test('stop keeps the credentials silently; a restart (new session) connects without a QR', async () => {
    const { network } = createTestNetwork()
    const provider = createSandboxProvider(network)
    const { session, events } = await connectedSession(network)
    await session.stop()
    expect(events).toEqual([])
    expect(session.status).toBe('DISCONNECTED')
    expect(network.isPaired(1)).toBe(true)

    const again = provider(CONNECTION)
    const rec = recordEvents(again)
    await again.start()
    expect(rec.of('qr')).toEqual([])
    expect(rec.statuses()).toEqual(['OPENING', 'CONNECTED'])
    expect(rec.of('status')[1]?.me?.pn).toBe(ME)
  })

  test('a new session of an unpaired connection shows QR codes never shown before', async () => {
    const { network } = createTestNetwork({ autoPair: false })
    const provider = createSandboxProvider(network)
    const first = recordEvents(provider(CONNECTION))
    const one = network.session(1)!
    await one.start()
    await one.stop()
    const again = provider(CONNECTION)
    const second = recordEvents(again)
    await again.start()
    const [a] = first.of('qr')
    const [b] = second.of('qr')
    expect(b?.attempt).toBe(1)
    expect(b?.qr).not.toBe(a?.qr)
  })

  test('start is idempotent while starting or connected', async () => {
    const { network } = createTestNetwork()
    const session = network.createSession(CONNECTION)
    const rec = recordEvents(session)
    await session.start()
    await session.start()
    expect(rec.of('qr')).toHaveLength(1)
  })

  test('a pairing code: deterministic 8 characters, PAIRING, then connected as that phone', async () => {
    const { network, clock } = createTestNetwork()
    const session = network.createSession(CONNECTION)
    const rec = recordEvents(session)
    await session.start({ pairingPhone: '5511912345678' })
    const [code] = rec.of('pairingCode')
    expect(code?.code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/)
    expect(code?.expiresAt).toBeGreaterThan(clock.now())
    expect(rec.statuses()).toEqual(['OPENING', 'PAIRING'])
    expect(rec.of('qr')).toEqual([])

    const other = createTestNetwork().network.createSession(CONNECTION)
    await other.start()
    expect(await other.requestPairingCode('5511912345678')).toBe(code!.code)
    expect(other.status).toBe('PAIRING')

    await clock.tick(5_000)
    expect(session.status).toBe('CONNECTED')
    expect(rec.of('status').at(-1)?.me?.pn).toBe('5511912345678')
    await rejects(session.requestPairingCode('5511912345678'), 'ERR_VALIDATION')
    const bad = await rejects(other.requestPairingCode('+55 11'), 'ERR_VALIDATION')
    expect(bad.fields).toEqual([{ field: 'phone', message: 'must be 8 to 15 digits' }])
  })

  test('logout forgets the credentials: DISCONNECTED (401), and the next start shows a QR', async () => {
    const { network } = createTestNetwork()
    const { session, events } = await connectedSession(network)
    await session.logout()
    expect(events).toEqual([{ t: 'status', status: 'DISCONNECTED', reason: 401, detail: 'logged out' }])
    expect(network.isPaired(1)).toBe(false)
    await session.start()
    expect(session.status).toBe('qrcode')
  })

  test('simulateDisconnect 401 logs out, 440 ends the session but keeps the credentials', async () => {
    const { network } = createTestNetwork()
    const one = await connectedSession(network, 1)
    await network.simulateDisconnect(1, 401)
    expect(one.events).toEqual([
      { t: 'status', status: 'DISCONNECTED', reason: 401, detail: 'logged out', statusReason: 'logged_out' },
    ])
    expect(network.isPaired(1)).toBe(false)

    const two = await connectedSession(network, 2)
    await network.simulateDisconnect(2, 440)
    expect(two.events).toEqual([
      {
        t: 'status',
        status: 'DISCONNECTED',
        reason: 440,
        detail: 'connection replaced',
        statusReason: 'replaced',
      },
    ])
    expect(network.isPaired(2)).toBe(true)
    await rejects(network.simulateDisconnect(2, 408), 'ERR_WAPP_NOT_INITIALIZED')
  })

  test('simulateDisconnect 408 / 428: OPENING with a retry, then CONNECTED again', async () => {
    const { network, clock } = createTestNetwork()
    const { session, events, statuses } = await connectedSession(network)
    for (const code of [408, 428]) {
      events.length = 0
      await network.simulateDisconnect(1, code)
      expect(events).toEqual([
        {
          t: 'status',
          status: 'OPENING',
          reason: code,
          detail: code === 408 ? 'connection lost' : 'connection closed',
          retryInMs: 1_000,
          statusReason: 'no_network',
        },
      ])
      await clock.tick(999)
      expect(session.status).toBe('OPENING')
      await clock.tick(1)
      expect(statuses()).toEqual(['OPENING', 'CONNECTED'])
    }
    const bad = await rejects(network.simulateDisconnect(1, 999), 'ERR_VALIDATION')
    expect(bad.fields?.[0]?.field).toBe('code')
  })

  test('a new session for the same connection replaces the old one silently', async () => {
    const { network } = createTestNetwork()
    const { session: old, events } = await connectedSession(network)
    const fresh = network.createSession(CONNECTION)
    expect(network.session(1)).toBe(fresh)
    expect(old.status).toBe('DISCONNECTED')
    expect(events).toEqual([])
    await rejects(old.start(), 'ERR_WAPP_NOT_INITIALIZED')
  })

  test('the network refuses connections that are not started', async () => {
    const { network } = createTestNetwork()
    await rejects(network.pair(7), 'ERR_WAPP_NOT_INITIALIZED')
    await rejects(network.inject(7, { from: '5511999990001', body: 'Olá' }), 'ERR_WAPP_NOT_INITIALIZED')
    expect(network.outbound(7)).toEqual([])
  })
})
