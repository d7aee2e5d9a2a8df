/**
 * What both halves of a Baileys session share: the part of Baileys' socket they use, the auth state and raw
 * message store they are handed, a small LRU, and Baileys' logger over ours.
 */
import type {
  AuthenticationCreds,
  AuthenticationState,
  CacheStore,
  Contact,
  LIDMapping,
  WAMessage,
  WAMessageKey,
  WAPresence,
  WASocket,
} from '@whiskeysockets/baileys'
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger'
import type { Logger } from '../../logger'

/** The part of Baileys' socket the session uses (production: makeWASocket; tests: FakeSocket). */
export type SocketLike = {
  ev: WASocket['ev']
  readonly user: Contact | undefined
  authState: { creds: AuthenticationCreds }
  signalRepository: {
    lidMapping: {
      getPNForLID(lid: string): Promise<string | null>
      getLIDForPN(pn: string): Promise<string | null>
      storeLIDPNMappings(pairs: LIDMapping[]): Promise<void>
    }
  }
  /**
   * Baileys's WebSocket emitter (optional): raw frames (`'frame'`) for the watchdog, and the stanza callbacks
   * (`'CB:notification,type:companion_reg_refresh'`) Baileys itself does not handle.
   */
  ws?: {
    on(event: string, listener: (...args: unknown[]) => void): unknown
    off?(event: string, listener: (...args: unknown[]) => void): unknown
  }
  sendMessage: WASocket['sendMessage']
  /** Baileys's media connection (upload hosts and auth); absent on test doubles, which upload in memory. */
  refreshMediaConn?: WASocket['refreshMediaConn']
  readMessages(keys: WAMessageKey[]): Promise<void>
  sendPresenceUpdate(type: WAPresence, toJid?: string): Promise<void>
  presenceSubscribe(toJid: string): Promise<void>
  onWhatsApp(...phoneNumber: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>
  profilePictureUrl(jid: string, type?: 'preview' | 'image', timeoutMs?: number): Promise<string | undefined>
  requestPairingCode(phoneNumber: string, customPairingCode?: string): Promise<string>
  updateMediaMessage(message: WAMessage): Promise<WAMessage>
  /** Declines a call (absent on test sockets). */
  rejectCall?(callId: string, callFrom: string): Promise<void>
  logout(msg?: string): Promise<void>
  end(error: Error | undefined): Promise<void>
}

/** The auth state of one connection (the SQLite store in production). */
export type AuthHandle = {
  state: AuthenticationState
  saveCreds(): void | Promise<void>
  clear(): void | Promise<void>
}

/** Raw messages (proto.WebMessageInfo bytes) by id: for getMessage (retries), quoting and forwarding. */
export type MessageStore = {
  load(connectionId: number, msgId: string): Promise<Uint8Array | undefined>
  /**
   * Keeps what the session just sent (its encoded WAMessage), durably and at once: a recipient's retry receipt
   * may come after a restart, and `getMessage` must still find it.
   */
  keepSent?(connectionId: number, msgId: string, raw: Uint8Array): void
}

/** A small LRU (Map insertion order); also a Baileys CacheStore. */
export class Lru<V> implements CacheStore {
  private readonly map = new Map<string, V>()
  constructor(private readonly max: number) {}
  get<T>(key: string): T | undefined {
    const v = this.map.get(key)
    if (v === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, v)
    return v as unknown as T
  }
  has(key: string): boolean {
    return this.map.has(key)
  }
  set<T>(key: string, value: T): void {
    this.map.delete(key)
    this.map.set(key, value as unknown as V)
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next().value
      if (oldest !== undefined) this.map.delete(oldest)
    }
  }
  del(key: string): void {
    this.map.delete(key)
  }
  flushAll(): void {
    this.map.clear()
  }
  get size(): number {
    return this.map.size
  }
}

/** A pino-like logger over ours, at warn: Baileys' trace/debug/info are dropped, errors reduced to messages. */
export function baileysLogger(log: Logger, bindings: Record<string, unknown> = {}): ILogger {
  const fields = (obj: unknown): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...bindings }
    if (obj instanceof Error) out.error = obj.message
    else if (obj && typeof obj === 'object') {
      for (const [k, v] of Object.entries(obj)) {
        if (v instanceof Error) out[k] = v.message
        else if (v === null || ['string', 'number', 'boolean'].includes(typeof v))
          out[k] = typeof v === 'string' ? v.slice(0, 300) : v
      }
    }
    return out
  }
  const text = (obj: unknown, msg?: string) => msg ?? (typeof obj === 'string' ? obj : 'baileys')
  return {
    level: 'warn',
    child: (more) => baileysLogger(log, { ...bindings, ...more }),
    trace: () => {},
    debug: () => {},
    info: () => {},
    warn: (obj, msg) => log.warn(text(obj, msg), fields(obj)),
    error: (obj, msg) => log.error(text(obj, msg), fields(obj)),
  }
}

type Boomish = Error & { output?: { statusCode?: number } }

/** The status code of a Boom error (a close reason, an HTTP answer), if any. */
export function statusCodeOf(error: unknown): number | undefined {
  return (error as Boomish | undefined)?.output?.statusCode
}
