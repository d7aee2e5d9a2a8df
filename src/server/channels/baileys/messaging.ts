/**
 * The messaging half of a Baileys session: inbound batches through `normalizeBaileysEvents` (with the LIDs
 * resolved and the raw messages kept for retries, quotes and forwards), and outbound work run one at a time in
 * call order on the connected socket. The lifecycle half (session.ts) owns the socket and hands it over.
 */
import {
  type AnyMessageContent,
  type BaileysEventMap,
  type BinaryNode,
  downloadMediaMessage,
  generateMessageIDV2,
  isLidUser,
  type MiscMessageGenerationOptions,
  type proto,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys'
import { AppError, type ErrorCode } from '../../../shared/errors'
import type { Clock, TimerHandle } from '../../clock'
import type { Logger } from '../../logger'
import {
  decodeWAMessage,
  encodeWAMessage,
  type NormalizeContext,
  normalizeBaileysEvents,
  normalizeUnavailable,
  refToKey,
} from '../normalize'
import type { ChannelEvent, ContactRef, MsgRef, OutboundContent, SendOptions } from '../types'
import {
  addressingOf,
  type ChatAddressing,
  chatJid,
  digitsOnly,
  jidUser,
  pnFromJid,
  sendJid,
  toLidJid,
  whatsappNumberForms,
} from './jid'
import { baileysLogger, Lru, type MessageStore, type SocketLike, statusCodeOf } from './socket'
import { MEDIA_UPLOAD_TIMEOUT_MS, mediaUploader } from './upload'

/**
 * How long a send waits for WhatsApp's server ack (it comes within milliseconds). Past it the message counts as
 * handed over but not acknowledged (ack 0): the customer's receipts move it on when they come.
 */
export const SERVER_ACK_TIMEOUT_MS = 20_000

/** What the server's `<ack class="message">` said of a message we sent. */
type ServerAck = { acked: true } | { acked: false } | { acked: true; error: string }

export type MessagingOptions = {
  connectionId: number
  log: Logger
  clock: Clock
  /** See SERVER_ACK_TIMEOUT_MS. */
  serverAckTimeoutMs?: number | undefined
  /** See MEDIA_UPLOAD_TIMEOUT_MS (upload.ts). */
  mediaUploadTimeoutMs?: number | undefined
  messageStore?: MessageStore | undefined
  downloadMedia?: ((msg: WAMessage, sock: SocketLike) => Promise<Uint8Array>) | undefined
  recentMessages?: number | undefined
}

/** What messaging needs of the lifecycle: the socket it holds, and the session's listeners. */
export type SessionLink = {
  /** The current socket, connected or not. */
  socket(): SocketLike | undefined
  /** The socket while CONNECTED; ERR_WAPP_NOT_INITIALIZED otherwise. */
  requireSocket(): SocketLike
  emit(event: ChannelEvent): Promise<void>
}

export class BaileysMessaging {
  private readonly recent: Lru<Uint8Array>
  private readonly sentIds = new Lru<true>(2_000)
  /**
   * How WhatsApp addresses each one-to-one chat, by the person's number and by their LID, as its last message
   * showed: replies keep that addressing (`chatJid`).
   */
  private readonly chatAddressing = new Lru<ChatAddressing>(10_000)
  private outboundChain: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly options: MessagingOptions,
    private readonly link: SessionLink,
  ) {
    this.recent = new Lru(options.recentMessages ?? 2_000)
  }

  private get connectionId(): number {
    return this.options.connectionId
  }

  // --- inbound --------------------------------------------------------------------------------------------

  /** One batch of a socket's events: what carries messages, contacts or calls goes out normalized. */
  async handleEvents(sock: SocketLike, events: Partial<BaileysEventMap>): Promise<void> {
    const batch = events
    const relevant =
      batch['messages.upsert']?.messages.length ||
      batch['messages.update'] ||
      batch['message-receipt.update'] ||
      batch['messages.reaction'] ||
      batch['contacts.upsert'] ||
      batch['contacts.update'] ||
      batch['lid-mapping.update'] ||
      batch['messaging-history.set']?.lidPnMappings?.length ||
      batch['messaging-history.set']?.contacts?.length ||
      batch['messaging-history.set']?.messages?.length ||
      batch['messaging-history.status'] ||
      batch.call?.length
    if (!relevant) return
    this.learnAddressing(batch['messages.upsert']?.messages ?? [])
    const pns = await this.resolveLids(sock, batch)
    const ctx: NormalizeContext = {
      download: (msg) => this.download(msg, sock),
      resolvePn: (lid) => pns.get(lid),
      now: () => this.options.clock.now(),
    }
    const me = sock.user
    if (me?.id) ctx.meJid = me.id
    if (me?.lid) ctx.meLid = me.lid
    for (const normalized of normalizeBaileysEvents(batch, ctx)) {
      let event: ChannelEvent = normalized
      if (event.t === 'message' && event.ref.fromMe && this.sentIds.has(event.ref.id)) {
        // our own send echoing back (`append`): already stored, not inbound; a receipt folded into the echo
        // while Baileys buffered (delivered, read: its status) is still news
        if (event.ack === undefined || event.ack < 2) continue
        event = { t: 'ack', ref: event.ref, ack: event.ack }
      }
      if (event.t === 'message' && event.raw && !event.undecryptable) this.recent.set(event.ref.id, event.raw)
      await this.link.emit(event)
    }
  }

  /** Notes the addressing of the chats these messages came in (their `remoteJid`: PN or LID). */
  private learnAddressing(messages: WAMessage[]): void {
    for (const { key } of messages) {
      if (key.fromMe && key.id && this.sentIds.has(key.id)) continue // our own choice echoing back
      const addressing = addressingOf(key.remoteJid)
      if (!addressing) continue
      for (const jid of [key.remoteJid, key.remoteJidAlt]) {
        const user = jidUser(jid)
        if (user) this.chatAddressing.set(user, addressing)
      }
    }
  }

  /** Where a message to `to` goes: the chat in the addressing WhatsApp uses for it (`chatJid`). */
  private replyJid(to: ContactRef): string {
    const users = [
      to.lid ? jidUser(toLidJid(to.lid)) : undefined,
      to.pn && digitsOnly(to.pn),
      jidUser(to.jid),
    ]
    for (const user of users) {
      const addressing = user ? this.chatAddressing.get<ChatAddressing>(user) : undefined
      if (addressing) return chatJid(to, addressing)
    }
    return chatJid(to)
  }

  /** A message stanza WhatsApp withheld from linked devices (view once): a placeholder row (normalize.ts). */
  async handleUnavailable(sock: SocketLike, node: BinaryNode): Promise<void> {
    const ctx: NormalizeContext = {
      download: (msg) => this.download(msg, sock),
      now: () => this.options.clock.now(),
    }
    if (sock.user?.id) ctx.meJid = sock.user.id
    if (sock.user?.lid) ctx.meLid = sock.user.lid
    const event = normalizeUnavailable(node, ctx)
    if (event) await this.link.emit(event)
  }

  /** PNs of the LIDs in a batch that carry no alternative JID, from Baileys' LID mapping store. */
  private async resolveLids(
    sock: SocketLike,
    events: Partial<BaileysEventMap>,
  ): Promise<Map<string, string>> {
    const lids = new Set<string>()
    for (const m of events['messages.upsert']?.messages ?? []) {
      const k = m.key
      if (isLidUser(k.remoteJid ?? undefined) && !k.remoteJidAlt) lids.add(k.remoteJid as string)
      if (isLidUser(k.participant ?? undefined) && !k.participantAlt) lids.add(k.participant as string)
    }
    const out = new Map<string, string>()
    for (const lid of lids) {
      try {
        const pn = await sock.signalRepository.lidMapping.getPNForLID(lid)
        if (pn) out.set(lid, pn)
      } catch {
        // unknown mapping: the LID stays the identity
      }
    }
    return out
  }

  private async download(msg: WAMessage, origin: SocketLike): Promise<Uint8Array> {
    const sock = this.link.socket() ?? origin
    try {
      if (this.options.downloadMedia) return await this.options.downloadMedia(msg, sock)
      const buffer = await downloadMediaMessage(
        msg,
        'buffer',
        {},
        { reuploadRequest: (m) => sock.updateMediaMessage(m), logger: baileysLogger(this.options.log) },
      )
      return new Uint8Array(buffer)
    } catch (err) {
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', (err as Error).message)
    }
  }

  private async loadRaw(msgId: string): Promise<Uint8Array | undefined> {
    const cached = this.recent.get<Uint8Array>(msgId)
    if (cached) return cached
    try {
      return await this.options.messageStore?.load(this.connectionId, msgId)
    } catch {
      return undefined
    }
  }

  /** Baileys' getMessage (retry receipts): the content we sent or saw, undefined on a miss. */
  async getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined
    const raw = await this.loadRaw(key.id)
    if (!raw) return undefined
    try {
      return decodeWAMessage(raw).message ?? undefined
    } catch {
      return undefined
    }
  }

  // --- outbound -------------------------------------------------------------------------------------------

  /** Runs outbound work one at a time, in call order; refuses at once when not connected. */
  private enqueue<T>(code: ErrorCode, work: (sock: SocketLike) => Promise<T>): Promise<T> {
    try {
      this.link.requireSocket()
    } catch (err) {
      return Promise.reject(err)
    }
    const run = this.outboundChain.then(async () => {
      const sock = this.link.requireSocket()
      try {
        return await work(sock)
      } catch (err) {
        if (err instanceof AppError) throw err
        throw new AppError(code, (err as Error).message)
      }
    })
    this.outboundChain = run.catch(() => {})
    return run
  }

  /**
   * Sends and waits for WhatsApp's server ack of the message, so what the caller records is what the server
   * said: acknowledged (ack 1), refused (its error code: the send fails with the reason), or nothing within
   * the timeout (handed over, ack 0). A send Baileys could not hand over because the socket closed (428) is
   * ERR_WAPP_NOT_INITIALIZED: nothing left, so the sender puts it back in line.
   */
  private async sendRaw(
    sock: SocketLike,
    jid: string,
    content: AnyMessageContent,
    options: MiscMessageGenerationOptions = {},
  ): Promise<{ msg: WAMessage; serverAck: boolean }> {
    const messageId = options.messageId ?? generateMessageIDV2(sock.user?.id)
    const ack = this.serverAck(sock, messageId)
    let msg: WAMessage | undefined
    try {
      msg = await sock.sendMessage(jid, content, { ...options, messageId })
    } catch (err) {
      ack.cancel()
      if (closedWhileSending(err))
        throw new AppError(
          'ERR_WAPP_NOT_INITIALIZED',
          `the connection closed while sending (${describeError(err)})`,
        )
      throw err
    }
    if (!msg?.key.id) {
      ack.cancel()
      throw new AppError('ERR_SENDING_WAPP_MSG', 'no message returned')
    }
    this.sentIds.set(msg.key.id, true)
    const raw = encodeWAMessage(msg)
    this.recent.set(msg.key.id, raw)
    try {
      this.options.messageStore?.keepSent?.(this.connectionId, msg.key.id, raw)
    } catch (err) {
      // The message went out: failing the send now would only make someone send it twice.
      this.options.log.warn('baileys: could not keep a sent message for retries', {
        connectionId: this.connectionId,
        msgId: msg.key.id,
        error: (err as Error).message,
      })
    }
    const outcome = await ack.promise
    if ('error' in outcome) throw rejectedSend(outcome.error)
    return { msg, serverAck: outcome.acked }
  }

  /**
   * Media goes up with a length and a time limit (upload.ts), not through Baileys's Bun path (streamed, no
   * limit); a test double without Baileys's media connection keeps its own upload.
   */
  private mediaUpload(sock: SocketLike): Partial<MiscMessageGenerationOptions> {
    if (!sock.refreshMediaConn) return {}
    const timeoutMs = this.options.mediaUploadTimeoutMs ?? MEDIA_UPLOAD_TIMEOUT_MS
    const upload = mediaUploader(sock.refreshMediaConn, {
      timeoutMs,
      log: this.options.log,
      connectionId: this.connectionId,
    })
    // `upload` is a generation option sendMessage passes on (it spreads its options over its own).
    return { mediaUploadTimeoutMs: timeoutMs, upload } as Partial<MiscMessageGenerationOptions>
  }

  /** Listens for the server's ack of message `id` on the socket's stanza callbacks. */
  private serverAck(sock: SocketLike, id: string): { promise: Promise<ServerAck>; cancel(): void } {
    const ws = sock.ws
    // A socket without Baileys's emitter (some test doubles) cannot tell: as before, the send is its ack.
    if (!ws?.off) return { promise: Promise.resolve({ acked: true }), cancel() {} }
    let timer: TimerHandle | undefined
    let listener: ((...args: unknown[]) => void) | undefined
    let closed: (() => void) | undefined
    const cancel = () => {
      this.options.clock.clearTimeout(timer)
      if (listener) ws.off?.('CB:ack,class:message', listener)
      if (closed) ws.off?.('close', closed)
    }
    const promise = new Promise<ServerAck>((resolve) => {
      listener = (...args: unknown[]) => {
        const node = args[0] as BinaryNode | undefined
        if (node?.attrs.id !== id) return
        cancel()
        resolve(node.attrs.error ? { acked: true, error: node.attrs.error } : { acked: true })
      }
      ws.on('CB:ack,class:message', listener)
      // A socket that closed will never bring the ack: handed over, not acknowledged.
      closed = () => {
        cancel()
        resolve({ acked: false })
      }
      ws.on('close', closed)
      timer = this.options.clock.setTimeout(() => {
        cancel()
        this.options.log.warn('baileys: no server ack for a sent message', {
          connectionId: this.connectionId,
          msgId: id,
        })
        resolve({ acked: false })
      }, this.options.serverAckTimeoutMs ?? SERVER_ACK_TIMEOUT_MS)
    })
    return { promise, cancel }
  }

  /**
   * The message a reply quotes, as stored; undefined when Balcão holds no content for it (never seen, or a
   * placeholder such as "waiting for this message"): the reply then goes without a quote, since a quote by id
   * alone shows the customer an empty bubble (issue 20, defect 14).
   */
  private async quotedMessage(ref: MsgRef): Promise<WAMessage | undefined> {
    const raw = await this.loadRaw(ref.id)
    if (raw) {
      const msg = decodeWAMessage(raw)
      if (msg.message) return msg
    }
    this.options.log.warn('baileys: quoted message has no content here, replying without the quote', {
      connectionId: this.connectionId,
      msgId: ref.id,
    })
    return undefined
  }

  send(to: ContactRef, content: OutboundContent, options?: SendOptions): Promise<MsgRef> {
    return this.enqueue('ERR_SENDING_WAPP_MSG', async (sock) => {
      const jid = this.replyJid(to)
      const misc: MiscMessageGenerationOptions = {}
      const quoted = options?.quoted ? await this.quotedMessage(options.quoted) : undefined
      if (quoted) misc.quoted = quoted
      if (content.kind !== 'text' && content.kind !== 'location' && content.kind !== 'contacts')
        Object.assign(misc, this.mediaUpload(sock))
      const { msg, serverAck } = await this.sendRaw(sock, jid, outboundToBaileys(content), misc)
      return sentRef(msg, jid, serverAck)
    })
  }

  react(target: MsgRef, emoji: string): Promise<void> {
    return this.enqueue('ERR_SENDING_WAPP_MSG', async (sock) => {
      await this.sendRaw(sock, target.chatJid, { react: { key: refToKey(target), text: emoji } })
    })
  }

  edit(target: MsgRef, body: string): Promise<void> {
    return this.enqueue('ERR_SENDING_WAPP_MSG', async (sock) => {
      await this.sendRaw(sock, target.chatJid, { text: body, edit: refToKey(target) })
    })
  }

  deleteForEveryone(target: MsgRef): Promise<void> {
    return this.enqueue('ERR_DELETE_WAPP_MSG', async (sock) => {
      await this.sendRaw(sock, target.chatJid, { delete: refToKey(target) })
    })
  }

  forward(to: ContactRef, source: MsgRef, raw: Uint8Array): Promise<MsgRef> {
    return this.enqueue('ERR_SENDING_WAPP_MSG', async (sock) => {
      const original = raw.length ? decodeWAMessage(raw) : await this.quotedMessage(source)
      if (!original?.message) throw new AppError('ERR_FETCH_WAPP_MSG', 'nothing to forward')
      original.key = { ...refToKey(source), ...original.key }
      const jid = this.replyJid(to)
      const { msg, serverAck } = await this.sendRaw(sock, jid, { forward: original })
      return sentRef(msg, jid, serverAck)
    })
  }

  markRead(refs: MsgRef[]): Promise<void> {
    if (!refs.length) return Promise.resolve()
    return this.enqueue('ERR_SENDING_WAPP_MSG', async (sock) => {
      await sock.readMessages(refs.map(refToKey))
    })
  }

  sendPresence(to: ContactRef, state: 'composing' | 'paused'): Promise<void> {
    return this.enqueue('ERR_SENDING_WAPP_MSG', async (sock) => {
      await sock.sendPresenceUpdate(state, this.replyJid(to))
    })
  }

  checkNumbers(phones: string[]): Promise<{ phone: string; exists: boolean; jid?: string }[]> {
    return this.enqueue('ERR_WAPP_CHECK_CONTACT', async (sock) => {
      const digits = phones.map(digitsOnly)
      const found = (await sock.onWhatsApp(...digits.filter(Boolean))) ?? []
      // WhatsApp answers with the JID it keeps, not the number as asked (a Brazilian mobile registered before
      // the ninth digit, Mexico's 521, Argentina's 549), and its answer does not echo what was asked: a hit is
      // one of the number's forms, the exact one first.
      return phones.map((phone, i) => {
        const asked = digits[i]
        const forms = asked ? whatsappNumberForms(asked) : []
        const hit = forms
          .map((form) => found.find((f) => f.exists && pnFromJid(f.jid) === form))
          .find((f) => f !== undefined)
        return hit ? { phone, exists: true, jid: hit.jid } : { phone, exists: false }
      })
    })
  }

  profilePictureUrl(contact: ContactRef): Promise<string | null> {
    return this.enqueue('ERR_WAPP_CHECK_CONTACT', async (sock) => {
      try {
        return (await sock.profilePictureUrl(sendJid(contact), 'image')) ?? null
      } catch (err) {
        const code = statusCodeOf(err)
        if (code === 401 || code === 404) return null
        throw err
      }
    })
  }

  /** The media of a stored message, without re-upload (the caller decides); 404/410 mean expired. */
  async downloadMedia(raw: Uint8Array): Promise<Uint8Array> {
    const msg = decodeStored(raw)
    try {
      const sock = this.link.socket()
      if (this.options.downloadMedia && sock) return await this.options.downloadMedia(msg, sock)
      return new Uint8Array(await downloadMediaMessage(msg, 'buffer', {}))
    } catch (err) {
      if (err instanceof AppError) throw err
      const code = statusCodeOf(err)
      throw new AppError(
        'ERR_WAPP_DOWNLOAD_MEDIA',
        (err as Error).message,
        code === 404 || code === 410 ? { expired: true } : undefined,
      )
    }
  }

  /** Declines a call offered to the number (the `call` setting). */
  async rejectCall(call: { id: string; from: ContactRef }): Promise<void> {
    const sock = this.link.requireSocket()
    await sock.rejectCall?.(call.id, call.from.jid)
  }

  /** Asks the phone to upload the media again (updateMediaMessage); gives up after 30 s. */
  async reuploadMedia(raw: Uint8Array): Promise<Uint8Array> {
    const msg = decodeStored(raw)
    const sock = this.link.requireSocket()
    let timer: TimerHandle | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = this.options.clock.setTimeout(
        () => reject(new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The phone did not upload the media again')),
        30_000,
      )
    })
    try {
      const updated = await Promise.race([sock.updateMediaMessage(msg), timeout])
      return encodeWAMessage(updated)
    } catch (err) {
      if (err instanceof AppError) throw err
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', (err as Error).message)
    } finally {
      this.options.clock.clearTimeout(timer)
    }
  }
}

function decodeStored(raw: Uint8Array): WAMessage {
  try {
    return decodeWAMessage(raw)
  } catch {
    throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'Not a stored WhatsApp message')
  }
}

/** Our outbound content -> Baileys' AnyMessageContent. Media goes as `{ url: path }` (streamed from disk). */
export function outboundToBaileys(content: OutboundContent): AnyMessageContent {
  switch (content.kind) {
    case 'text':
      return { text: content.body }
    case 'location': {
      const location: proto.Message.ILocationMessage = {
        degreesLatitude: content.latitude,
        degreesLongitude: content.longitude,
      }
      if (content.name) location.name = content.name
      if (content.address) location.address = content.address
      return { location }
    }
    case 'contacts':
      return {
        contacts: {
          displayName:
            content.contacts.length === 1
              ? content.contacts[0]?.displayName
              : `${content.contacts.length} contacts`,
          contacts: content.contacts.map((c) => ({ displayName: c.displayName, vcard: c.vcard })),
        },
      }
    case 'image':
      return { image: { url: content.path }, mimetype: content.mimetype, ...caption(content.caption) }
    case 'video':
      return { video: { url: content.path }, mimetype: content.mimetype, ...caption(content.caption) }
    case 'audio':
      return { audio: { url: content.path }, mimetype: content.mimetype, ptt: !!content.ptt }
    case 'sticker':
      return { sticker: { url: content.path }, mimetype: content.mimetype }
    case 'document':
      return {
        document: { url: content.path },
        mimetype: content.mimetype,
        fileName: content.fileName ?? content.path.split('/').pop() ?? 'file',
        ...caption(content.caption),
      }
  }
}

function caption(text: string | undefined): { caption?: string } {
  return text ? { caption: text } : {}
}

/**
 * A send the socket's end cut before the stanza went out: Baileys's 428 (`Connection Closed`), or, from a query
 * it awaited first (usync, pre-keys), the WebSocket's close code itself, a bare number (`waitForMessage` in
 * Baileys's Socket/socket.js rejects with the `close` event's first argument).
 */
function closedWhileSending(err: unknown): boolean {
  return statusCodeOf(err) === 428 || typeof err === 'number'
}

function describeError(err: unknown): string {
  return typeof err === 'number' ? `socket closed, code ${err}` : ((err as Error)?.message ?? String(err))
}

/**
 * WhatsApp's error code of a refused send, as the sender's error: 463 is the number's restriction (the door
 * pauses outreach), the others a refusal of this message; each names the code for support.
 */
export function rejectedSend(code: string): AppError {
  if (code === '463')
    return new AppError(
      'ERR_WAPP_RESTRICTED',
      'WhatsApp refused the message (error 463): this number may not start new chats for now',
    )
  if (code === '479')
    return new AppError(
      'ERR_WAPP_REJECTED',
      "WhatsApp refused the message (error 479): the contact's devices changed; retry to send it again",
    )
  return new AppError('ERR_WAPP_REJECTED', `WhatsApp refused the message (error ${code})`)
}

function sentRef(msg: WAMessage, jid: string, serverAck = true): MsgRef {
  const ref: MsgRef = { id: msg.key.id as string, chatJid: jid, fromMe: true }
  if (!serverAck) ref.serverAck = false
  const participant = msg.key.participant ?? msg.participant
  if (participant) ref.participant = participant
  return ref
}
