/**
 * The simulated WhatsApp world the sessions talk to (network.ts adds the sessions themselves): the "credentials"
 * of paired connections, the virtual customers, the messages and media it has carried, and the record of
 * everything the sessions sent. Time comes from the injected clock and timers. Apart from network.ts so a session
 * can reach the world without the world's file importing the session's.
 */
import { createHash } from 'node:crypto'
import type { WAMessage } from '@whiskeysockets/baileys'
import { AppError } from '../../../shared/errors'
import type { Clock } from '../../clock'
import { type Logger, silentLogger } from '../../logger'
import { normalizeJid } from '../baileys/jid'
import type { MediaKind } from '../types'
import {
  avatarDataUrl,
  companyPhoneOf,
  customerNameOf,
  isPhone,
  LID_SUFFIX,
  lidOf,
  PN_SUFFIX,
} from './identities'
import { mediaPart } from './shapes'

export type SandboxNetworkOptions = {
  /** Time and the timers of every delay of the simulated world. */
  clock: Clock
  /** Multiplies every delay (QR lifetimes, auto-pairing, receipts, reconnects): 0.01 makes a demo 100× faster. */
  timeScale?: number
  log?: Logger
  /** Sessions showing a QR pair by themselves after `autoPairMs` (default true). */
  autoPair?: boolean
  /** Default 5 s. Also how long a pairing code takes to be "typed on the phone". */
  autoPairMs?: number
  /** QR codes shown before TIMEOUT when nobody pairs (default 3: 60 s + 20 s + 20 s). */
  maxQrAttempts?: number
  /** When the receipts of a sent message arrive (default sent 50 ms, delivered 300 ms, read 2 s). */
  ackDelays?: { sent: number; delivered: number; read: number }
  /** Reconnect delay after a transient disconnect (408, 428, 500, 503); default 1 s. */
  reconnectMs?: number
}

/** The company number a connection is paired as (digits) and its LID (digits). */
export type SandboxCredentials = { pn: string; lid: string }

/** A virtual customer. */
export type SandboxCustomer = {
  pn: string
  /** LID digits. */
  lid: string
  jid: string
  lidJid: string
  /** Push name: the last one the customer used, or the deterministic one. */
  name: string
  /** A generated SVG avatar (`data:` URL). */
  avatarUrl: string
}

export type OutboundKind =
  | MediaKind
  | 'text'
  | 'location'
  | 'contacts'
  | 'reaction'
  | 'edit'
  | 'delete'
  /** A call from a virtual customer was declined (`to`: the caller; `callId`). */
  | 'callReject'

/** Something a session sent, as `GET /api/sandbox/connections/{id}/outbound` shows it. */
export type OutboundRecord = {
  id: string
  /** The JID it went to (the chat, for reactions, edits and deletes). */
  to: string
  kind: OutboundKind
  /** Text, caption, edited text, location name or contact names. */
  body?: string
  media?: { mimetype: string; fileName: string; size: number }
  quotedId?: string
  emoji?: string
  reactionTo?: string
  editOf?: string
  deleteOf?: string
  forwardOf?: string
  callId?: string
  /** Epoch ms. */
  at: number
  /** The spec's numbering: 0 pending, 1 sent, 2 delivered, 4 read. Reactions, edits and deletes stay at 1. */
  ack: number
}

const MAX_MESSAGES_PER_CONNECTION = 5_000
const MAX_OUTBOUND_PER_CONNECTION = 2_000
const MAX_MEDIA_BYTES = 128 * 1024 * 1024

export class SandboxWorld {
  readonly clock: Clock
  readonly timeScale: number
  readonly log: Logger
  readonly autoPair: boolean
  readonly autoPairMs: number
  readonly maxQrAttempts: number
  readonly ackDelays: { sent: number; delivered: number; read: number }
  readonly reconnectMs: number

  private readonly paired = new Map<number, SandboxCredentials>()
  private readonly qrRounds = new Map<number, number>()
  private readonly customers = new Map<string, SandboxCustomer>()
  private readonly lidToPn = new Map<string, string>()
  private readonly groups = new Map<string, string>()
  private readonly messages = new Map<number, Map<string, WAMessage>>()
  private readonly outbox = new Map<number, OutboundRecord[]>()
  private readonly media = new Map<string, Uint8Array>()
  /** Media WhatsApp's servers dropped (expired) that the phone still holds: a re-upload brings it back. */
  private readonly phoneMedia = new Map<string, Uint8Array>()
  /** Connections WhatsApp refuses new chats for (463), and the chats each one had before (still allowed). */
  private readonly restricted = new Set<number>()
  private readonly presences = new Map<number, { to: string; state: 'composing' | 'paused'; at: number }[]>()
  private downloadFailures = 0
  private mediaBytes = 0
  private mediaSeq = 0

  constructor(options: SandboxNetworkOptions) {
    this.clock = options.clock
    this.timeScale = options.timeScale ?? 1
    if (!(this.timeScale >= 0)) throw new Error('timeScale must be 0 or more')
    this.log = options.log ?? silentLogger
    this.autoPair = options.autoPair ?? true
    this.autoPairMs = options.autoPairMs ?? 5_000
    this.maxQrAttempts = Math.max(1, options.maxQrAttempts ?? 3)
    this.ackDelays = options.ackDelays ?? { sent: 50, delivered: 300, read: 2_000 }
    this.reconnectMs = options.reconnectMs ?? 1_000
  }

  // -------------------------------------------------------------------------------------------------------
  // pairing

  /** @internal The next QR cycle of a connection: a new session of it never shows a code shown before. */
  nextQrRound(connectionId: number) {
    const round = (this.qrRounds.get(connectionId) ?? 0) + 1
    this.qrRounds.set(connectionId, round)
    return round
  }

  /** Whether the connection holds "credentials": a later start connects without a QR. */
  isPaired(connectionId: number) {
    return this.paired.has(connectionId)
  }

  /** Drops the credentials (a live session stays connected until it stops). */
  forget(connectionId: number) {
    this.paired.delete(connectionId)
  }

  /** Everything the connection sent, oldest first (the last 2,000). */
  outbound(connectionId: number): OutboundRecord[] {
    return (this.outbox.get(connectionId) ?? []).map((r) => ({ ...r, media: r.media && { ...r.media } }))
  }

  /**
   * Failure injection: WhatsApp's servers drop the media of a message the connection received (it expired).
   * The phone keeps the file, so a re-upload brings it back, unless `lost` (the phone deleted it too).
   */
  expireMedia(connectionId: number, messageId: string, options: { lost?: boolean } = {}) {
    const path = mediaPart(this.findMessage(connectionId, messageId)?.message)?.directPath
    if (!path) {
      throw new AppError('ERR_VALIDATION', 'No media message with this id', undefined, [
        { field: 'id', message: 'must be the id of a media message of this connection' },
      ])
    }
    const bytes = this.media.get(path)
    if (bytes) {
      this.media.delete(path)
      this.mediaBytes -= bytes.byteLength
      if (!options.lost) this.phoneMedia.set(path, bytes)
    }
    if (options.lost) this.phoneMedia.delete(path)
  }

  /** Failure injection: the next `count` media downloads fail as a network error would (not expired). */
  /**
   * Failure injection: while on, sends from the connection to a chat it never talked with fail as WhatsApp's
   * 463 (a restricted number / reach-out time lock) does; chats with earlier messages still work.
   */
  restrict(connectionId: number, on: boolean) {
    if (on) this.restricted.add(connectionId)
    else this.restricted.delete(connectionId)
  }

  /** @internal Whether a send to this chat is refused now (restricted, and no earlier message in the chat). */
  refuses(connectionId: number, jid: string) {
    if (!this.restricted.has(connectionId)) return false
    for (const msg of this.messages.get(connectionId)?.values() ?? [])
      if (msg.key.remoteJid === jid) return false
    return true
  }

  /** @internal */
  recordPresence(connectionId: number, to: string, state: 'composing' | 'paused') {
    let list = this.presences.get(connectionId)
    if (!list) {
      list = []
      this.presences.set(connectionId, list)
    }
    list.push({ to, state, at: this.clock.now() })
    if (list.length > MAX_OUTBOUND_PER_CONNECTION) list.shift()
  }

  /** The "typing..." (composing) and paused presences the connection sent, oldest first. */
  presence(connectionId: number) {
    return (this.presences.get(connectionId) ?? []).map((p) => ({ ...p }))
  }

  failDownloads(count: number) {
    this.downloadFailures = Math.max(0, Math.floor(count))
  }

  // -------------------------------------------------------------------------------------------------------
  // identities

  /** The virtual customer with this phone number (digits); `name` becomes their push name from now on. */
  customer(pn: string, name?: string): SandboxCustomer {
    if (!isPhone(pn)) {
      throw new AppError('ERR_VALIDATION', 'Invalid phone number', undefined, [
        { field: 'from', message: 'must be 8 to 15 digits' },
      ])
    }
    let customer = this.customers.get(pn)
    if (!customer) {
      const lid = lidOf(pn)
      const display = name ?? customerNameOf(pn)
      customer = {
        pn,
        lid,
        jid: `${pn}${PN_SUFFIX}`,
        lidJid: `${lid}${LID_SUFFIX}`,
        name: display,
        avatarUrl: avatarDataUrl(pn, customerNameOf(pn)),
      }
      this.customers.set(pn, customer)
      this.lidToPn.set(lid, pn)
    } else if (name && name !== customer.name) customer.name = name
    return customer
  }

  /** The phone number (digits) behind a LID (digits or `…@lid`) this network has seen. */
  pnForLid(lid: string): string | undefined {
    const digits = lid.endsWith(LID_SUFFIX) ? normalizeJid(lid).slice(0, -LID_SUFFIX.length) : lid
    return this.lidToPn.get(digits)
  }

  nameGroup(groupJid: string, name: string) {
    this.groups.set(groupJid, name)
  }

  groupName(groupJid: string) {
    return this.groups.get(groupJid)
  }

  /** @internal The credentials of a paired connection. */
  credentials(connectionId: number) {
    return this.paired.get(connectionId)
  }

  /** @internal Pairing saves the credentials: the phone given for a pairing code, or the connection's number. */
  pairCredentials(connectionId: number, phone?: string): SandboxCredentials {
    const pn = phone ?? companyPhoneOf(connectionId)
    const creds = { pn, lid: lidOf(pn) }
    this.paired.set(connectionId, creds)
    this.lidToPn.set(creds.lid, pn)
    return creds
  }

  // -------------------------------------------------------------------------------------------------------
  // stores (internal to the sandbox)

  /** @internal A delay scaled by timeScale. */
  scaled(ms: number) {
    return Math.max(0, Math.round(ms * this.timeScale))
  }

  /** @internal */
  rememberMessage(connectionId: number, msg: WAMessage) {
    const id = msg.key.id
    if (!id) return
    let store = this.messages.get(connectionId)
    if (!store) {
      store = new Map()
      this.messages.set(connectionId, store)
    }
    store.delete(id)
    store.set(id, msg)
    if (store.size > MAX_MESSAGES_PER_CONNECTION) {
      const oldest = store.keys().next().value
      if (oldest !== undefined) store.delete(oldest)
    }
  }

  /** @internal */
  findMessage(connectionId: number, id: string) {
    return this.messages.get(connectionId)?.get(id)
  }

  /** @internal */
  record(connectionId: number, record: OutboundRecord) {
    let list = this.outbox.get(connectionId)
    if (!list) {
      list = []
      this.outbox.set(connectionId, list)
    }
    list.push(record)
    if (list.length > MAX_OUTBOUND_PER_CONNECTION) list.shift()
  }

  /** @internal A media path shaped like WhatsApp's, unique per call. */
  directPathFor(seed: string) {
    const token = createHash('sha256')
      .update(`${seed}:${++this.mediaSeq}`)
      .digest('base64url')
      .slice(0, 32)
    return `/v/t62.7118-24/sandbox/${token}.enc`
  }

  /** @internal */
  digest(data: string | Uint8Array) {
    return new Uint8Array(createHash('sha256').update(data).digest())
  }

  /** @internal Keeps injected bytes (the oldest go first past 128 MB). */
  putMedia(directPath: string, bytes: Uint8Array) {
    this.media.set(directPath, bytes)
    this.mediaBytes += bytes.byteLength
    for (const [path, old] of this.media) {
      if (this.mediaBytes <= MAX_MEDIA_BYTES || path === directPath) break
      this.media.delete(path)
      this.mediaBytes -= old.byteLength
    }
  }

  /**
   * The bytes of a message's media (what `InboundMedia.download` returns). Media the network does not hold
   * (expired, or evicted past 128 MB) fails with `details.expired`, as WhatsApp's 404/410.
   */
  async download(msg: WAMessage): Promise<Uint8Array> {
    if (this.downloadFailures > 0) {
      this.downloadFailures--
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'Simulated network failure')
    }
    const path = mediaPart(msg.message)?.directPath
    const bytes = path ? this.media.get(path) : undefined
    if (!bytes)
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The sandbox no longer holds this media', {
        expired: true,
      })
    return bytes.slice()
  }

  /** @internal The phone uploads an expired media again: the message gets a new address holding the bytes. */
  reupload(msg: WAMessage): WAMessage {
    const part = mediaPart(msg.message)
    const path = part?.directPath
    const bytes = path ? (this.phoneMedia.get(path) ?? this.media.get(path)) : undefined
    if (!part || !path || !bytes)
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The phone no longer holds this media')
    const fresh = this.directPathFor(`reupload:${path}`)
    this.putMedia(fresh, bytes)
    this.phoneMedia.delete(path)
    part.directPath = fresh
    part.url = `https://mmg.sandbox.invalid${fresh}?ccb=11-4&oh=sandbox&mms3=true`
    return msg
  }
}
