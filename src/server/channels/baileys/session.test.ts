import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type AuthenticationCreds,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type WAMessage,
  type WAVersion,
} from '@whiskeysockets/baileys'
import { AppError } from '../../../shared/errors'
import { ManualClock } from '../../clock'
import { silentLogger } from '../../logger'
import type { ChannelEvent, ChannelEventOf, InboundMessage } from '../types'
import { createBaileysProvider } from './provider'
import {
  type AuthHandle,
  BaileysChannelSession,
  type BaileysSessionOptions,
  backoffMs,
  SLOW_RETRY_MS,
} from './session'
import {
  boom,
  downloadFromFake,
  type FakeSocket,
  type FakeSocketOptions,
  fakeSocketFactory,
  settle,
} from './testing/fake-socket'

const CUSTOMER = '5511988887777@s.whatsapp.net'
const CUSTOMER_LID = '123456789012345@lid'
const OTHER = '5511977776666@s.whatsapp.net'
const GROUP = '120363000000000001@g.us'

/** An in-memory auth store double: creds saved as BufferJSON text, as the SQLite store does. */
function memoryAuth(initial?: AuthenticationCreds) {
  const store = {
    saved: initial ? JSON.stringify(initial, BufferJSON.replacer) : undefined,
    keys: new Map<string, unknown>(),
    saves: 0,
    clears: 0,
    loads: 0,
    load: async (): Promise<AuthHandle> => {
      store.loads += 1
      const creds: AuthenticationCreds = store.saved
        ? JSON.parse(store.saved, BufferJSON.reviver)
        : initAuthCreds()
      return {
        state: {
          creds,
          keys: {
            // biome-ignore lint/suspicious/noExplicitAny: a test double of Baileys' generic key store
            get: async (type: string, ids: string[]): Promise<any> => {
              const out: Record<string, unknown> = {}
              for (const id of ids) {
                const v = store.keys.get(`${type}:${id}`)
                if (v !== undefined) out[id] = v
              }
              return out
            },
            set: async (data: SignalDataSet) => {
              for (const [type, values] of Object.entries(data))
                for (const [id, v] of Object.entries(values ?? {}))
                  if (v === null) store.keys.delete(`${type}:${id}`)
                  else store.keys.set(`${type}:${id}`, v)
            },
          },
        },
        saveCreds: () => {
          store.saves += 1
          store.saved = JSON.stringify(creds, BufferJSON.replacer)
        },
        clear: () => {
          store.clears += 1
          store.saved = undefined
          store.keys.clear()
        },
      }
    },
    creds: (): AuthenticationCreds | undefined =>
      store.saved ? JSON.parse(store.saved, BufferJSON.reviver) : undefined,
  }
  return store
}

function setup(
  opts: {
    auth?: ReturnType<typeof memoryAuth>
    fake?: FakeSocketOptions
    session?: Partial<BaileysSessionOptions>
  } = {},
) {
  const clock = new ManualClock(1_700_000_000_000)
  const auth = opts.auth ?? memoryAuth()
  const f = fakeSocketFactory({ now: () => clock.now(), ...opts.fake })
  const session = new BaileysChannelSession({
    connectionId: 7,
    companyId: 1,
    log: silentLogger,
    clock,
    authState: auth.load,
    socketFactory: f.factory,
    random: () => 1,
    downloadMedia: (msg, sock) => downloadFromFake(sock as FakeSocket, msg),
    ...opts.session,
  })
  const events: ChannelEvent[] = []
  session.on((e) => {
    events.push(e)
  })
  const of = <T extends ChannelEvent['t']>(t: T) => events.filter((e): e is ChannelEventOf<T> => e.t === t)
  return {
    clock,
    auth,
    f,
    session,
    events,
    of,
    statuses: () => of('status').map((e) => e.status),
    messages: () => events.filter((e): e is InboundMessage => e.t === 'message'),
  }
}

/** Starts and opens a session (fresh creds get a `me` on open, as after a scan). */
async function connected(opts: Parameters<typeof setup>[0] = {}) {
  const t = setup(opts)
  await t.session.start()
  t.f.current.sim.connecting()
  t.f.current.sim.open()
  await settle()
  expect(t.session.status).toBe('CONNECTED')
  return t
}

describe('BaileysChannelSession: connection lifecycle', () => {
  test('qr -> scan -> 515 restart (creds saved first) -> CONNECTED', async () => {
    const t = setup()
    await t.session.start()
    expect(t.f.sockets).toHaveLength(1)
    const first = t.f.current
    expect(first.config.markOnlineOnConnect).toBe(false)
    expect(first.config.syncFullHistory).toBe(false)
    expect(first.config.shouldIgnoreJid?.('status@broadcast')).toBe(true)
    expect(first.config.shouldIgnoreJid?.('1203630@newsletter')).toBe(true)
    expect(first.config.shouldIgnoreJid?.(CUSTOMER)).toBe(false)

    first.sim.connecting()
    const qr1 = first.sim.qr()
    await settle()
    t.clock.advance(60_000)
    const qr2 = first.sim.qr()
    await settle()
    expect(t.session.status).toBe('qrcode')
    expect(t.of('qr')).toEqual([
      { t: 'qr', qr: qr1, attempt: 1, expiresAt: 1_700_000_060_000 },
      { t: 'qr', qr: qr2, attempt: 2, expiresAt: 1_700_000_080_000 },
    ])

    first.sim.scan()
    await settle()
    expect(t.auth.creds()?.me?.id).toBe('5511900000000:1@s.whatsapp.net')
    expect(first.closed).toBe(true)
    expect(t.f.sockets).toHaveLength(2)
    expect(t.clock.pendingTimers).toBe(0) // 515: no backoff
    const second = t.f.current
    expect(second.config.auth.creds.me?.id).toBe('5511900000000:1@s.whatsapp.net')
    second.sim.connecting()
    second.sim.open()
    await settle()
    expect(t.session.status).toBe('CONNECTED')
    expect(t.statuses()).toEqual(['OPENING', 'qrcode', 'OPENING', 'CONNECTED'])
    expect(t.of('status').at(-1)?.me).toEqual({
      jid: '5511900000000@s.whatsapp.net',
      pn: '5511900000000',
      lid: '99000000000001@lid',
    })
  })

  test('creds are saved when Baileys emits them, before the batch is handled, for retired sockets too', async () => {
    // Issue 20, defect 11: they used to wait in the inbound chain and were dropped for a retired socket.
    const t = await connected()
    let release = () => {}
    t.session.on((e) => {
      if (e.t === 'message') return new Promise<void>((resolve) => (release = resolve))
    })
    t.f.current.sim.inbound({ from: CUSTOMER, id: 'SLOW1' }, { conversation: 'held' })
    await settle()
    t.f.current.sim.credsUpdate({ nextPreKeyId: 777 })
    expect(t.auth.creds()?.nextPreKeyId).toBe(777)
    release()
    await settle()

    const retired = t.f.current
    await t.session.stop()
    retired.sim.credsUpdate({ nextPreKeyId: 778 })
    expect(t.auth.creds()?.nextPreKeyId).toBe(778)
  })

  test('after a logout, a late creds update of the unlinked socket does not bring its creds back', async () => {
    const t = await connected()
    const sock = t.f.current
    await t.session.logout()
    sock.sim.credsUpdate({ nextPreKeyId: 779 })
    expect(t.auth.saved).toBeUndefined()
  })

  test('creds updates are persisted; a restart with saved creds connects without a QR', async () => {
    const t = await connected()
    t.f.current.sim.credsUpdate({ nextPreKeyId: 4242 })
    await settle()
    expect(t.auth.creds()?.nextPreKeyId).toBe(4242)
    await t.session.stop()
    expect(t.auth.clears).toBe(0)

    const again = setup({ auth: t.auth, fake: { auto: true } })
    await again.session.start()
    await settle()
    expect(again.session.status).toBe('CONNECTED')
    expect(again.of('qr')).toEqual([])
    expect(again.f.current.config.auth.creds.nextPreKeyId).toBe(4242)
  })

  test('auto-driven fake: QR, scan, 515, open by itself', async () => {
    const t = setup({ fake: { auto: true } })
    await t.session.start()
    await settle()
    expect(t.session.status).toBe('qrcode')
    t.f.current.sim.scan()
    await settle()
    expect(t.f.sockets).toHaveLength(2)
    expect(t.session.status).toBe('CONNECTED')
    expect(t.of('qr')).toHaveLength(1)
  })

  test('start is idempotent: one socket', async () => {
    const t = setup()
    await Promise.all([t.session.start(), t.session.start()])
    await t.session.start()
    expect(t.f.sockets).toHaveLength(1)
  })

  test('401 clears the credentials and stops', async () => {
    const t = await connected()
    t.f.current.sim.close(401, 'Connection Failure')
    await settle()
    expect(t.session.status).toBe('DISCONNECTED')
    expect(t.of('status').at(-1)).toMatchObject({ status: 'DISCONNECTED', reason: 401 })
    expect(t.auth.clears).toBe(1)
    expect(t.auth.saved).toBeUndefined()
    expect(t.clock.pendingTimers).toBe(0)
    expect(t.f.sockets).toHaveLength(1)
  })

  test('403 and 440 stop without reconnecting; 440 says another client took over', async () => {
    for (const code of [403, 440]) {
      const t = await connected()
      t.f.current.sim.close(code, code === 440 ? 'Stream Errored (conflict)' : 'Connection Failure')
      await settle()
      expect(t.session.status).toBe('DISCONNECTED')
      expect(t.clock.pendingTimers).toBe(0)
      expect(t.f.sockets).toHaveLength(1)
      expect(t.auth.clears).toBe(0)
      const last = t.of('status').at(-1)
      expect(last?.reason).toBe(code)
      if (code === 440) expect(last?.detail).toContain('another client')
    }
  })

  test('408 "QR refs attempts ended" -> TIMEOUT, no retry', async () => {
    const t = setup()
    await t.session.start()
    t.f.current.sim.qr()
    await settle()
    t.f.current.sim.close(408, 'QR refs attempts ended')
    await settle()
    expect(t.session.status).toBe('TIMEOUT')
    expect(t.clock.pendingTimers).toBe(0)
    expect(t.f.sockets).toHaveLength(1)
  })

  test('408/428/500 reconnect with exponential backoff, retries counted, reset on open', async () => {
    const t = await connected()
    const codes = [408, 428, 500]
    for (const [i, code] of codes.entries()) {
      t.f.current.sim.close(code, 'Connection Lost')
      await settle()
      expect(t.session.status).toBe('OPENING')
      expect(t.clock.delays()).toEqual([1000 * 2 ** i])
      expect(t.of('status').at(-1)).toMatchObject({
        status: 'OPENING',
        reason: code,
        retryInMs: 1000 * 2 ** i,
      })
      const before = t.f.sockets.length
      t.clock.advance(1000 * 2 ** i)
      await settle()
      expect(t.f.sockets).toHaveLength(before + 1)
    }
    expect(t.of('status').filter((e) => e.retryInMs !== undefined)).toHaveLength(3)
    t.f.current.sim.open()
    await settle()
    expect(t.session.status).toBe('CONNECTED')
    t.f.current.sim.close(428)
    await settle()
    expect(t.clock.delays()).toEqual([1000])
  })

  test('503 backs off longer; the delay is capped', async () => {
    const t = await connected()
    t.f.current.sim.close(503, 'Service Unavailable')
    await settle()
    expect(t.clock.delays()).toEqual([5000])
    expect(backoffMs(20, 428, () => 1)).toBe(60_000)
    expect(backoffMs(1, 428, () => 0)).toBe(500)
  })

  test('a drop while QR codes show counts; the third QR socket ends in TIMEOUT', async () => {
    const t = setup()
    await t.session.start()
    for (let i = 0; i < 3; i++) {
      t.f.current.sim.qr()
      await settle()
      t.f.current.sim.close(428)
      await settle()
      if (i < 2) {
        expect(t.session.status).toBe('OPENING')
        t.clock.advance(t.clock.delays()[0] ?? 0)
        await settle()
      }
    }
    expect(t.session.status).toBe('TIMEOUT')
    expect(t.f.sockets).toHaveLength(3)
    expect(t.clock.pendingTimers).toBe(0)
  })

  test('405 refreshes the WA Web version (injected fetch) and retries', async () => {
    const fresh: WAVersion = [2, 3000, 999]
    let fetched = 0
    const t = setup({
      session: {
        fetchVersion: async () => {
          fetched += 1
          return fresh
        },
      },
    })
    await t.session.start()
    expect(t.f.current.config.version).not.toEqual(fresh)
    t.f.current.sim.close(405, 'Connection Failure')
    await settle()
    expect(fetched).toBe(1)
    t.clock.advance(t.clock.delays()[0] ?? 0)
    await settle()
    expect(t.f.sockets).toHaveLength(2)
    expect(t.f.current.config.version).toEqual(fresh)
  })

  test('a failing version fetch never fails the session', async () => {
    const t = setup({
      session: {
        fetchVersion: async () => {
          throw new Error('offline')
        },
      },
    })
    await t.session.start()
    t.f.current.sim.close(405)
    await settle()
    expect(t.session.status).toBe('OPENING')
    expect(t.clock.pendingTimers).toBe(1)
  })

  test('pairing code: asked after the first QR, digits only; no QR shown', async () => {
    const t = setup()
    await t.session.start({ pairingPhone: '+55 (11) 90000-0000' })
    t.f.current.sim.qr()
    await settle()
    expect(t.f.current.callsOf('requestPairingCode')).toEqual([['5511900000000', undefined]])
    expect(t.of('pairingCode')).toEqual([
      { t: 'pairingCode', code: 'ABCD1234', expiresAt: 1_700_000_160_000 },
    ])
    expect(t.of('qr')).toEqual([])
    expect(t.session.status).toBe('PAIRING')
    t.f.current.sim.qr()
    await settle()
    expect(t.f.current.callsOf('requestPairingCode')).toHaveLength(1)
  })

  test('requestPairingCode() starts the session and resolves with the code', async () => {
    const t = setup()
    const code = t.session.requestPairingCode('5511900000000')
    await settle()
    t.f.current.sim.qr()
    expect(await code).toBe('ABCD1234')
  })

  // Changed with issue 20 defect 9: a pong (`sim.frame()`, an iq) no longer counts as life; a delivery does.
  test('the watchdog recycles a socket nothing is delivered to; pongs do not keep it, a delivery does', async () => {
    const t = await connected({ session: { watchdogMs: 10 * 60_000 } })
    const first = t.f.current
    t.clock.advance(6 * 60_000)
    first.ws.emit('frame', { tag: 'receipt', attrs: { id: 'r1' } })
    t.clock.advance(6 * 60_000)
    await settle()
    expect(t.f.sockets).toHaveLength(1)
    for (let minute = 0; minute < 10; minute++) {
      first.sim.frame()
      t.clock.advance(60_000)
    }
    await settle()
    expect(t.f.sockets).toHaveLength(2)
    expect(first.closed).toBe(true)
    expect(t.of('status').at(-1)?.detail).toContain('watchdog')
    t.f.current.sim.open()
    await settle()
    expect(t.session.status).toBe('CONNECTED')
  })

  test('stop ends the socket without unlinking and cancels timers', async () => {
    const t = await connected()
    t.f.current.sim.close(428)
    await settle()
    expect(t.clock.pendingTimers).toBe(1)
    await t.session.stop()
    expect(t.clock.pendingTimers).toBe(0)
    expect(t.session.status).toBe('DISCONNECTED')
    expect(t.auth.clears).toBe(0)
    expect(t.auth.saved).toBeDefined()

    const u = await connected()
    const sock = u.f.current
    await u.session.stop()
    expect(sock.closed).toBe(true)
    expect(sock.callsOf('logout')).toEqual([])
    expect(u.f.sockets).toHaveLength(1)
  })

  test('stop hands over what Baileys still buffers before the socket ends (issue 20, defect 4)', async () => {
    const t = await connected()
    const sock = t.f.current
    // an offline burst Baileys took in (and acknowledged) but still holds in its buffer
    sock.ev.buffer()
    sock.ev.emit('messages.upsert', {
      type: 'append',
      messages: [
        {
          key: { remoteJid: CUSTOMER, fromMe: false, id: 'BUF1' },
          message: { conversation: 'guardada' },
          messageTimestamp: 1_700_000_000,
        },
      ],
    })
    await settle()
    expect(t.messages()).toEqual([])
    await t.session.stop()
    expect(t.messages().map((m) => [m.ref.id, m.body])).toEqual([['BUF1', 'guardada']])
    expect(sock.closed).toBe(true)
  })

  test('logout unlinks and wipes the credentials', async () => {
    const t = await connected()
    const sock = t.f.current
    await t.session.logout()
    await settle()
    expect(sock.callsOf('logout')).toHaveLength(1)
    expect(t.auth.clears).toBe(1)
    expect(t.auth.saved).toBeUndefined()
    expect(t.session.status).toBe('DISCONNECTED')
    expect(t.f.sockets).toHaveLength(1)
  })

  test('the provider builds sessions on the injected auth state and socket', async () => {
    const clock = new ManualClock()
    const auth = memoryAuth()
    const f = fakeSocketFactory({ auto: true })
    const provider = createBaileysProvider({
      log: silentLogger,
      clock,
      authState: async () => auth.load(),
      socketFactory: f.factory,
      fetchVersion: null,
    })
    const session = provider({ id: 3, companyId: 1, name: 'Loja' })
    expect(session.connectionId).toBe(3)
    const qrs: string[] = []
    session.on((e) => {
      if (e.t === 'qr') qrs.push(e.qr)
    })
    await session.start()
    await settle()
    expect(qrs).toHaveLength(1)
    await session.stop()
  })
})

describe('BaileysChannelSession: status reasons and the retry bound', () => {
  test('each stop says why: logged out, banned, replaced, incompatible; an unscanned QR is qr_timeout', async () => {
    for (const [code, reason] of [
      [401, 'logged_out'],
      [403, 'banned'],
      [440, 'replaced'],
      [411, 'incompatible'],
    ] as const) {
      const t = await connected()
      t.f.current.sim.close(code, 'Connection Failure')
      await settle()
      expect(t.of('status').at(-1)).toMatchObject({
        status: 'DISCONNECTED',
        reason: code,
        statusReason: reason,
      })
    }
    const t = setup()
    await t.session.start()
    t.f.current.sim.qr()
    await settle()
    t.f.current.sim.close(408, 'QR refs attempts ended')
    await settle()
    expect(t.of('status').at(-1)).toMatchObject({ status: 'TIMEOUT', statusReason: 'qr_timeout' })
  })

  test('while it retries it says why, and a connection clears the reason', async () => {
    const t = await connected()
    t.f.current.sim.close(408, 'Connection Lost')
    await settle()
    expect(t.of('status').at(-1)).toMatchObject({ status: 'OPENING', statusReason: 'no_network' })
    t.clock.advance(t.clock.delays()[0]!)
    await settle()
    t.f.current.sim.close(503, 'Service Unavailable')
    await settle()
    expect(t.of('status').at(-1)).toMatchObject({ status: 'OPENING', statusReason: 'unavailable' })
    t.clock.advance(t.clock.delays()[0]!)
    await settle()
    t.f.current.sim.open()
    await settle()
    expect(t.of('status').at(-1)?.status).toBe('CONNECTED')
    expect(t.of('status').at(-1)?.statusReason).toBeUndefined()
  })

  test('after maxRetries failures in a row it shows DISCONNECTED with the reason and keeps retrying slowly', async () => {
    // Issue 20, defect 10: it used to stop for good here ("gave up"), so a night without internet left the
    // number offline until someone noticed.
    const t = setup({ session: { maxRetries: 3 } })
    await t.session.start()
    for (let attempt = 1; attempt <= 3; attempt++) {
      t.f.current.sim.close(408, 'Connection Lost')
      await settle()
      expect(t.session.status).toBe('OPENING')
      t.clock.advance(t.clock.delays()[0]!)
      await settle()
    }
    expect(t.f.sockets).toHaveLength(4)
    t.f.current.sim.close(408, 'Connection Lost')
    await settle()
    expect(t.session.status).toBe('DISCONNECTED')
    const last = t.of('status').at(-1)
    expect(last).toMatchObject({ status: 'DISCONNECTED', reason: 408, statusReason: 'no_network' })
    expect(last?.detail).toContain('3 attempts failed, retrying every 5 min')
    expect(last?.retryInMs).toBe(SLOW_RETRY_MS)
    expect(t.clock.delays()).toEqual([SLOW_RETRY_MS])
    t.clock.advance(SLOW_RETRY_MS)
    await settle()
    expect(t.f.sockets).toHaveLength(5)
    t.f.current.sim.close(428, 'Connection Closed')
    await settle()
    expect(t.clock.delays()).toEqual([SLOW_RETRY_MS])
    expect(t.auth.clears).toBe(0)

    // a person retries meanwhile: a new socket at once, and the count starts over
    await t.session.start()
    expect(t.f.sockets).toHaveLength(6)
    expect(t.clock.pendingTimers).toBe(0)
    t.f.current.sim.open()
    await settle()
    expect(t.session.status).toBe('CONNECTED')
    t.f.current.sim.close(428)
    await settle()
    expect(t.clock.delays()).toEqual([1000])
  })

  test('the default bound turns to slow retries within minutes, and WhatsApp coming back connects', async () => {
    const t = setup()
    await t.session.start()
    let waited = 0
    while (t.session.status === 'OPENING' && t.f.sockets.length < 50) {
      t.f.current.sim.close(428, 'Connection Closed')
      await settle()
      const delay = t.clock.delays()[0]
      if (delay === undefined || t.session.status !== 'OPENING') break
      waited += delay
      t.clock.advance(delay)
      await settle()
    }
    expect(t.session.status).toBe('DISCONNECTED')
    expect(t.f.sockets).toHaveLength(11)
    expect(waited).toBeLessThan(10 * 60_000)
    expect(t.clock.delays()).toEqual([SLOW_RETRY_MS])
    t.clock.advance(SLOW_RETRY_MS)
    await settle()
    expect(t.f.sockets).toHaveLength(12)
    t.f.current.sim.open()
    await settle()
    expect(t.session.status).toBe('CONNECTED')
  })
})

describe('BaileysChannelSession: inbound', () => {
  test('text, with push name and raw', async () => {
    const t = await connected()
    t.f.current.sim.inbound({ from: CUSTOMER, id: 'IN1', notify: 'Maria' }, { conversation: 'Olá' })
    await settle()
    const [m] = t.messages()
    expect(m).toMatchObject({
      ref: { id: 'IN1', chatJid: CUSTOMER, fromMe: false },
      chat: { jid: CUSTOMER, pn: '5511988887777' },
      pushName: 'Maria',
      body: 'Olá',
      offline: false,
    })
    expect(proto.WebMessageInfo.decode(m?.raw as Uint8Array).message?.conversation).toBe('Olá')
  })

  test('image: the download closure returns the decrypted bytes', async () => {
    const t = await connected()
    const bytes = Buffer.from('a jpeg, honestly')
    const content = await t.f.current.sim.mediaContent({ image: bytes, caption: 'foto' })
    t.f.current.sim.inbound({ from: CUSTOMER, id: 'IMG1' }, content)
    await settle()
    const [m] = t.messages()
    expect(m?.media).toMatchObject({ kind: 'image', caption: 'foto', mimetype: 'image/jpeg' })
    expect(Buffer.from((await m?.media?.download()) as Uint8Array).toString()).toBe('a jpeg, honestly')
  })

  test('a failing download is ERR_WAPP_DOWNLOAD_MEDIA', async () => {
    const t = await connected()
    const content = await t.f.current.sim.mediaContent({ image: Buffer.from('x') })
    t.f.current.media.clear()
    t.f.current.sim.inbound({ from: CUSTOMER, id: 'IMG2' }, content)
    await settle()
    const err = await t
      .messages()[0]
      ?.media?.download()
      .catch((e) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).code).toBe('ERR_WAPP_DOWNLOAD_MEDIA')
  })

  test('voice note (ptt)', async () => {
    const t = await connected()
    const content = await t.f.current.sim.mediaContent({
      audio: Buffer.from('OggS'),
      ptt: true,
      mimetype: 'audio/ogg; codecs=opus',
    })
    t.f.current.sim.inbound({ from: CUSTOMER, id: 'PTT1' }, content)
    await settle()
    expect(t.messages()[0]?.media).toMatchObject({
      kind: 'audio',
      ptt: true,
      mimetype: 'audio/ogg; codecs=opus',
    })
  })

  test('reply, reaction, edit and revoke', async () => {
    const t = await connected()
    const sim = t.f.current.sim
    const ourRef = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'Seu pedido saiu' })
    await settle()
    sim.inbound(
      { from: CUSTOMER, id: 'R1' },
      {
        extendedTextMessage: {
          text: 'Obrigada',
          contextInfo: {
            stanzaId: ourRef.id,
            participant: '5511900000000@s.whatsapp.net',
            quotedMessage: { conversation: 'Seu pedido saiu' },
          },
        },
      },
    )
    // as the customer's phone addresses our message: in the chat with us, not from them
    sim.react(
      { from: CUSTOMER },
      { remoteJid: '5511900000000@s.whatsapp.net', id: ourRef.id, fromMe: false },
      '👍',
    )
    sim.edit({ from: CUSTOMER }, { remoteJid: CUSTOMER, id: 'R1', fromMe: true }, 'Obrigada!!')
    sim.revoke({ from: CUSTOMER }, { remoteJid: CUSTOMER, id: 'R1', fromMe: true })
    await settle()
    expect(t.messages().map((m) => m.ref.id)).toEqual(['R1'])
    expect(t.messages()[0]?.quoted).toEqual({ id: ourRef.id, chatJid: CUSTOMER, fromMe: true })
    expect(t.of('reaction')).toMatchObject([
      {
        target: { id: ourRef.id, chatJid: CUSTOMER, fromMe: true },
        emoji: '👍',
        fromMe: false,
        from: { jid: CUSTOMER },
      },
    ])
    expect(t.of('edit')).toMatchObject([
      { ref: { id: 'R1', chatJid: CUSTOMER, fromMe: false }, body: 'Obrigada!!' },
    ])
    expect(t.of('delete')).toEqual([{ t: 'delete', ref: { id: 'R1', chatJid: CUSTOMER, fromMe: false } }])
  })

  test('LID chat: PN from remoteJidAlt, or from the LID mapping store', async () => {
    const t = await connected()
    const sim = t.f.current.sim
    sim.inbound(
      { from: CUSTOMER_LID, id: 'L1', addressing_mode: 'lid', sender_pn: CUSTOMER },
      { conversation: 'a' },
    )
    await settle()
    expect(t.messages()[0]?.chat).toEqual({ jid: CUSTOMER_LID, lid: CUSTOMER_LID, pn: '5511988887777' })

    const other = '777777777777777@lid'
    sim.inbound({ from: other, id: 'L2' }, { conversation: 'b' })
    await settle()
    sim.lidMapping(other, OTHER)
    sim.inbound({ from: other, id: 'L3' }, { conversation: 'c' })
    await settle()
    const [, l2, l3] = t.messages()
    expect(l2?.chat).toEqual({ jid: other, lid: other })
    expect(l3?.chat).toEqual({ jid: other, lid: other, pn: '5511977776666' })
    expect(t.of('lidMapping')).toEqual([{ t: 'lidMapping', lid: other, pn: '5511977776666' }])
  })

  test('append: offline replay and phone-sent messages are delivered, marked offline', async () => {
    const t = await connected()
    const sim = t.f.current.sim
    sim.inbound({ from: CUSTOMER, id: 'OFF1', offline: '1' }, { conversation: 'enquanto offline' })
    sim.inbound(
      { from: '5511900000000:0@s.whatsapp.net', recipient: CUSTOMER, id: 'PH1' },
      { conversation: 'do celular' },
      'append',
    )
    await settle()
    expect(t.messages().map((m) => [m.ref.id, m.offline, m.ref.fromMe])).toEqual([
      ['OFF1', true, false],
      ['PH1', true, true],
    ])
  })

  test('our own send echoes (append) are not delivered as messages', async () => {
    const t = await connected()
    await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'oi' })
    await settle()
    expect(t.messages()).toEqual([])
  })

  test('undecryptable placeholder', async () => {
    const t = await connected()
    t.f.current.sim.undecryptable({ from: CUSTOMER, id: 'BAD1' })
    await settle()
    expect(t.messages()[0]).toMatchObject({ ref: { id: 'BAD1' }, undecryptable: true })
  })

  test('receipts 2, 3, 4 become acks 1, 2, 4; group receipts per participant', async () => {
    const t = await connected()
    const sim = t.f.current.sim
    const ref = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'oi' })
    await settle()
    const key = { remoteJid: CUSTOMER, id: ref.id, fromMe: true }
    sim.ack(key, 2)
    await settle()
    sim.ack(key, 3)
    await settle()
    sim.ack(key, 4)
    await settle()
    expect(t.of('ack').map((a) => a.ack)).toEqual([1, 2, 4])
    expect(t.of('ack')[0]?.ref).toEqual({ id: ref.id, chatJid: CUSTOMER, fromMe: true })

    const g = await t.session.send({ jid: GROUP }, { kind: 'text', body: 'grupo' })
    await settle()
    const gkey = { remoteJid: GROUP, id: g.id, fromMe: true, participant: '5511900000000@s.whatsapp.net' }
    sim.receipt(gkey, CUSTOMER, 'delivery')
    await settle()
    sim.receipt(gkey, OTHER, 'read')
    await settle()
    expect(t.of('ack').slice(3)).toMatchObject([
      { ack: 2, participant: CUSTOMER, ref: { id: g.id, chatJid: GROUP } },
      { ack: 4, participant: OTHER, ref: { id: g.id, chatJid: GROUP } },
    ])
  })
})

describe('BaileysChannelSession: outbound', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'balcao-baileys-'))
  const file = (name: string, content: string) => {
    const path = join(tmp, name)
    writeFileSync(path, content)
    return path
  }

  test('sending while not connected is ERR_WAPP_NOT_INITIALIZED', async () => {
    const t = setup()
    const before = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'x' }).catch((e) => e)
    expect(before).toBeInstanceOf(AppError)
    expect((before as AppError).code).toBe('ERR_WAPP_NOT_INITIALIZED')
    await t.session.start()
    t.f.current.sim.qr()
    await settle()
    const during = await t.session.react({ id: 'x', chatJid: CUSTOMER, fromMe: false }, '👍').catch((e) => e)
    expect((during as AppError).code).toBe('ERR_WAPP_NOT_INITIALIZED')
    const c = await connected()
    c.f.current.sim.close(401)
    await settle()
    const after = await c.session.checkNumbers(['5511988887777']).catch((e) => e)
    expect((after as AppError).code).toBe('ERR_WAPP_NOT_INITIALIZED')
  })

  test('text, and a quoted reply built from the raw message', async () => {
    const t = await connected()
    const sock = t.f.current
    sock.sim.inbound({ from: CUSTOMER, id: 'Q1' }, { conversation: 'Qual o preço?' })
    await settle()
    const ref = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'R$ 10' })
    expect(ref).toMatchObject({ chatJid: CUSTOMER, fromMe: true })
    expect(
      sock.sent[0]?.message.message?.conversation ?? sock.sent[0]?.message.message?.extendedTextMessage?.text,
    ).toBe('R$ 10')
    await t.session.send(
      { jid: CUSTOMER },
      { kind: 'text', body: 'Dez reais' },
      { quoted: { id: 'Q1', chatJid: CUSTOMER, fromMe: false } },
    )
    const reply = sock.sent[1]?.message.message?.extendedTextMessage
    expect(reply?.text).toBe('Dez reais')
    expect(reply?.contextInfo?.stanzaId).toBe('Q1')
    expect(reply?.contextInfo?.participant).toBe(CUSTOMER)
    expect(reply?.contextInfo?.quotedMessage?.conversation).toBe('Qual o preço?')
  })

  test('image from a file (real encryption round trip), document, audio ptt', async () => {
    const t = await connected()
    const sock = t.f.current
    const img = file('foto.jpg', 'image bytes from disk')
    await t.session.send(
      { jid: CUSTOMER },
      { kind: 'image', path: img, mimetype: 'image/jpeg', caption: 'Cardápio' },
    )
    const image = sock.sent[0]?.message as WAMessage
    expect(sock.sent[0]?.content).toMatchObject({ image: { url: img }, caption: 'Cardápio' })
    expect(image.message?.imageMessage).toMatchObject({ caption: 'Cardápio', mimetype: 'image/jpeg' })
    expect(Buffer.from(await downloadFromFake(sock, image)).toString()).toBe('image bytes from disk')

    const pdf = file('boleto.pdf', '%PDF-1.4')
    await t.session.send(
      { jid: CUSTOMER },
      { kind: 'document', path: pdf, mimetype: 'application/pdf', fileName: 'Boleto.pdf' },
    )
    expect(sock.sent[1]?.message.message?.documentMessage).toMatchObject({
      fileName: 'Boleto.pdf',
      mimetype: 'application/pdf',
    })

    const ogg = file('voz.ogg', 'OggS')
    await t.session.send(
      { jid: CUSTOMER },
      { kind: 'audio', path: ogg, mimetype: 'audio/ogg; codecs=opus', ptt: true },
    )
    expect(sock.sent[2]?.message.message?.audioMessage).toMatchObject({
      ptt: true,
      mimetype: 'audio/ogg; codecs=opus',
    })
  })

  test('location and contact card', async () => {
    const t = await connected()
    const sock = t.f.current
    await t.session.send(
      { jid: CUSTOMER },
      { kind: 'location', latitude: -23.55, longitude: -46.63, name: 'Loja', address: 'Rua A, 1' },
    )
    expect(sock.sent[0]?.message.message?.locationMessage).toMatchObject({
      degreesLatitude: -23.55,
      degreesLongitude: -46.63,
      name: 'Loja',
      address: 'Rua A, 1',
    })
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD'
    await t.session.send({ jid: CUSTOMER }, { kind: 'contacts', contacts: [{ displayName: 'João', vcard }] })
    expect(sock.sent[1]?.message.message?.contactMessage).toMatchObject({ displayName: 'João', vcard })
  })

  test('react, edit (protocolMessage 14), delete (REVOKE 0), forward (forwardingScore)', async () => {
    const t = await connected()
    const sock = t.f.current
    sock.sim.inbound({ from: CUSTOMER, id: 'F1' }, { conversation: 'encaminhe isto' })
    await settle()
    const raw = t.messages()[0]?.raw as Uint8Array
    const ours = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'errado' })

    await t.session.react({ id: 'F1', chatJid: CUSTOMER, fromMe: false }, '❤️')
    expect(sock.sent[1]?.message.message?.reactionMessage).toMatchObject({ text: '❤️', key: { id: 'F1' } })

    await t.session.edit(ours, 'certo')
    const edit = sock.sent[2]?.message.message?.protocolMessage
    expect(edit?.type).toBe(proto.Message.ProtocolMessage.Type.MESSAGE_EDIT)
    expect(edit?.type).toBe(14)
    expect(edit?.key?.id).toBe(ours.id)
    expect(edit?.editedMessage?.conversation ?? edit?.editedMessage?.extendedTextMessage?.text).toBe('certo')

    await t.session.deleteForEveryone(ours)
    const revoke = sock.sent[3]?.message.message?.protocolMessage
    expect(revoke?.type).toBe(0)
    expect(revoke?.key?.id).toBe(ours.id)

    const fwd = await t.session.forward({ jid: OTHER }, { id: 'F1', chatJid: CUSTOMER, fromMe: false }, raw)
    expect(fwd.chatJid).toBe(OTHER)
    const forwarded = sock.sent[4]?.message.message
    const text = forwarded?.conversation ?? forwarded?.extendedTextMessage?.text
    expect(text).toBe('encaminhe isto')
    expect(forwarded?.extendedTextMessage?.contextInfo?.forwardingScore).toBe(1)
    expect(sock.sent[4]?.jid).toBe(OTHER)

    await settle()
    // our own edit/delete echo back as update events for our message (idempotent for the inbox)
    expect(t.of('edit').map((e) => e.ref.id)).toEqual([ours.id])
    expect(t.of('delete').map((e) => e.ref.id)).toEqual([ours.id])
  })

  test('markRead, checkNumbers, profile pictures (401/404 -> null)', async () => {
    const t = await connected({
      fake: { pictures: { [CUSTOMER]: 'https://pps.whatsapp.net/x.jpg', [OTHER]: 'private' } },
    })
    const sock = t.f.current
    await t.session.markRead([{ id: 'A', chatJid: CUSTOMER, fromMe: false }])
    expect(sock.callsOf('readMessages')).toEqual([[[{ remoteJid: CUSTOMER, id: 'A', fromMe: false }]]])
    expect(await t.session.checkNumbers(['+55 11 98888-7777', '5511988887770'])).toEqual([
      { phone: '+55 11 98888-7777', exists: true, jid: CUSTOMER },
      { phone: '5511988887770', exists: false },
    ])
    expect(await t.session.profilePictureUrl({ jid: CUSTOMER })).toBe('https://pps.whatsapp.net/x.jpg')
    expect(await t.session.profilePictureUrl({ jid: OTHER })).toBeNull()
    expect(await t.session.profilePictureUrl({ jid: '5511955554444@s.whatsapp.net' })).toBeNull()
  })

  test('outbound work runs one at a time, in call order', async () => {
    const t = await connected()
    const sock = t.f.current
    const original = sock.sendMessage
    let active = 0
    let maxActive = 0
    sock.sendMessage = async (...args) => {
      active += 1
      maxActive = Math.max(maxActive, active)
      await settle(2)
      try {
        return await original(...args)
      } finally {
        active -= 1
      }
    }
    await Promise.all(
      ['1', '2', '3', '4'].map((body) => t.session.send({ jid: CUSTOMER }, { kind: 'text', body })),
    )
    expect(maxActive).toBe(1)
    expect(
      sock.sent.map((s) => s.message.message?.conversation ?? s.message.message?.extendedTextMessage?.text),
    ).toEqual(['1', '2', '3', '4'])
  })

  test('getMessage answers retries from what the session sent or saw, undefined on a miss', async () => {
    const loads: string[] = []
    const t = await connected({
      session: {
        messageStore: {
          load: async (_id, msgId) => {
            loads.push(msgId)
            return undefined
          },
        },
      },
    })
    const ref = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'guardada' })
    const getMessage = t.f.current.config.getMessage
    const hit = await getMessage?.({ remoteJid: CUSTOMER, id: ref.id, fromMe: true })
    expect(hit?.conversation ?? hit?.extendedTextMessage?.text).toBe('guardada')
    expect(await getMessage?.({ remoteJid: CUSTOMER, id: 'NOPE', fromMe: true })).toBeUndefined()
    expect(loads).toEqual(['NOPE'])
  })

  test('every send is kept in the message store as it returns (retries after a restart)', async () => {
    const kept = new Map<string, Uint8Array>()
    const t = await connected({
      session: {
        messageStore: {
          load: async (_id, msgId) => kept.get(msgId),
          keepSent: (_id, msgId, raw) => void kept.set(msgId, raw),
        },
      },
    })
    const ref = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'durável' })
    await t.session.react(ref, '👍')
    expect(kept.size).toBe(2)
    // A new session (a restart) finds what the old one sent.
    const again = await connected({
      session: { messageStore: { load: async (_id, msgId) => kept.get(msgId) } },
    })
    const hit = await again.f.current.config.getMessage?.({ remoteJid: CUSTOMER, id: ref.id, fromMe: true })
    expect(hit?.conversation ?? hit?.extendedTextMessage?.text).toBe('durável')
  })

  test("a send resolves on the server's ack; an error ack fails it with WhatsApp's code", async () => {
    const t = await connected()
    const sock = t.f.current
    const ok = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'ok' })
    expect(ok.serverAck).toBeUndefined()
    sock.sim.ackError('479')
    const refused = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'não' }).catch((e) => e)
    expect(refused).toBeInstanceOf(AppError)
    expect(refused).toMatchObject({ code: 'ERR_WAPP_REJECTED' })
    expect((refused as AppError).message).toContain('479')
    sock.sim.ackError('463')
    const restricted = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'não' }).catch((e) => e)
    expect(restricted).toMatchObject({ code: 'ERR_WAPP_RESTRICTED' })
  })

  test('a send the server never acknowledges resolves after the timeout, marked not acknowledged', async () => {
    const t = await connected({ session: { serverAckTimeoutMs: 5_000 } })
    const sock = t.f.current
    sock.ws.removeAllListeners('CB:ack,class:message')
    const emit = sock.ws.emit.bind(sock.ws)
    // The server's ack never comes.
    sock.ws.emit = (event: string | symbol, ...args: unknown[]) =>
      event === 'CB:ack,class:message' ? false : emit(event, ...args)
    const pending = t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'sem ack' })
    await settle()
    await t.clock.tick(5_000)
    expect(await pending).toMatchObject({ fromMe: true, serverAck: false })
    // issue 20 defect 9: nothing else reached the socket meanwhile, so it is deaf: recycled at once
    await settle()
    expect(t.f.sockets).toHaveLength(2)
    expect(sock.closed).toBe(true)
    expect(t.of('status').at(-1)?.detail).toContain('no server ack')
  })

  test('a send without a server ack on a socket that keeps receiving is not a deaf socket: no recycle', async () => {
    const t = await connected({ session: { serverAckTimeoutMs: 5_000 } })
    const sock = t.f.current
    sock.ws.removeAllListeners('CB:ack,class:message')
    const emit = sock.ws.emit.bind(sock.ws)
    sock.ws.emit = (event: string | symbol, ...args: unknown[]) =>
      event === 'CB:ack,class:message' ? false : emit(event, ...args)
    const pending = t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'sem ack' })
    await settle()
    sock.ws.emit('frame', { tag: 'message', attrs: { id: 'in-1' } })
    await t.clock.tick(5_000)
    expect(await pending).toMatchObject({ serverAck: false })
    await settle()
    expect(t.f.sockets).toHaveLength(1)
  })

  test('a send cut by the socket closing (428) is ERR_WAPP_NOT_INITIALIZED: nothing left, it may go again', async () => {
    const t = await connected()
    const sock = t.f.current
    sock.sendMessage = async () => {
      throw boom('Connection Closed', 428)
    }
    const cut = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'x' }).catch((e) => e)
    expect(cut).toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' })
    sock.sendMessage = async () => {
      // Baileys's queries reject with the WebSocket's bare close code when the socket closes under them
      throw 1006
    }
    const closed = await t.session.send({ jid: CUSTOMER }, { kind: 'text', body: 'x' }).catch((e) => e)
    expect(closed).toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' })
  })

  test("WhatsApp's reach-out time lock becomes a restriction event with its end", async () => {
    const t = await connected()
    const ends = new Date(Date.now() + 3_600_000)
    t.f.current.sim.emit('connection.update', {
      reachoutTimeLock: { isActive: true, timeEnforcementEnds: ends },
    })
    t.f.current.sim.emit('connection.update', { reachoutTimeLock: { isActive: false } })
    await settle()
    const restrictions = t.events.filter((e) => e.t === 'restriction')
    expect(restrictions).toEqual([
      expect.objectContaining({ t: 'restriction', active: true, until: ends.getTime() }),
      { t: 'restriction', active: false },
    ])
  })
})

describe('BaileysChannelSession: stored media and history sync', () => {
  test('downloadMedia from a stored raw; an expired file says so; reuploadMedia asks the phone', async () => {
    const { encodeWAMessage } = await import('../normalize')
    const t = await connected()
    const sock = t.f.current
    const path = join(mkdtempSync(join(tmpdir(), 'balcao-media-')), 'nota.jpg')
    writeFileSync(path, 'nota fiscal')
    await t.session.send({ jid: CUSTOMER }, { kind: 'image', path, mimetype: 'image/jpeg' })
    const raw = encodeWAMessage(sock.sent[0]?.message as WAMessage)
    expect(Buffer.from(await t.session.downloadMedia(raw)).toString()).toBe('nota fiscal')

    sock.media.clear()
    const expired = await t.session.downloadMedia(raw).catch((e: AppError) => e)
    expect(expired).toBeInstanceOf(AppError)
    expect(expired).toMatchObject({ code: 'ERR_WAPP_DOWNLOAD_MEDIA', details: { expired: true } })

    const fresh = await t.session.reuploadMedia(raw)
    expect(sock.callsOf('updateMediaMessage')).toHaveLength(1)
    expect(fresh).toBeInstanceOf(Uint8Array)
    await expect(t.session.downloadMedia(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({
      code: 'ERR_WAPP_DOWNLOAD_MEDIA',
    })
  })

  test('messaging-history.set becomes a history chunk (oldest first, as offline messages) with its progress', async () => {
    const t = await connected()
    const msg = (id: string, seconds: number, text: string): WAMessage => ({
      key: { remoteJid: CUSTOMER, fromMe: false, id },
      messageTimestamp: seconds,
      pushName: 'Cliente',
      message: { conversation: text },
    })
    t.f.current.ev.emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [msg('H2', 1_700_000_100, 'segunda'), msg('H1', 1_700_000_000, 'primeira')],
      isLatest: true,
      progress: 100,
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
    })
    await settle()
    const [chunk] = t.of('history')
    expect(chunk).toMatchObject({
      progress: 100,
      complete: true,
      isLatest: true,
      syncType: 'INITIAL_BOOTSTRAP',
    })
    expect(chunk?.messages.map((m) => [m.body, m.timestamp, m.offline])).toEqual([
      ['primeira', 1_700_000_000_000, true],
      ['segunda', 1_700_000_100_000, true],
    ])
  })
})
