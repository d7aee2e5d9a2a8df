import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_CONNECTION_CONFIG, initAuthCreds } from '@whiskeysockets/baileys'
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys/lib/Defaults/index.js'
import { loadConfig } from '../../config'
import { silentLogger } from '../../logger'
import { createHarness } from '../../test/harness'
import { buildProviders } from '../providers'
import type { ChannelProvider } from '../types'
import { createBaileysProvider } from './provider'
import {
  connectToWaSimulator,
  fetchSimulatorRoot,
  parseWaSimulatorUrl,
  simulatorUrlFor,
  type WaSimulator,
} from './simulator'
import { fakeSocketFactory, settle } from './testing/fake-socket'

const WHATSAPP_ROOT_KEY = '142375574d0a587166aae71ebe516437c4a28b73e3695c6ce1f7f9545da8ee6b'
const REPO = join(import.meta.dir, '..', '..', '..', '..')

/** A stand-in for the simulator: /control/root, a media path, and WebSocket upgrades it records. */
type Stub = {
  server: ReturnType<typeof Bun.serve>
  sim: WaSimulator
  upgrades: string[]
  mediaGets: string[]
  /** Resolves at the next WebSocket upgrade. */
  nextUpgrade(): Promise<string>
}
const upgradeWaiters: ((path: string) => void)[] = []
let root = { publicKey: Buffer.alloc(32, 7).toString('base64'), serial: 42 } as unknown
let stub: Stub

beforeAll(() => {
  const upgrades: string[] = []
  const mediaGets: string[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req, srv) {
      const url = new URL(req.url)
      if (url.pathname === '/control/root') return Response.json(root)
      if (url.pathname.startsWith('/v/')) {
        mediaGets.push(`${url.pathname}${url.search}`)
        return new Response('media bytes')
      }
      if (srv.upgrade(req)) {
        upgrades.push(url.pathname)
        for (const wake of upgradeWaiters.splice(0)) wake(url.pathname)
        return undefined
      }
      return new Response('not here', { status: 404 })
    },
    websocket: {
      open(ws) {
        ws.close(1000, 'stub')
      },
      message() {},
    },
  })
  stub = {
    server,
    sim: parseWaSimulatorUrl(`ws://127.0.0.1:${server.port}/ws/chat`),
    upgrades,
    mediaGets,
    nextUpgrade: () => new Promise((resolve) => upgradeWaiters.push(resolve)),
  }
})

afterAll(() => {
  stub.server.stop(true)
})

describe('--wa-simulator', () => {
  test('parses a loopback ws URL, from the flag or BALCAO_WA_SIMULATOR', () => {
    expect(parseWaSimulatorUrl('ws://127.0.0.1:7000')).toEqual({
      url: 'ws://127.0.0.1:7000/',
      httpOrigin: 'http://127.0.0.1:7000',
      host: '127.0.0.1:7000',
    })
    expect(parseWaSimulatorUrl('ws://localhost:7000/ws/chat').url).toBe('ws://localhost:7000/ws/chat')
    expect(parseWaSimulatorUrl('ws://[::1]:7000').httpOrigin).toBe('http://[::1]:7000')
    expect(loadConfig({ waSimulator: 'ws://127.0.0.1:7001' }, {}).waSimulator?.host).toBe('127.0.0.1:7001')
    expect(loadConfig({}, { BALCAO_WA_SIMULATOR: 'ws://127.0.0.1:7002' }).waSimulator?.host).toBe(
      '127.0.0.1:7002',
    )
    expect(loadConfig({}, {}).waSimulator).toBeUndefined()
  })

  test('refuses a simulator elsewhere than this machine, and anything not ws://', () => {
    for (const bad of ['ws://10.0.0.5:7000', 'ws://example.com:7000', 'ws://127.0.0.1.nip.io:7000']) {
      expect(() => parseWaSimulatorUrl(bad)).toThrow(/must run on this machine/)
      expect(() => loadConfig({}, { BALCAO_WA_SIMULATOR: bad })).toThrow(/must run on this machine/)
    }
    for (const bad of ['wss://127.0.0.1:7000', 'http://127.0.0.1:7000', 'not a url'])
      expect(() => parseWaSimulatorUrl(bad)).toThrow(/--wa-simulator/)
  })

  test('a normal process trusts WhatsApp only and leaves fetch alone', async () => {
    const h = await createHarness()
    buildProviders({ db: h.deps.db, sqlite: h.deps.sqlite, clock: h.clock, log: silentLogger }, null)
    expect(WA_CERT_DETAILS.PUBLIC_KEY.toString('hex')).toBe(WHATSAPP_ROOT_KEY)
    expect(WA_CERT_DETAILS.SERIAL).toBe(0)
    const admin = await h.as(h.a.admin)
    await admin.post('/whatsapp', { name: 'Principal' })
    const [connection] = (await admin.get('/whatsapp')).body as Record<string, unknown>[]
    expect(connection).toMatchObject({ provider: 'beta' })
    expect(connection).not.toHaveProperty('simulated')
  })

  test('with the simulator answering /control/root, the process trusts its key and routes WhatsApp media to it', async () => {
    const originalFetch = globalThis.fetch
    const undo = await connectToWaSimulator(stub.sim, silentLogger)
    try {
      expect(WA_CERT_DETAILS.PUBLIC_KEY).toEqual(Buffer.alloc(32, 7))
      expect(WA_CERT_DETAILS.SERIAL).toBe(42)
      // Baileys's download and upload URLs (getUrlFromDirectPath, getWAUploadToServer) reach the stub over http.
      expect(await (await fetch('https://mmg.whatsapp.net/v/t62/a.enc?oh=1')).text()).toBe('media bytes')
      expect(await (await fetch(`https://${stub.sim.host}/v/t62/b.enc`)).text()).toBe('media bytes')
      expect(stub.mediaGets).toEqual(['/v/t62/a.enc?oh=1', '/v/t62/b.enc'])
    } finally {
      undo()
    }
    expect(globalThis.fetch).toBe(originalFetch)
    expect(WA_CERT_DETAILS.PUBLIC_KEY.toString('hex')).toBe(WHATSAPP_ROOT_KEY)
  })

  test('only WhatsApp hosts and the simulator are rerouted', () => {
    const { sim } = stub
    expect(simulatorUrlFor(sim, 'https://mmg.whatsapp.net/v/x?y=1')).toBe(`${sim.httpOrigin}/v/x?y=1`)
    expect(simulatorUrlFor(sim, 'https://pps.whatsapp.net/v/p.jpg')).toBe(`${sim.httpOrigin}/v/p.jpg`)
    expect(simulatorUrlFor(sim, 'https://web.whatsapp.com/sw.js')).toBe(`${sim.httpOrigin}/sw.js`)
    expect(simulatorUrlFor(sim, `https://${sim.host}/mms/image/t?auth=a`)).toBe(
      `${sim.httpOrigin}/mms/image/t?auth=a`,
    )
    expect(simulatorUrlFor(sim, 'https://example.com/whatsapp.net')).toBeUndefined()
    expect(simulatorUrlFor(sim, 'https://evilwhatsapp.net/x')).toBeUndefined()
    expect(simulatorUrlFor(sim, 'http://127.0.0.1:1/x')).toBeUndefined()
  })

  test('a simulator that does not answer, or answers something else, stops the start with a reason', async () => {
    root = { publicKey: 'short', serial: 1 }
    try {
      await expect(fetchSimulatorRoot(stub.sim)).rejects.toThrow(/not \{publicKey/)
    } finally {
      root = { publicKey: Buffer.alloc(32, 7).toString('base64'), serial: 42 }
    }
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const port = closed.port
    closed.stop(true)
    await expect(fetchSimulatorRoot(parseWaSimulatorUrl(`ws://127.0.0.1:${port}`))).rejects.toThrow(
      /not answering/,
    )
    expect(WA_CERT_DETAILS.PUBLIC_KEY.toString('hex')).toBe(WHATSAPP_ROOT_KEY)
  })

  test('sessions of the provider connect to the simulator URL on the fixed WA Web version', async () => {
    const f = fakeSocketFactory()
    const provider = createBaileysProvider({
      log: silentLogger,
      clock: { now: () => 0 } as never,
      authState: async () => ({
        state: { creds: initAuthCreds(), keys: { get: async () => ({}), set: async () => {} } },
        saveCreds() {},
        clear() {},
      }),
      socketFactory: f.factory,
      fetchVersion: null,
      waWebSocketUrl: stub.sim.url,
      version: DEFAULT_CONNECTION_CONFIG.version,
    })
    const session = provider({ id: 1, companyId: 1 } as Parameters<ChannelProvider>[0])
    void session.start()
    await settle()
    expect(f.current.config.waWebSocketUrl).toBe(stub.sim.url)
    expect(f.current.config.version).toEqual(DEFAULT_CONNECTION_CONFIG.version)
    await session.stop()
  })

  test('the real Baileys socket of buildProviders dials the simulator, and the connections API marks it', async () => {
    const h = await createHarness()
    h.deps.waSimulator = stub.sim
    const providers = buildProviders(
      { db: h.deps.db, sqlite: h.deps.sqlite, clock: h.clock, log: silentLogger },
      null,
      stub.sim,
    )
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Simulada' })
    expect(body).toMatchObject({ provider: 'beta', simulated: true })
    expect((await admin.get('/whatsapp')).body[0]).toMatchObject({ simulated: true })

    const session = providers.beta!({ id: body.id, companyId: h.a.id } as Parameters<ChannelProvider>[0])
    const dialed = stub.nextUpgrade()
    void session.start()
    expect(await dialed).toBe('/ws/chat')
    await session.stop()
  })
})

describe('balcao serve --wa-simulator', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-wa-sim-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const spawnServe = (...args: string[]) =>
    Bun.spawn([process.execPath, 'src/main.ts', 'serve', '--data', dataDir, '--port', '0', ...args], {
      cwd: REPO,
      env: { ...process.env, BALCAO_LOG_FORMAT: 'json', BALCAO_BACKUP_KEEP: '0', BALCAO_WA_SIMULATOR: '' },
      stdout: 'pipe',
      stderr: 'pipe',
    })

  async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp) {
    let text = ''
    const decoder = new TextDecoder()
    for await (const chunk of stream) {
      text += decoder.decode(chunk, { stream: true })
      if (pattern.test(text)) return text
    }
    return text
  }

  test('says at start that sessions trust the simulator', async () => {
    const child = spawnServe('--wa-simulator', stub.sim.url)
    try {
      const both = Promise.race([
        readUntil(child.stderr, /sessions trust its key/),
        readUntil(child.stdout, /sessions trust its key/),
      ])
      expect(await both).toContain(`WhatsApp simulator at ${stub.sim.url}: sessions trust its key`)
    } finally {
      child.kill('SIGTERM')
      await child.exited
    }
  }, 30_000)

  test('does not start when the simulator does not answer', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const port = closed.port
    closed.stop(true)
    const child = spawnServe('--wa-simulator', `ws://127.0.0.1:${port}`)
    expect(await child.exited).toBe(1)
    expect(await new Response(child.stderr).text()).toContain('is not answering')
  }, 30_000)

  test('refuses a simulator that is not on this machine', async () => {
    const child = spawnServe('--wa-simulator', 'ws://192.168.0.10:7000')
    expect(await child.exited).toBe(1)
    expect(await new Response(child.stderr).text()).toContain('must run on this machine')
  }, 30_000)
})
