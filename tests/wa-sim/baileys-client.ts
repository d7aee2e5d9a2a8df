/**
 * A real Baileys socket for the simulator's own tests: in-memory auth state (kept across
 * reconnects, as a linked companion keeps its creds), a silent logger, short timeouts, and
 * helpers to await connection updates instead of sleeping.
 */

import { Boom } from '@hapi/boom'
import makeWASocket, {
  type AuthenticationCreds,
  type ConnectionState,
  initAuthCreds,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
  type UserFacingSocketConfig,
  type WASocket,
} from '@whiskeysockets/baileys'
import pino from 'pino'

export type MemoryAuth = { creds: AuthenticationCreds; keys: SignalKeyStore; data: Map<string, unknown> }

export const memoryAuth = (): MemoryAuth => {
  const data = new Map<string, unknown>()
  const keys: SignalKeyStore = {
    get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
      const found: { [id: string]: SignalDataTypeMap[T] } = {}
      for (const id of ids) {
        const value = data.get(`${type}:${id}`)
        if (value !== undefined) found[id] = value as SignalDataTypeMap[T]
      }
      return found
    },
    set: async (set: SignalDataSet) => {
      for (const [type, entries] of Object.entries(set)) {
        for (const [id, value] of Object.entries(entries ?? {})) {
          if (value === null || value === undefined) data.delete(`${type}:${id}`)
          else data.set(`${type}:${id}`, value)
        }
      }
    },
  }
  return { creds: initAuthCreds(), keys, data }
}

export const silentLogger = pino({ level: 'silent' })

export type ClosedWith = { statusCode: number | undefined; message: string }

export type TestClient = {
  sock: WASocket
  auth: MemoryAuth
  /** Every QR Baileys showed, in order. */
  qrs: string[]
  nextQr(timeoutMs?: number): Promise<string>
  opened: Promise<void>
  closed: Promise<ClosedWith>
}

export const connectBaileys = (
  wsUrl: string,
  auth: MemoryAuth = memoryAuth(),
  config: Partial<UserFacingSocketConfig> = {},
): TestClient => {
  const sock = makeWASocket({
    waWebSocketUrl: wsUrl,
    auth: { creds: auth.creds, keys: auth.keys },
    logger: silentLogger,
    markOnlineOnConnect: false,
    connectTimeoutMs: 5_000,
    defaultQueryTimeoutMs: 5_000,
    keepAliveIntervalMs: 30_000,
    qrTimeout: 5_000,
    fireInitQueries: true,
    shouldSyncHistoryMessage: () => false,
    browser: ['Balcao', 'Chrome', '1.0'],
    ...config,
  })
  sock.ev.on('creds.update', (update) => Object.assign(auth.creds, update))
  const qrs: string[] = []
  const qrWaiters: ((qr: string) => void)[] = []
  let resolveOpened: () => void = () => {}
  let resolveClosed: (closed: ClosedWith) => void = () => {}
  const opened = new Promise<void>((resolve) => (resolveOpened = resolve))
  const closed = new Promise<ClosedWith>((resolve) => (resolveClosed = resolve))
  sock.ev.on('connection.update', (update: Partial<ConnectionState>) => {
    if (update.qr) {
      qrs.push(update.qr)
      for (const waiter of qrWaiters.splice(0)) waiter(update.qr)
    }
    if (update.connection === 'open') resolveOpened()
    if (update.connection === 'close') {
      const error = update.lastDisconnect?.error
      resolveClosed({
        statusCode: error instanceof Boom ? error.output.statusCode : undefined,
        message: error?.message ?? '',
      })
    }
  })
  const nextQr = (timeoutMs = 5_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no new QR')), timeoutMs)
      qrWaiters.push((qr) => {
        clearTimeout(timer)
        resolve(qr)
      })
    })
  return { sock, auth, qrs, nextQr, opened, closed }
}

/** Resolves with the first QR (or the one already shown). */
export const firstQr = (client: TestClient, timeoutMs = 5_000): Promise<string> =>
  client.qrs[0] ? Promise.resolve(client.qrs[0]) : client.nextQr(timeoutMs)

/** Races a promise against a deadline, so a test fails with a message instead of hanging. */
export const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms)),
  ])
