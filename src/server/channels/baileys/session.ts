/**
 * The real WhatsApp session's lifecycle: one Baileys socket at a time, a status machine with a reconnect policy
 * by disconnect reason, a watchdog for deaf sockets, and pairing. What goes over a connected socket (inbound
 * batches, the ordered outbound queue, media) is its messaging half, `messaging.ts`; no Baileys type leaves
 * either through the ChannelSession interface.
 * Reconnect policy by close code: 515 (the restart that follows a scan) reconnects at once; 401 (logged out),
 * 403 (banned), 411 (multi-device mismatch) and 440 (replaced) stop; 408 "QR refs attempts ended" and too many
 * unscanned QR sockets end in TIMEOUT; anything else is transient: it retries with exponential backoff and
 * jitter `maxRetries` times in a row, then shows DISCONNECTED with the reason (a person sees the outage and may
 * retry at once) and keeps trying every SLOW_RETRY_MS until WhatsApp answers.
 */

import { randomBytes } from 'node:crypto'
import {
  type BaileysEventMap,
  type BinaryNode,
  type CacheStore,
  DEFAULT_CONNECTION_CONFIG,
  isJidNewsletter,
  isJidStatusBroadcast,
  makeCacheableSignalKeyStore,
  makeWASocket,
  type UserFacingSocketConfig,
  type WABrowserDescription,
  type WAMessage,
  type WAVersion,
} from '@whiskeysockets/baileys'
import type { ConnectionStatus, ConnectionStatusReason } from '../../../shared/connection-status'
import { AppError } from '../../../shared/errors'
import type { Clock, TimerHandle } from '../../clock'
import type { Logger } from '../../logger'
import { reasonOfClose } from '../status-reasons'
import type {
  ChannelEvent,
  ChannelEventOf,
  ChannelSession,
  ContactRef,
  MsgRef,
  OutboundContent,
  SendOptions,
} from '../types'
import { contactRef, digitsOnly } from './jid'
import { BaileysMessaging } from './messaging'
import {
  type AuthHandle,
  baileysLogger,
  Lru,
  type MessageStore,
  type SocketLike,
  statusCodeOf,
} from './socket'
import { BAILEYS_VERSION } from './version'

export type { AuthHandle, MessageStore, SocketLike } from './socket'

export type BaileysSessionOptions = {
  connectionId: number
  companyId: number
  log: Logger
  /** Time and the reconnect / watchdog timers. */
  clock: Clock
  /** Loads the auth state; called for every socket (after a logout the store starts from fresh creds). */
  authState: () => Promise<AuthHandle>
  socketFactory?: (config: UserFacingSocketConfig) => SocketLike
  messageStore?: MessageStore
  /** Downloads the media of a message; default Baileys' downloadMediaMessage with re-upload. */
  downloadMedia?: (msg: WAMessage, sock: SocketLike) => Promise<Uint8Array>
  /** The WA Web version to start with; default Baileys' bundled one. */
  version?: WAVersion
  /** Fetches the current WA Web version after a 405; failures keep the version in use. Default: none. */
  fetchVersion?: () => Promise<WAVersion | undefined>
  /**
   * Nothing delivered (no message, receipt, notification, call or server ack; pongs do not count) for this long
   * while CONNECTED: end the socket and log in again with the stored creds (see `armWatchdog`). 0 disables.
   * Default 30 min.
   */
  watchdogMs?: number
  /** Sockets that may show QR codes before giving up with TIMEOUT. Default 3. */
  maxQrSockets?: number
  /**
   * Quick reconnects in a row (without ever opening) before showing DISCONNECTED with the reason and retrying
   * every SLOW_RETRY_MS. Default 10: about 5 minutes of backoff, 20 while WhatsApp answers 503.
   */
  maxRetries?: number
  /** Raw messages kept in memory. Default 2,000. */
  recentMessages?: number
  /** Shared across reconnects (and sessions). Default: one bounded cache per session. */
  msgRetryCounterCache?: CacheStore
  browser?: WABrowserDescription
  /** Where the socket connects: WhatsApp's default, or the simulator's (`--wa-simulator`). */
  waWebSocketUrl?: string
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number
  /** Baileys's own timers (tests against the simulator keep them short). Default Baileys's. */
  socketTimeouts?: SocketTimeouts
  /** How long one media upload to one host may take. Default MEDIA_UPLOAD_TIMEOUT_MS. */
  mediaUploadTimeoutMs?: number
  /** How long a send waits for the server's ack. Default SERVER_ACK_TIMEOUT_MS. */
  serverAckTimeoutMs?: number
}

/** The Baileys socket timers a session may shorten. */
export type SocketTimeouts = Pick<
  UserFacingSocketConfig,
  'connectTimeoutMs' | 'defaultQueryTimeoutMs' | 'keepAliveIntervalMs' | 'qrTimeout'
>

/** First QR lives 60 s, each later one 20 s (Baileys' defaults). */
export const FIRST_QR_MS = 60_000
export const NEXT_QR_MS = 20_000
/** How long a pairing code is usable: the socket's QR cycle (60 s + 5 × 20 s). */
export const PAIRING_CODE_MS = 160_000
export const BACKOFF_BASE_MS = 1_000
export const BACKOFF_MAX_MS = 60_000
export const BACKOFF_503_BASE_MS = 5_000
export const BACKOFF_503_MAX_MS = 180_000
export const DEFAULT_WATCHDOG_MS = 30 * 60_000
export const DEFAULT_MAX_RETRIES = 10
/** After `maxRetries` quick attempts, one attempt this often (with jitter), for as long as it takes. */
export const SLOW_RETRY_MS = 5 * 60_000

/** The delay before retry number `attempt` (1-based): exponential, capped, with jitter in [d/2, d]. */
export function backoffMs(attempt: number, code: number | undefined, random: () => number): number {
  const long = code === 503
  const base = long ? BACKOFF_503_BASE_MS : BACKOFF_BASE_MS
  const max = long ? BACKOFF_503_MAX_MS : BACKOFF_MAX_MS
  return jittered(Math.min(max, base * 2 ** Math.max(0, attempt - 1)), random)
}

/** `d` with jitter in [d/2, d]. */
function jittered(d: number, random: () => number): number {
  return Math.round(d / 2 + (random() * d) / 2)
}

type StatusExtra = Omit<ChannelEventOf<'status'>, 't' | 'status'>

/** A pairing QR (`ref,noiseKey,identityKey,advSecret[,platform]`) advertising `advSecret` instead. */
export function withAdvSecret(qr: string, advSecret: string): string {
  const parts = qr.split(',')
  if (parts.length < 4) return qr
  parts[3] = advSecret
  return parts.join(',')
}

/**
 * Baileys's requestPairingCode writes `me` into the creds before the phone confirms anything; if the code was
 * never confirmed, the next socket would log in as a device WhatsApp does not know and be told 401 (the
 * connection then looked "logged out"). Without the account signature pair-success brings, this is not a
 * linked device: drop the half-started pairing so the next socket registers and shows a QR.
 */
export function forgetUnfinishedPairing(auth: AuthHandle): boolean {
  const creds = auth.state.creds
  if (!creds.me || creds.account) return false
  creds.me = undefined
  creds.pairingCode = undefined
  creds.registered = false
  return true
}

/** Close reasons after which the session does not reconnect by itself. */
const STOP_REASONS: Record<number, string> = {
  401: 'logged out from the phone',
  403: 'forbidden: the account is banned or restricted',
  411: 'multi-device mismatch',
  440: 'connection replaced: another client opened this session',
}

export class BaileysChannelSession implements ChannelSession {
  readonly connectionId: number
  readonly companyId: number
  private _status: ConnectionStatus = 'DISCONNECTED'
  private readonly listeners = new Set<(event: ChannelEvent) => void | Promise<void>>()
  private readonly clock: Clock
  private readonly random: () => number
  private readonly socketFactory: (config: UserFacingSocketConfig) => SocketLike
  private readonly retryCache: CacheStore
  private readonly watchdogMs: number
  private readonly maxQrSockets: number
  private readonly maxRetries: number
  private version: WAVersion | undefined

  private sock: SocketLike | undefined
  private auth: AuthHandle | undefined
  /** Bumped whenever a socket is retired on purpose: events of older sockets are ignored. */
  private generation = 0
  private running = false
  private connecting: Promise<void> | undefined
  private retries = 0
  private reconnectTimer: TimerHandle
  private watchdogTimer: TimerHandle
  /** When WhatsApp last delivered a stanza to the current socket (see `DELIVERY_STANZAS`). */
  private lastDelivery = 0
  /** Deliveries to the current socket so far: a send's check asks whether any came while it waited. */
  private deliveries = 0
  /** The current socket's WebSocket closed (its close event may still wait in the inbound chain). */
  private socketClosed = false
  private qrSockets = 0
  private qrOnThisSocket = 0
  private qrAttempt = 0
  private pairingPhone: string | undefined
  private pairingRequested = false
  private pairingWaiters: { resolve(code: string): void; reject(err: Error): void }[] = []
  /** The phone scanned a QR of this socket (WhatsApp sent `companion_reg_refresh`). */
  private scannedOnThisSocket = false
  /** Auth handles wiped by a logout: nothing is saved through them any more. */
  private readonly clearedAuth = new WeakSet<AuthHandle>()
  /** The QR Baileys rendered last on this socket (its ref is the one the phone may scan). */
  private lastQr: string | undefined
  private inboundChain: Promise<void> = Promise.resolve()
  private readonly messaging: BaileysMessaging

  constructor(private readonly options: BaileysSessionOptions) {
    this.connectionId = options.connectionId
    this.companyId = options.companyId
    this.clock = options.clock
    this.random = options.random ?? Math.random
    this.socketFactory = options.socketFactory ?? ((config) => makeWASocket(config))
    this.messaging = new BaileysMessaging(options, {
      socket: () => this.sock,
      requireSocket: () => this.requireSocket(),
      emit: (event) => this.emit(event),
    })
    this.retryCache = options.msgRetryCounterCache ?? new Lru(5_000)
    this.watchdogMs = options.watchdogMs ?? DEFAULT_WATCHDOG_MS
    this.maxQrSockets = options.maxQrSockets ?? 3
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
    this.version = options.version
  }

  get status(): ConnectionStatus {
    return this._status
  }

  get versions() {
    return { library: BAILEYS_VERSION, web: (this.version ?? DEFAULT_CONNECTION_CONFIG.version).join('.') }
  }

  on(listener: (event: ChannelEvent) => void | Promise<void>): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  // --- lifecycle ------------------------------------------------------------------------------------------

  async start(options?: { pairingPhone?: string }): Promise<void> {
    if (options?.pairingPhone) this.pairingPhone = digitsOnly(options.pairingPhone)
    if (this.running && this.reconnectTimer !== undefined && !this.connecting) {
      // a person asks while the session waits to retry: now, with a fresh burst of retries
      this.retries = 0
      return this.connect()
    }
    if (this.running) return this.connecting
    this.running = true
    this.retries = 0
    this.qrSockets = 0
    this.qrAttempt = 0
    await this.connect()
  }

  async stop(): Promise<void> {
    const wasRunning = this.running
    const sock = this.sock
    // What Baileys already took in was acknowledged to WhatsApp, which will not send it again: its buffered
    // events (held until the offline burst ends) are flushed and the inbound chain drained before the socket
    // ends (issue 20, defect 4).
    if (sock) {
      flushEvents(sock)
      await this.drainInbound()
    }
    this.halt()
    this.sock = undefined
    if (sock) await sock.end(undefined).catch(() => {})
    await this.drainInbound()
    this.rejectPairing(new AppError('ERR_WAPP_NOT_INITIALIZED', 'session stopped'))
    if (wasRunning || this._status !== 'DISCONNECTED')
      await this.setStatus('DISCONNECTED', { detail: 'stopped' })
  }

  async logout(): Promise<void> {
    this.halt()
    const sock = this.sock
    this.sock = undefined
    if (sock) {
      await sock
        .logout()
        .catch((err: Error) => this.options.log.warn('logout: socket', { error: err.message }))
      await sock.end(undefined).catch(() => {})
    }
    const auth = this.auth ?? (await this.options.authState())
    this.clearedAuth.add(auth)
    await auth.clear()
    this.auth = undefined
    this.rejectPairing(new AppError('ERR_WAPP_NOT_INITIALIZED', 'logged out'))
    await this.setStatus('DISCONNECTED', { reason: 401, detail: 'logged out' })
  }

  async requestPairingCode(phone: string): Promise<string> {
    this.pairingPhone = digitsOnly(phone)
    this.pairingRequested = false
    const code = new Promise<string>((resolve, reject) => this.pairingWaiters.push({ resolve, reject }))
    if (!this.running) await this.start()
    else if (this._status === 'qrcode' && this.sock) await this.askPairingCode(this.sock, this.generation)
    return code
  }

  /** Resolves once every batch handed to the inbound chain so far (and any it led to) was handled. */
  private async drainInbound(): Promise<void> {
    let chain: Promise<void>
    do {
      chain = this.inboundChain
      await chain
    } while (chain !== this.inboundChain)
  }

  /** Stops timers and marks every current socket as retired. */
  private halt(): void {
    this.running = false
    this.generation += 1
    this.clearTimer('reconnectTimer')
    this.clearTimer('watchdogTimer')
  }

  private clearTimer(which: 'reconnectTimer' | 'watchdogTimer'): void {
    if (this[which] !== undefined) this.clock.clearTimeout(this[which])
    this[which] = undefined
  }

  /** Creates a new socket, ending the old one first (never two sockets). */
  private connect(): Promise<void> {
    const run = this.doConnect().finally(() => {
      if (this.connecting === run) this.connecting = undefined
    })
    this.connecting = run
    return run
  }

  private async doConnect(): Promise<void> {
    this.clearTimer('reconnectTimer')
    const gen = ++this.generation
    const old = this.sock
    this.sock = undefined
    // the old socket's buffered events go into the inbound chain before it ends (a retired socket's messages
    // are still handled); not awaited: a restart may be decided from inside that chain
    if (old) flushEvents(old)
    if (old) await old.end(undefined).catch(() => {})
    if (this._status !== 'OPENING') await this.setStatus('OPENING')
    let auth: AuthHandle
    try {
      auth = await this.options.authState()
    } catch (err) {
      this.options.log.error('baileys: auth state failed', {
        connectionId: this.connectionId,
        error: (err as Error).message,
      })
      if (gen === this.generation)
        await this.scheduleReconnect(undefined, 'auth state unavailable', 'unavailable')
      return
    }
    if (gen !== this.generation || !this.running) return
    this.auth = auth
    if (forgetUnfinishedPairing(auth)) this.saveCredsNow(gen)
    this.qrOnThisSocket = 0
    this.lastQr = undefined
    this.scannedOnThisSocket = false
    this.pairingRequested = false
    const logger = baileysLogger(this.options.log, { connectionId: this.connectionId })
    const config: UserFacingSocketConfig = {
      auth: {
        creds: auth.state.creds,
        keys: makeCacheableSignalKeyStore(auth.state.keys, logger, new Lru(10_000)),
      },
      logger,
      version: this.version ?? DEFAULT_CONNECTION_CONFIG.version,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      shouldIgnoreJid: (jid) => isJidStatusBroadcast(jid) || !!isJidNewsletter(jid),
      getMessage: (key) => this.messaging.getMessage(key),
      msgRetryCounterCache: this.retryCache,
    }
    if (this.options.browser) config.browser = this.options.browser
    if (this.options.waWebSocketUrl) config.waWebSocketUrl = this.options.waWebSocketUrl
    Object.assign(config, this.options.socketTimeouts)
    let sock: SocketLike
    try {
      sock = this.socketFactory(config)
    } catch (err) {
      this.options.log.error('baileys: socket failed', {
        connectionId: this.connectionId,
        error: (err as Error).message,
      })
      await this.scheduleReconnect(undefined, (err as Error).message, 'unavailable')
      return
    }
    this.sock = sock
    this.lastDelivery = this.options.clock.now()
    this.deliveries = 0
    this.socketClosed = false
    sock.ws?.on('close', () => {
      if (gen === this.generation) this.socketClosed = true
    })
    sock.ws?.on('frame', (...args: unknown[]) => {
      if (gen === this.generation && isDelivery(args[0])) this.noteDelivery()
    })
    // the server's acks of our sends, also on their own stanza event (some sockets emit no raw frames)
    sock.ws?.on('CB:ack,class:message', () => {
      if (gen === this.generation) this.noteDelivery()
    })
    // view-once messages reach linked devices as `<unavailable>` stanzas Baileys acknowledges and drops: the
    // inbox still shows a row (in the inbound chain, so in order with the rest)
    sock.ws?.on('CB:message,,unavailable', (...args: unknown[]) => {
      const node = args[0] as BinaryNode
      this.inboundChain = this.inboundChain
        .then(() => this.messaging.handleUnavailable(sock, node))
        .catch((err: Error) =>
          this.options.log.error('baileys: unavailable message failed', {
            connectionId: this.connectionId,
            error: err.message,
          }),
        )
    })
    sock.ws?.on('CB:notification,type:companion_reg_refresh', () => {
      if (gen === this.generation) void this.refreshRegistration(sock, gen)
    })
    sock.ev.process((events) => {
      // Creds are written here, synchronously, before anything else runs: not behind the inbound chain (slow
      // media or history would hold them), and for every socket, retired ones too (Baileys mutated this
      // socket's creds in place; dropping the update would leave the disk behind the keys it already wrote).
      if (events['creds.update']) this.saveCredsNow(gen, auth)
      this.inboundChain = this.inboundChain
        .then(() => this.handleEvents(sock, gen, events))
        .catch((err: Error) =>
          this.options.log.error('baileys: event handling failed', {
            connectionId: this.connectionId,
            error: err.message,
          }),
        )
    })
  }

  /**
   * One batch of a socket's events (its creds were saved when it was emitted). Connection events of a retired
   * socket are ignored (its close is ours); messages it delivered before retiring are real and still go out.
   */
  private async handleEvents(sock: SocketLike, gen: number, events: Partial<BaileysEventMap>): Promise<void> {
    const update = events['connection.update']
    if (update && gen === this.generation) await this.handleConnection(sock, gen, update)
    // messages go on after a stop: WhatsApp handed them over and Baileys acknowledged them (stop drains them)
    await this.messaging.handleEvents(sock, events)
  }

  private async handleConnection(
    sock: SocketLike,
    gen: number,
    update: Partial<BaileysEventMap['connection.update']>,
  ): Promise<void> {
    if (update.qr && gen === this.generation) await this.handleQr(sock, gen, update.qr)
    const lock = update.reachoutTimeLock
    if (lock && gen === this.generation) {
      const until = lock.timeEnforcementEnds?.getTime()
      await this.emit({
        t: 'restriction',
        active: !!lock.isActive,
        ...(lock.isActive && until ? { until } : {}),
        ...(lock.isActive
          ? {
              detail: `reach-out time lock (${lock.enforcementType ?? 'DEFAULT'})${until ? ` until ${new Date(until).toISOString()}` : ''}`,
            }
          : {}),
      })
    }
    if (update.isNewLogin) {
      this.qrSockets = 0
      this.qrAttempt = 0
      if (gen === this.generation) await this.setStatus('OPENING', { detail: 'paired' })
    }
    if (update.connection === 'open' && gen === this.generation) {
      this.retries = 0
      this.qrSockets = 0
      this.qrAttempt = 0
      this.lastDelivery = this.options.clock.now()
      const me = sock.user ? contactRef(sock.user.id, sock.user.lid) : undefined
      await this.setStatus('CONNECTED', me ? { me } : {})
      this.armWatchdog()
    }
    if (update.connection === 'close' && gen === this.generation) {
      this.sock = undefined
      this.clearTimer('watchdogTimer')
      await this.handleClose(update.lastDisconnect?.error)
    }
  }

  private async handleQr(sock: SocketLike, gen: number, qr: string): Promise<void> {
    this.qrOnThisSocket += 1
    if (this.qrOnThisSocket === 1) this.qrSockets += 1
    this.lastQr = qr
    if (this.pairingPhone) {
      if (!this.pairingRequested) await this.askPairingCode(sock, gen)
      return
    }
    const ttl = this.qrOnThisSocket === 1 ? FIRST_QR_MS : NEXT_QR_MS
    await this.showQr(sock, qr, ttl)
  }

  /**
   * Shows a QR with the secret the companion advertises now: Baileys renders every QR of a socket with the
   * secret it had when the refs arrived, which a `companion_reg_refresh` retires.
   */
  private async showQr(sock: SocketLike, qr: string, ttlMs: number): Promise<void> {
    this.qrAttempt += 1
    if (this._status !== 'qrcode') await this.setStatus('qrcode')
    await this.emit({
      t: 'qr',
      qr: withAdvSecret(qr, sock.authState.creds.advSecretKey),
      attempt: this.qrAttempt,
      expiresAt: this.options.clock.now() + ttlMs,
    })
  }

  /**
   * WhatsApp answers the phone's first scan with `companion_reg_refresh` and retires the secret that QR
   * advertised (rc14 acks the notification and keeps the secret, so no later scan links: Baileys issue 2737).
   * A new secret, stored at once (pair-success is checked against it), and the current QR shown again with it.
   */
  private async refreshRegistration(sock: SocketLike, gen: number): Promise<void> {
    const creds = sock.authState.creds
    if (creds.me) return
    if (gen === this.generation) this.scannedOnThisSocket = true
    creds.advSecretKey = randomBytes(32).toString('base64')
    this.saveCredsNow(gen)
    this.options.log.info('baileys: registration refreshed, new QR', { connectionId: this.connectionId })
    if (this.lastQr && !this.pairingPhone && gen === this.generation && this.running)
      await this.showQr(sock, this.lastQr, NEXT_QR_MS)
  }

  private async askPairingCode(sock: SocketLike, gen: number): Promise<void> {
    const phone = this.pairingPhone
    if (!phone || sock.authState.creds.registered) return
    this.pairingRequested = true
    try {
      const code = await sock.requestPairingCode(phone)
      if (gen !== this.generation) return
      await this.setStatus('PAIRING')
      await this.emit({ t: 'pairingCode', code, expiresAt: this.options.clock.now() + PAIRING_CODE_MS })
      for (const w of this.pairingWaiters.splice(0)) w.resolve(code)
    } catch (err) {
      this.options.log.warn('baileys: pairing code failed', {
        connectionId: this.connectionId,
        error: (err as Error).message,
      })
      this.rejectPairing(err as Error)
    }
  }

  /**
   * Why the QR codes ran out: nobody scanned, or the phone scanned (WhatsApp refreshed the registration) and
   * never confirmed the link: an account that requires a passkey (or fingerprint, face) to link a device
   * behaves so when nobody gives it on the phone.
   */
  private whyNotLinked(cycles?: number): Pick<StatusExtra, 'detail' | 'statusReason'> {
    if (this.scannedOnThisSocket)
      return {
        detail: 'the phone scanned the QR code but did not confirm the link (passkey?)',
        statusReason: 'link_unconfirmed',
      }
    return {
      detail: cycles ? `no scan after ${cycles} QR cycles` : 'QR code not scanned in time',
      statusReason: 'qr_timeout',
    }
  }

  private rejectPairing(err: Error): void {
    for (const w of this.pairingWaiters.splice(0)) w.reject(err)
  }

  private async handleClose(error: Error | undefined): Promise<void> {
    const code = statusCodeOf(error)
    const message = error?.message ?? ''
    if (!this.running) return
    if (code !== 515)
      this.options.log.info('baileys: connection closed', { connectionId: this.connectionId, code, message })
    if (code === 515) {
      // restart required: always right after a scan; persist creds, new socket at once
      await this.auth?.saveCreds()
      await this.connect()
      return
    }
    if (code === 408 && /QR refs attempts ended/i.test(message)) {
      this.halt()
      this.rejectPairing(new AppError('ERR_WAPP_NOT_INITIALIZED', 'QR code expired'))
      await this.setStatus('TIMEOUT', { reason: 408, ...this.whyNotLinked() })
      return
    }
    if (code !== undefined && STOP_REASONS[code]) {
      this.halt()
      if (code === 401 && this.auth) {
        this.clearedAuth.add(this.auth)
        await this.auth.clear()
        this.auth = undefined
      }
      this.rejectPairing(new AppError('ERR_WAPP_NOT_INITIALIZED', STOP_REASONS[code]))
      await this.setStatus('DISCONNECTED', {
        reason: code,
        detail: STOP_REASONS[code],
        statusReason: reasonOfClose(code),
      })
      return
    }
    const registered = !!this.auth?.state.creds.me && this.qrOnThisSocket === 0
    if (!registered && this.qrSockets >= this.maxQrSockets) {
      this.halt()
      this.rejectPairing(new AppError('ERR_WAPP_NOT_INITIALIZED', 'QR code expired'))
      await this.setStatus('TIMEOUT', { reason: code, ...this.whyNotLinked(this.qrSockets) })
      return
    }
    if (code === 405 && this.options.fetchVersion) {
      try {
        const v = await this.options.fetchVersion()
        if (v) this.version = v
      } catch (err) {
        this.options.log.warn('baileys: version fetch failed', {
          connectionId: this.connectionId,
          error: (err as Error).message,
        })
      }
    }
    await this.scheduleReconnect(code, message)
  }

  /**
   * Tries again after a backoff, saying why meanwhile (OPENING with the reason). Every close that reaches here
   * is transient (the ones a person must fix stopped in handleClose), so past `maxRetries` failures in a row the
   * session does not stop for good: it shows DISCONNECTED with the reason (a person sees the outage and may
   * retry at once) and keeps trying every SLOW_RETRY_MS, so a night without internet ends connected.
   */
  private async scheduleReconnect(
    code: number | undefined,
    detail: string,
    statusReason: ConnectionStatusReason = reasonOfClose(code),
  ): Promise<void> {
    if (!this.running) return
    this.retries += 1
    const extra: StatusExtra = { statusReason }
    if (code !== undefined) extra.reason = code
    const slow = this.retries > this.maxRetries
    const delay = slow ? jittered(SLOW_RETRY_MS, this.random) : backoffMs(this.retries, code, this.random)
    if (slow) {
      const attempts = this.retries - 1
      this.rejectPairing(new AppError('ERR_WAPP_NOT_INITIALIZED', 'WhatsApp could not be reached'))
      if (attempts === this.maxRetries)
        this.options.log.warn('baileys: still unreachable, retrying slowly', {
          connectionId: this.connectionId,
          attempts,
          code,
          detail,
        })
    }
    this.clearTimer('reconnectTimer')
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = undefined
      if (this.running) void this.connect()
    }, delay)
    extra.retryInMs = delay
    if (slow)
      extra.detail = `${this.retries - 1} attempts failed, retrying every ${Math.round(SLOW_RETRY_MS / 60_000)} min${detail ? `: ${detail}` : ''}`
    else if (detail) extra.detail = detail
    await this.setStatus(slow ? 'DISCONNECTED' : 'OPENING', extra, true)
  }

  /** Writes the creds now (the SQLite store writes synchronously); a failure is logged, never thrown. */
  private saveCredsNow(gen: number, auth = this.auth): void {
    // a logged-out store stays empty: a late update of the unlinked socket must not bring its creds back
    if (!auth || this.clearedAuth.has(auth)) return
    try {
      const saved = auth?.saveCreds()
      if (saved instanceof Promise) saved.catch((err: Error) => this.logCredsFailure(gen, err))
    } catch (err) {
      this.logCredsFailure(gen, err as Error)
    }
  }

  private logCredsFailure(gen: number, err: Error): void {
    this.options.log.error('baileys: saving creds failed', {
      connectionId: this.connectionId,
      generation: gen,
      error: err.message,
    })
  }

  /**
   * The watchdog for deaf sockets. A socket is alive when WhatsApp delivers to it: a message, a receipt, a
   * notification, a call, or the server's ack of something we sent. Pongs and other iq answers prove only that
   * the transport is up: a deaf socket (WhatsApp stopped routing to it) keeps answering them while what customers
   * write waits in WhatsApp's offline queue, so they do not count. A quiet number legitimately receives nothing,
   * and no query proves delivery works (iqs take the path pongs take); what does prove it is a login, because
   * WhatsApp hands a fresh login everything it queued before `<ib><offline>`. So the rule: while CONNECTED, when
   * nothing was delivered for `watchdogMs`, recycle the socket: end it (its buffered events still reach the inbound
   * chain) and log in again with the stored creds. A busy number never recycles; a deaf one recycles within
   * `watchdogMs` of its last delivery, or as soon as one of our sends goes unacked (`watchedSend`); a quiet number
   * pays one login per `watchdogMs` (30 min by default).
   */
  private noteDelivery(): void {
    this.lastDelivery = this.options.clock.now()
    this.deliveries += 1
  }

  /**
   * The faster half of the watchdog, for a number that sends: WhatsApp acks every message within milliseconds,
   * so a send of ours that got no server ack (messaging.ts waits `serverAckTimeoutMs`) on a socket to which
   * nothing at all was delivered meanwhile proves that socket deaf: recycle it now rather than after `watchdogMs`.
   * A missing ack while other stanzas keep arriving is WhatsApp's business, not a deaf socket: no recycle.
   */
  private async watchedSend<T extends MsgRef>(send: () => Promise<T>): Promise<T> {
    const gen = this.generation
    const before = this.deliveries
    const ref = await send()
    if (
      ref.serverAck === false &&
      this.watchdogMs &&
      gen === this.generation &&
      this.deliveries === before &&
      // a send cut by a close (logout, replaced, network) is the close's business: handleClose decides
      !this.socketClosed &&
      this.sock !== undefined &&
      this.running &&
      this._status === 'CONNECTED'
    ) {
      this.options.log.warn('baileys: watchdog recycles a socket that acked no send', {
        connectionId: this.connectionId,
        msgId: ref.id,
      })
      this.recycle('watchdog: a send got no server ack and nothing else arrived, logging in again')
    }
    return ref
  }

  /** Ends the current socket and logs in again with the stored creds (its buffered events still go in). */
  private recycle(detail: string): void {
    this.clearTimer('watchdogTimer')
    void this.setStatus('OPENING', { detail, statusReason: 'no_network' }).then(() => this.connect())
  }

  private armWatchdog(): void {
    this.clearTimer('watchdogTimer')
    if (!this.watchdogMs) return
    const due = this.lastDelivery + this.watchdogMs - this.options.clock.now()
    this.watchdogTimer = this.clock.setTimeout(
      () => {
        this.watchdogTimer = undefined
        if (!this.running || this._status !== 'CONNECTED') return
        const idle = this.options.clock.now() - this.lastDelivery
        if (idle < this.watchdogMs) return this.armWatchdog()
        this.options.log.warn('baileys: watchdog recycles a socket with no deliveries', {
          connectionId: this.connectionId,
          idleMs: idle,
        })
        this.recycle(`watchdog: nothing delivered for ${Math.round(idle / 60_000)} min, logging in again`)
      },
      Math.max(1, due),
    )
  }

  private async setStatus(status: ConnectionStatus, extra: StatusExtra = {}, force = false): Promise<void> {
    const changed = status !== this._status
    this._status = status
    if (changed || force || extra.detail || extra.me) await this.emit({ t: 'status', status, ...extra })
  }

  private async emit(event: ChannelEvent): Promise<void> {
    for (const listener of [...this.listeners]) {
      try {
        await listener(event)
      } catch (err) {
        this.options.log.error('channel listener failed', {
          connectionId: this.connectionId,
          event: event.t,
          error: (err as Error).message,
        })
      }
    }
  }

  private requireSocket(): SocketLike {
    if (this._status !== 'CONNECTED' || !this.sock)
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected')
    return this.sock
  }

  // --- messaging (messaging.ts) --------------------------------------------------------------------------

  send(to: ContactRef, content: OutboundContent, options?: SendOptions): Promise<MsgRef> {
    return this.watchedSend(() => this.messaging.send(to, content, options))
  }

  react(target: MsgRef, emoji: string): Promise<void> {
    return this.messaging.react(target, emoji)
  }

  edit(target: MsgRef, body: string): Promise<void> {
    return this.messaging.edit(target, body)
  }

  deleteForEveryone(target: MsgRef): Promise<void> {
    return this.messaging.deleteForEveryone(target)
  }

  forward(to: ContactRef, source: MsgRef, raw: Uint8Array): Promise<MsgRef> {
    return this.watchedSend(() => this.messaging.forward(to, source, raw))
  }

  markRead(refs: MsgRef[]): Promise<void> {
    return this.messaging.markRead(refs)
  }

  sendPresence(to: ContactRef, state: 'composing' | 'paused'): Promise<void> {
    return this.messaging.sendPresence(to, state)
  }

  checkNumbers(phones: string[]): Promise<{ phone: string; exists: boolean; jid?: string }[]> {
    return this.messaging.checkNumbers(phones)
  }

  profilePictureUrl(contact: ContactRef): Promise<string | null> {
    return this.messaging.profilePictureUrl(contact)
  }

  downloadMedia(raw: Uint8Array): Promise<Uint8Array> {
    return this.messaging.downloadMedia(raw)
  }

  rejectCall(call: { id: string; from: ContactRef }): Promise<void> {
    return this.messaging.rejectCall(call)
  }

  reuploadMedia(raw: Uint8Array): Promise<Uint8Array> {
    return this.messaging.reuploadMedia(raw)
  }
}

/** The stanzas that prove WhatsApp delivers to a socket (the watchdog's measure); iqs, pongs included, do not. */
const DELIVERY_STANZAS = new Set(['message', 'receipt', 'notification', 'call', 'ack'])

/** Whether a frame Baileys's ws emitted (a decoded node, or raw bytes before the handshake ends) is a delivery. */
function isDelivery(frame: unknown): boolean {
  if (!frame || typeof frame !== 'object' || frame instanceof Uint8Array) return false
  const tag = (frame as Partial<BinaryNode>).tag
  return typeof tag === 'string' && DELIVERY_STANZAS.has(tag)
}

/** Hands Baileys's buffered events over now (its buffer holds them until the offline burst ends). */
function flushEvents(sock: SocketLike): void {
  try {
    sock.ev.flush()
  } catch {
    // a socket that already ended has nothing buffered
  }
}
