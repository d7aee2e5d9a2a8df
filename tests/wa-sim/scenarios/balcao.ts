/**
 * The scenario harness: the simulator, and Balcão (src/server/test/harness.ts) with its REAL `beta` provider
 * (BaileysChannelSession over makeWASocket) pointed at it, trusted the way `serve --wa-simulator` trusts it
 * (src/server/channels/baileys/simulator.ts). A scenario drives Balcão through its API (as an admin) and the
 * simulated phone through the control API, and waits on Balcão's live events, never on sleeps.
 * Balcão runs on the harness's manual clock: the session's own timers (reconnect backoff, watchdog) fire only
 * when a scenario moves it (`balcao.clock.tick(ms)`); Baileys's timers are real and kept short.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_CONNECTION_CONFIG, makeWASocket, type WASocket } from '@whiskeysockets/baileys'
import { createBaileysProvider } from '../../../src/server/channels/baileys/provider'
import type { SocketTimeouts } from '../../../src/server/channels/baileys/session'
import { connectToWaSimulator, parseWaSimulatorUrl } from '../../../src/server/channels/baileys/simulator'
import { storedMessages } from '../../../src/server/channels/providers'
import type { ChannelProvider } from '../../../src/server/channels/types'
import { silentLogger } from '../../../src/server/logger'
import { createHarness } from '../../../src/server/test/harness'
import type { WhatsappDto } from '../../../src/shared/api'
import { type RunningSimulator, startSimulator } from '../start'

/** Baileys timers for scenarios: answers come from loopback at once; a QR lives `qrTimeout`. */
export const SCENARIO_TIMEOUTS: SocketTimeouts = { connectTimeoutMs: 5_000, defaultQueryTimeoutMs: 5_000 }

export type LinkAnswer = { linked: boolean; reason?: string; jid?: string; device?: number }

/** The simulator, trusted by this process as `serve --wa-simulator` trusts it. */
export async function startScenarioSimulator() {
  const running: RunningSimulator = await startSimulator()
  const target = parseWaSimulatorUrl(running.wsUrl)
  const untrust = await connectToWaSimulator(target, silentLogger)
  let phones = 0

  const control = async <T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${running.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await response.json()) as T
    if (!response.ok) throw new Error(`control ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }

  return {
    running,
    target,
    control,
    /** A fresh company phone; `flags` as `POST /control/phones` takes them (refresh, passkeyRequired, ...). */
    async newPhone(flags: Record<string, boolean> = {}): Promise<string> {
      const number = `55119777${String(process.pid % 100).padStart(2, '0')}${String(++phones).padStart(3, '0')}`
      await control('/control/phones', { number, ...flags })
      return number
    },
    scan: (number: string, qr: string) => control<LinkAnswer>(`/control/phones/${number}/scan`, { qr }),
    async stop() {
      untrust()
      await running.stop()
    },
  }
}

export type ScenarioSimulator = Awaited<ReturnType<typeof startScenarioSimulator>>

export type BalcaoOptions = {
  /** A database file (see `createHarness`); `reopen` of a killed Balcão passes its snapshot. */
  database?: string
  maxRetries?: number
  maxQrSockets?: number
  /** How long each QR lives (Baileys's qrTimeout). Default 60 s / 20 s as in production. */
  qrTimeout?: number
  /** How long one media upload may take (default the product's). */
  mediaUploadTimeoutMs?: number
  /** Baileys's ping interval (real time; default Baileys's 30 s). */
  keepAliveIntervalMs?: number
}

/** Balcão (test harness, manual clock) whose real Baileys sessions connect to `simulator`. */
export async function startBalcao(simulator: ScenarioSimulator, options: BalcaoOptions = {}) {
  const sockets: WASocket[] = []
  let build: ChannelProvider | undefined
  const h = await createHarness({
    providers: { beta: (connection) => build!(connection) },
    ...(options.database ? { database: options.database } : {}),
  })
  h.deps.waSimulator = simulator.target
  build = createBaileysProvider({
    log: silentLogger,
    clock: h.clock,
    db: { db: h.db, sqlite: h.deps.sqlite, clock: h.clock },
    messageStore: storedMessages(h.deps.sqlite, h.clock),
    waWebSocketUrl: simulator.target.url,
    fetchVersion: null,
    version: DEFAULT_CONNECTION_CONFIG.version,
    socketTimeouts: {
      ...SCENARIO_TIMEOUTS,
      ...(options.qrTimeout ? { qrTimeout: options.qrTimeout } : {}),
      ...(options.keepAliveIntervalMs ? { keepAliveIntervalMs: options.keepAliveIntervalMs } : {}),
    },
    socketFactory: (config) => {
      const sock = makeWASocket(config)
      sockets.push(sock)
      return sock
    },
    // the longest backoff of each step: scenarios move the clock by known amounts
    random: () => 1,
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.maxQrSockets !== undefined ? { maxQrSockets: options.maxQrSockets } : {}),
    ...(options.mediaUploadTimeoutMs !== undefined
      ? { mediaUploadTimeoutMs: options.mediaUploadTimeoutMs }
      : {}),
  })
  let admin = await h.as(h.a.admin)
  let relogin: Promise<unknown> | undefined
  let dead = false

  const connection = async (id: number): Promise<WhatsappDto> => {
    const client = admin
    let res = await client.get(`/whatsapp/${id}`)
    // A scenario that moves the clock by hours outlives the admin's token: log in again, as the page does
    // (once for every check that noticed: each login may end the user's oldest session).
    if (res.status === 401 || res.status === 403) {
      if (admin === client)
        relogin ??= h.as(h.a.admin).then((fresh) => {
          admin = fresh
          relogin = undefined
        })
      await relogin
      res = await admin.get(`/whatsapp/${id}`)
    }
    if (res.status !== 200) throw new Error(`GET /whatsapp/${id}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body as WhatsappDto
  }

  /**
   * Resolves with the connection once `ready(connection)` holds, re-checked on every live event Balcão
   * publishes (and when the clock is moved through `tick`); rejects after `ms` with the last state seen.
   */
  const until = (id: number, ready: (c: WhatsappDto) => boolean, what: string, ms = 8_000) =>
    new Promise<WhatsappDto>((resolve, reject) => {
      let last: WhatsappDto | undefined
      let settled = false
      const finish = (error?: Error, value?: WhatsappDto) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        untap()
        if (error) reject(error)
        else resolve(value!)
      }
      const check = () =>
        void connection(id).then((c) => {
          last = c
          if (ready(c)) finish(undefined, c)
        }, finish)
      const untap = h.deps.hub.tap(check)
      const timer = setTimeout(() => {
        const seen = last && { status: last.status, statusReason: last.statusReason, retries: last.retries }
        finish(new Error(`timed out waiting for ${what}; last seen ${JSON.stringify(seen)}`))
      }, ms)
      check()
    })

  return {
    h,
    clock: h.clock,
    /** The admin's API client (logged in again when a moved clock expired its token). */
    get admin() {
      return admin
    },
    /** Every Baileys socket Balcão created, oldest first. */
    sockets,
    connection,
    until,
    /** Adds a WhatsApp (Baileys) connection as an admin does; its session starts at once. */
    async addConnection(name = 'Principal'): Promise<number> {
      const res = await admin.post('/whatsapp', { name })
      if (res.status !== 201) throw new Error(`POST /whatsapp: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.id as number
    },
    /** The QR the connections page shows next (other than `previous`). */
    async qr(id: number, previous?: string): Promise<string> {
      const c = await until(
        id,
        (c) => c.status === 'qrcode' && !!c.qrcode && c.qrcode !== previous,
        previous ? 'a new QR' : 'a QR',
      )
      return c.qrcode
    },
    connected: (id: number) => until(id, (c) => c.status === 'CONNECTED', 'CONNECTED'),
    /**
     * Adds a connection and links `number` to it by QR, refresh step included when the phone does it: the
     * connection ends CONNECTED. Answers its id.
     */
    async link(number: string, name = 'Principal'): Promise<number> {
      const id = await this.addConnection(name)
      let qr = await this.qr(id)
      for (let scans = 0; scans < 3; scans++) {
        const answer = await simulator.scan(number, qr)
        if (answer.linked) break
        if (answer.reason !== 'refreshed') throw new Error(`scan: ${JSON.stringify(answer)}`)
        qr = await this.qr(id, qr)
      }
      await this.connected(id)
      return id
    },
    /**
     * Like `kill -9` at this instant: what is committed in the database now is all a restarted Balcão finds
     * (a snapshot of the file, taken synchronously), then the sockets are cut without a graceful stop and this
     * Balcão is abandoned (its clock never moves again). Answers the snapshot's path for `startBalcao`.
     */
    kill(): string {
      const snapshot = join(tmpdir(), `balcao-scenario-${crypto.randomUUID()}.db`)
      h.deps.sqlite.run('VACUUM INTO ?', [snapshot])
      dead = true
      for (const sock of sockets) sock.ws.close()
      return snapshot
    },
    /** A graceful stop (what `serve` does on SIGTERM). */
    async stop() {
      if (dead) return
      dead = true
      await h.deps.channels.stopAll()
    },
  }
}

export type Balcao = Awaited<ReturnType<typeof startBalcao>>
