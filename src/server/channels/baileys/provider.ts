/**
 * The real WhatsApp provider: one BaileysChannelSession per connection, sharing what may be shared
 * (the message-retry counter cache, the WA Web version learnt after a 405).
 */
import type { Database } from 'bun:sqlite'
import { DEFAULT_CONNECTION_CONFIG, fetchLatestWaWebVersion, type WAVersion } from '@whiskeysockets/baileys'
import type { Clock } from '../../clock'
import type { Logger } from '../../logger'
import type { ChannelProvider } from '../types'
import { type AuthStoreDeps, createSqliteAuthState } from './auth-store'
import { BaileysChannelSession, type BaileysSessionOptions } from './session'
import { verifySignaturesForReal } from './signatures'
import { type AuthHandle, Lru, type MessageStore, type SocketLike } from './socket'

export type BaileysProviderOptions = {
  log: Logger
  /** Time and timers (reconnect backoff, watchdog). */
  clock: Clock
  /** The auth state of a connection; default the SQLite store over `db` (required then). */
  authState?: (connectionId: number) => Promise<AuthHandle>
  db?: AuthStoreDeps
  socketFactory?: BaileysSessionOptions['socketFactory']
  messageStore?: MessageStore
  /** Fetches the current WA Web version after a 405. Default fetchLatestWaWebVersion (network); null: never. */
  fetchVersion?: (() => Promise<WAVersion | undefined>) | null
  watchdogMs?: number
  maxQrSockets?: number
  maxRetries?: number
  downloadMedia?: (
    msg: Parameters<NonNullable<BaileysSessionOptions['downloadMedia']>>[0],
    sock: SocketLike,
  ) => Promise<Uint8Array>
  browser?: BaileysSessionOptions['browser']
  random?: () => number
  /** The WA Web version sessions start with (default Baileys's bundled one). */
  version?: WAVersion
  /** Where sockets connect (the simulator's URL with --wa-simulator; default WhatsApp). */
  waWebSocketUrl?: string
  socketTimeouts?: BaileysSessionOptions['socketTimeouts']
  mediaUploadTimeoutMs?: number
}

/**
 * A fetch of the WA Web version shared by every session, at most once per `ttlMs`, never throwing. Only an
 * answer is kept: a failed fetch (no network, WhatsApp down) is forgotten once it settles, so the next 405
 * asks again instead of living an hour on the failure.
 */
export function sharedVersionFetcher(
  fetch: () => Promise<WAVersion | undefined>,
  clock: Clock,
  ttlMs = 60 * 60_000,
): () => Promise<WAVersion | undefined> {
  let last: { at: number; version: Promise<WAVersion | undefined> } | undefined
  return () => {
    const now = clock.now()
    if (!last || now - last.at > ttlMs) {
      const entry = { at: now, version: fetch().catch(() => undefined) }
      last = entry
      void entry.version.then((version) => {
        if (!version && last === entry) last = undefined
      })
    }
    return last.version
  }
}

/** `a` or `b`, whichever is newer (undefined when both are). */
export function newerVersion(a: WAVersion | undefined, b: WAVersion | undefined): WAVersion | undefined {
  if (!a || !b) return a ?? b
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d > 0 ? a : b
  }
  return a
}

/**
 * The newest WA Web version a session of this server last connected with (the connections' health facts,
 * written on every CONNECTED): a version learnt after a 405 outlives a restart, so the next boot does not start
 * on Baileys's bundled one and meet the same 405 (with the fetch perhaps failing then).
 */
export function lastConnectedWaWebVersion(sqlite: Database): WAVersion | undefined {
  let newest: WAVersion | undefined
  const rows = sqlite
    .query<{ version: string }, []>(
      'SELECT DISTINCT wa_web_version AS version FROM whatsapp_health WHERE wa_web_version IS NOT NULL',
    )
    .all()
  for (const { version } of rows) {
    const parts = version.split('.').map(Number)
    if (parts.length === 3 && parts.every((n) => Number.isInteger(n) && n >= 0))
      newest = newerVersion(newest, parts as WAVersion)
  }
  return newest
}

async function latestWaWebVersion(): Promise<WAVersion | undefined> {
  const result = await fetchLatestWaWebVersion()
  return result.isLatest ? result.version : undefined
}

export function createBaileysProvider(options: BaileysProviderOptions): ChannelProvider {
  verifySignaturesForReal()
  const retryCache = new Lru(20_000)
  const fetchVersion =
    options.fetchVersion === null
      ? undefined
      : sharedVersionFetcher(options.fetchVersion ?? latestWaWebVersion, options.clock)
  const authStateFor =
    options.authState ??
    ((connectionId: number) => {
      if (!options.db) throw new Error('createBaileysProvider: db or authState is required')
      return createSqliteAuthState(options.db, connectionId)
    })
  return (connection) => {
    const sessionOptions: BaileysSessionOptions = {
      connectionId: connection.id,
      companyId: connection.companyId,
      log: options.log,
      clock: options.clock,
      authState: () => authStateFor(connection.id),
      msgRetryCounterCache: retryCache,
    }
    if (options.socketFactory) sessionOptions.socketFactory = options.socketFactory
    if (options.messageStore) sessionOptions.messageStore = options.messageStore
    if (fetchVersion) sessionOptions.fetchVersion = fetchVersion
    if (options.watchdogMs !== undefined) sessionOptions.watchdogMs = options.watchdogMs
    if (options.maxQrSockets !== undefined) sessionOptions.maxQrSockets = options.maxQrSockets
    if (options.maxRetries !== undefined) sessionOptions.maxRetries = options.maxRetries
    if (options.downloadMedia) sessionOptions.downloadMedia = options.downloadMedia
    if (options.browser) sessionOptions.browser = options.browser
    if (options.random) sessionOptions.random = options.random
    // the configured version, or the newer of the last one that connected and Baileys's bundled one
    const version =
      options.version ??
      (options.db
        ? newerVersion(lastConnectedWaWebVersion(options.db.sqlite), DEFAULT_CONNECTION_CONFIG.version)
        : undefined)
    if (version) sessionOptions.version = version
    if (options.waWebSocketUrl) sessionOptions.waWebSocketUrl = options.waWebSocketUrl
    if (options.socketTimeouts) sessionOptions.socketTimeouts = options.socketTimeouts
    if (options.mediaUploadTimeoutMs !== undefined)
      sessionOptions.mediaUploadTimeoutMs = options.mediaUploadTimeoutMs
    return new BaileysChannelSession(sessionOptions)
  }
}
