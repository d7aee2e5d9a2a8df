/**
 * The real WhatsApp provider: one BaileysChannelSession per connection, sharing what may be shared
 * (the message-retry counter cache, the WA Web version learnt after a 405).
 */
import { fetchLatestWaWebVersion, type WAVersion } from '@whiskeysockets/baileys'
import type { Clock } from '../../clock'
import type { Logger } from '../../logger'
import type { ChannelProvider } from '../types'
import { type AuthStoreDeps, createSqliteAuthState } from './auth-store'
import { BaileysChannelSession, type BaileysSessionOptions } from './session'
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
}

/** A fetch of the WA Web version shared by every session, at most once per `ttlMs`, never throwing. */
export function sharedVersionFetcher(
  fetch: () => Promise<WAVersion | undefined>,
  clock: Clock,
  ttlMs = 60 * 60_000,
): () => Promise<WAVersion | undefined> {
  let last: { at: number; version: Promise<WAVersion | undefined> } | undefined
  return () => {
    const now = clock.now()
    if (!last || now - last.at > ttlMs) last = { at: now, version: fetch().catch(() => undefined) }
    return last.version
  }
}

async function latestWaWebVersion(): Promise<WAVersion | undefined> {
  const result = await fetchLatestWaWebVersion()
  return result.isLatest ? result.version : undefined
}

export function createBaileysProvider(options: BaileysProviderOptions): ChannelProvider {
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
    if (options.version) sessionOptions.version = options.version
    if (options.waWebSocketUrl) sessionOptions.waWebSocketUrl = options.waWebSocketUrl
    return new BaileysChannelSession(sessionOptions)
  }
}
