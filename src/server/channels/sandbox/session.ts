/**
 * One sandbox WhatsApp session: the QR / pairing / restart life cycle of a Baileys socket, simulated on the
 * network's clock and timers, and what the company sends, with every message, receipt, edit and reaction built
 * as the Baileys shape and normalized by the same function as the real adapter. What customers do to it is the
 * customer side, customer.ts.
 */
import {
  type AnyMessageContent,
  type BaileysEventMap,
  generateForwardMessageContent,
  generateMessageIDV2,
  generateWAMessageContent,
  getContentType,
  isJidGroup,
  isLidUser,
  normalizeMessageContent,
  proto,
  type WAMessage,
} from '@whiskeysockets/baileys'
import type { ConnectionStatus } from '../../../shared/connection-status'
import { AppError } from '../../../shared/errors'
import type { TimerHandle } from '../../clock'
import { digitsOnly, normalizeJid, pnFromJid, sendJid } from '../baileys/jid'
import {
  contentBody,
  decodeWAMessage,
  encodeWAMessage,
  type NormalizeContext,
  normalizeBaileysEvents,
  refToKey,
} from '../normalize'
import { reasonOfClose } from '../status-reasons'
import type {
  ChannelEvent,
  ChannelSession,
  ContactRef,
  MediaKind,
  MsgRef,
  OutboundContent,
  SendOptions,
} from '../types'
import { SandboxCustomerSide } from './customer'
import {
  avatarDataUrl,
  existsOnWhatsApp,
  GROUP_SUFFIX,
  hasPicture,
  isPhone,
  LID_SUFFIX,
  PN_SUFFIX,
  pairingCodeOf,
  qrStringOf,
} from './identities'
import {
  contactsContent,
  locationContent,
  mediaContent,
  plainKey,
  revokeContent,
  sentMessage,
  statusBatch,
  stubMessage,
} from './shapes'
import type {
  OutboundKind,
  OutboundRecord,
  SandboxCredentials,
  SandboxWorld as SandboxNetwork,
} from './world'

type Listener = (event: ChannelEvent) => void | Promise<void>

/** Disconnect codes `simulateDisconnect` understands (Baileys' DisconnectReason). */
export const SIMULATED_DISCONNECTS = [401, 403, 408, 428, 440, 500, 503, 515] as const
export type SimulatedDisconnect = (typeof SIMULATED_DISCONNECTS)[number]

const DETAIL: Record<SimulatedDisconnect, string> = {
  401: 'logged out',
  403: 'forbidden',
  408: 'connection lost',
  428: 'connection closed',
  440: 'connection replaced',
  500: 'bad session',
  503: 'service unavailable',
  515: 'restart required',
}

const Status = proto.WebMessageInfo.Status

const noUpload = async (): Promise<never> => {
  throw new Error('the sandbox builds media messages itself')
}

export class SandboxChannelSession implements ChannelSession {
  readonly connectionId: number
  private current: ConnectionStatus = 'DISCONNECTED'
  private readonly listeners = new Set<Listener>()
  /** Life-cycle timers: QR expiry, auto-pairing, reconnects. */
  private readonly timers = new Set<TimerHandle>()
  /** Receipt timers of sent messages. */
  private readonly ackTimers = new Set<TimerHandle>()
  /** Receipts that fell due while the session was reconnecting, delivered once it is back. */
  private deferredAcks: (() => void)[] = []
  /** Events go out one at a time, in order, each awaited on every listener. */
  private chain: Promise<void> = Promise.resolve()
  private qrAttempt = 0
  /** Which QR cycle of the connection this is: each start shows codes never shown before. */
  private round = 0
  private me: SandboxCredentials | undefined
  private context: NormalizeContext | undefined
  private detached = false
  private readonly customers: SandboxCustomerSide

  constructor(
    private readonly net: SandboxNetwork,
    readonly connection: { id: number; companyId: number; name: string },
  ) {
    this.connectionId = connection.id
    this.customers = new SandboxCustomerSide(net, connection.id, {
      requireConnected: () => this.requireConnected(),
      me: () => this.me,
      deliver: (batch, mark) => this.deliver(batch, mark),
    })
  }

  get status(): ConnectionStatus {
    return this.current
  }

  /** The company number this session is paired as, once connected. */
  get phone(): string | undefined {
    return this.me?.pn
  }

  on(listener: Listener) {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // life cycle

  async start(options?: { pairingPhone?: string }) {
    if (this.detached) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This sandbox session was replaced')
    if (this.current !== 'DISCONNECTED' && this.current !== 'TIMEOUT') return
    if (options?.pairingPhone !== undefined) this.checkPhone(options.pairingPhone)
    this.clearTimers()
    const creds = this.net.credentials(this.connectionId)
    this.current = 'OPENING'
    const opening = this.emit([{ t: 'status', status: 'OPENING' }])
    if (creds) {
      await opening
      return this.connect(creds)
    }
    if (options?.pairingPhone !== undefined) {
      await opening
      await this.requestPairingCode(options.pairingPhone)
      return
    }
    this.round = this.net.nextQrRound(this.connectionId)
    this.qrAttempt = 0
    if (this.net.autoPair) this.schedule(this.net.autoPairMs, () => void this.completePairing())
    await opening
    await this.showQr()
  }

  /** Closes without unlinking and without a word: the credentials stay, the connection row keeps its status. */
  async stop() {
    this.clearTimers()
    this.clearAckTimers()
    this.current = 'DISCONNECTED'
    this.context = undefined
    await this.chain
  }

  async logout() {
    this.clearTimers()
    this.clearAckTimers()
    this.net.forget(this.connectionId)
    const was = this.current
    this.current = 'DISCONNECTED'
    this.me = undefined
    this.context = undefined
    if (was !== 'DISCONNECTED') {
      await this.emit([{ t: 'status', status: 'DISCONNECTED', reason: 401, detail: DETAIL[401] }])
    }
  }

  async requestPairingCode(phone: string) {
    this.checkPhone(phone)
    if (this.detached) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This sandbox session was replaced')
    if (this.current === 'CONNECTED') {
      throw new AppError('ERR_VALIDATION', 'The session is already paired', undefined, [
        { field: 'phone', message: 'the session is already paired' },
      ])
    }
    if (this.current === 'DISCONNECTED' || this.current === 'TIMEOUT') {
      this.current = 'OPENING'
      await this.emit([{ t: 'status', status: 'OPENING' }])
    }
    this.clearTimers()
    const code = pairingCodeOf(this.connectionId, phone)
    const expiresAt = this.net.clock.now() + this.net.scaled(180_000)
    this.current = 'PAIRING'
    this.schedule(this.net.autoPairMs, () => void this.completePairing(phone))
    await this.emit([
      { t: 'pairingCode', code, expiresAt },
      { t: 'status', status: 'PAIRING' },
    ])
    return code
  }

  /** Completes the pending QR or pairing code at once, as if the phone had scanned it. */
  async pair() {
    if (this.current === 'CONNECTED') return
    if (this.current !== 'qrcode' && this.current !== 'PAIRING') {
      throw new AppError(
        'ERR_WAPP_NOT_INITIALIZED',
        'The session is not waiting for a QR scan: start it first',
      )
    }
    await this.completePairing()
  }

  /** Failure injection: the socket closes with a Baileys DisconnectReason code. */
  async disconnect(code: number) {
    if (!SIMULATED_DISCONNECTS.includes(code as SimulatedDisconnect)) {
      throw new AppError('ERR_VALIDATION', 'Unsupported disconnect code', undefined, [
        { field: 'code', message: `must be one of ${SIMULATED_DISCONNECTS.join(', ')}` },
      ])
    }
    this.requireConnected()
    const reason = code as SimulatedDisconnect
    const creds = this.me!
    this.clearTimers()
    this.context = undefined
    if (reason === 401 || reason === 403 || reason === 440) {
      this.clearAckTimers()
      if (reason === 401) {
        this.net.forget(this.connectionId)
        this.me = undefined
      }
      this.current = 'DISCONNECTED'
      await this.emit([
        {
          t: 'status',
          status: 'DISCONNECTED',
          reason,
          detail: DETAIL[reason],
          statusReason: reasonOfClose(reason),
        },
      ])
      return
    }
    this.current = 'OPENING'
    if (reason === 515) {
      await this.emit([{ t: 'status', status: 'OPENING', reason, detail: DETAIL[reason] }])
      return this.connect(creds)
    }
    const retryInMs = this.net.scaled(this.net.reconnectMs)
    this.schedule(this.net.reconnectMs, () => {
      if (this.current === 'OPENING' && this.net.credentials(this.connectionId)) void this.connect(creds)
    })
    await this.emit([
      {
        t: 'status',
        status: 'OPENING',
        reason,
        detail: DETAIL[reason],
        retryInMs,
        statusReason: reasonOfClose(reason),
      },
    ])
  }

  /** Drops the session without a word (another session took its connection id). */
  detach() {
    this.detached = true
    this.clearTimers()
    this.clearAckTimers()
    this.current = 'DISCONNECTED'
    this.listeners.clear()
  }

  /** Resolves when every event emitted so far has been handled by the listeners. */
  async idle() {
    let seen: Promise<void> | undefined
    while (seen !== this.chain) {
      seen = this.chain
      await seen
    }
  }

  private async showQr() {
    this.qrAttempt++
    const attempt = this.qrAttempt
    const lifetime = attempt === 1 ? 60_000 : 20_000
    const expiresAt = this.net.clock.now() + this.net.scaled(lifetime)
    const events: ChannelEvent[] = [
      { t: 'qr', qr: qrStringOf(this.connectionId, this.round, attempt), attempt, expiresAt },
    ]
    if (this.current !== 'qrcode') events.push({ t: 'status', status: 'qrcode' })
    this.current = 'qrcode'
    this.schedule(lifetime, () => {
      if (this.current !== 'qrcode' || this.qrAttempt !== attempt) return
      if (attempt >= this.net.maxQrAttempts) void this.timeout()
      else void this.showQr()
    })
    await this.emit(events)
  }

  private async timeout() {
    this.clearTimers()
    this.current = 'TIMEOUT'
    await this.emit([
      {
        t: 'status',
        status: 'TIMEOUT',
        reason: 408,
        detail: 'QR refs attempts ended',
        statusReason: 'qr_timeout',
      },
    ])
  }

  /** The phone scanned: credentials are saved, the server asks for a restart (515), the new socket opens. */
  private async completePairing(phone?: string) {
    if (this.current !== 'qrcode' && this.current !== 'PAIRING' && this.current !== 'OPENING') return
    this.clearTimers()
    const creds = this.net.pairCredentials(this.connectionId, phone)
    this.current = 'OPENING'
    const restart = this.emit([{ t: 'status', status: 'OPENING', reason: 515, detail: DETAIL[515] }])
    const open = this.connect(creds)
    await restart
    await open
  }

  private async connect(creds: SandboxCredentials) {
    this.me = creds
    this.current = 'CONNECTED'
    this.context = undefined
    const deferred = this.deferredAcks
    this.deferredAcks = []
    const me: ContactRef = { jid: `${creds.pn}${PN_SUFFIX}`, pn: creds.pn, lid: `${creds.lid}${LID_SUFFIX}` }
    const done = this.emit([{ t: 'status', status: 'CONNECTED', me }])
    for (const ack of deferred) ack()
    await done
  }

  // -------------------------------------------------------------------------------------------------------
  // outbound

  async send(to: ContactRef, content: OutboundContent, options?: SendOptions): Promise<MsgRef> {
    this.requireConnected()
    const jid = this.target(to)
    if (this.net.refuses(this.connectionId, jid))
      throw new AppError(
        'ERR_WAPP_RESTRICTED',
        '463: this number may not start new chats for now (reach-out time lock)',
        {
          status: 463,
        },
      )
    const now = this.net.clock.now()
    const record: Omit<OutboundRecord, 'id' | 'to' | 'at' | 'ack'> = { kind: content.kind }
    let message: proto.IMessage
    switch (content.kind) {
      case 'text':
        message = await this.content({ text: content.body })
        record.body = content.body
        break
      case 'location':
        message = locationContent(content)
        if (content.name) record.body = content.name
        break
      case 'contacts':
        if (!content.contacts.length) {
          throw new AppError('ERR_VALIDATION', 'No contacts to send', undefined, [
            { field: 'contacts', message: 'must not be empty' },
          ])
        }
        message = contactsContent(content.contacts)
        record.body = content.contacts.map((c) => c.displayName).join(', ')
        break
      default: {
        const file = Bun.file(content.path)
        if (!(await file.exists()))
          throw new AppError('ERR_SENDING_WAPP_MSG', `File not found: ${content.path}`)
        const size = file.size
        const fileName = content.fileName ?? content.path.split('/').pop() ?? 'file'
        const directPath = this.net.directPathFor(`out:${content.path}:${size}:${now}`)
        message = mediaContent({
          kind: content.kind,
          mimetype: content.mimetype,
          directPath,
          size,
          sha256: this.net.digest(`${content.path}:${size}`),
          timestampMs: now,
          fileName,
          caption: content.caption,
          ptt: content.ptt,
        })
        record.media = { mimetype: content.mimetype, fileName, size }
        if (content.caption) record.body = content.caption
      }
    }
    const quoted = options?.quoted ? this.quotable(options.quoted) : undefined
    if (options?.quoted) record.quotedId = options.quoted.id
    return this.dispatch(jid, message, record, quoted, true)
  }

  /** "typing..." in the customer's chat (recorded, see SandboxNetwork.presence). */
  async sendPresence(to: ContactRef, state: 'composing' | 'paused') {
    this.requireConnected()
    this.net.recordPresence(this.connectionId, this.target(to), state)
  }

  async react(target: MsgRef, emoji: string) {
    this.requireConnected()
    const key = this.targetKey(target)
    const message = await this.content({
      react: { key, text: emoji, senderTimestampMs: this.net.clock.now() },
    })
    await this.dispatch(normalizeJid(target.chatJid), message, {
      kind: 'reaction',
      emoji,
      reactionTo: target.id,
    })
  }

  async edit(target: MsgRef, body: string) {
    this.requireConnected()
    if (!target.fromMe) {
      throw new AppError('ERR_VALIDATION', 'Only messages we sent can be edited', undefined, [
        { field: 'target', message: 'must be a message we sent' },
      ])
    }
    const message = await this.content({ text: body, edit: this.targetKey(target) })
    if (message.protocolMessage) message.protocolMessage.timestampMs = this.net.clock.now()
    await this.dispatch(normalizeJid(target.chatJid), message, { kind: 'edit', body, editOf: target.id })
  }

  async deleteForEveryone(target: MsgRef) {
    this.requireConnected()
    if (!target.fromMe)
      throw new AppError('ERR_DELETE_WAPP_MSG', 'Only messages we sent can be deleted for everyone')
    const message = revokeContent(this.targetKey(target))
    await this.dispatch(normalizeJid(target.chatJid), message, { kind: 'delete', deleteOf: target.id })
  }

  async forward(to: ContactRef, source: MsgRef, raw: Uint8Array): Promise<MsgRef> {
    this.requireConnected()
    const jid = this.target(to)
    let original: WAMessage
    try {
      original = decodeWAMessage(raw)
    } catch {
      original = { key: {} }
    }
    if (!original.message) {
      throw new AppError('ERR_VALIDATION', 'Not a stored WhatsApp message', undefined, [
        { field: 'raw', message: 'must be the raw bytes of a message' },
      ])
    }
    const message = generateForwardMessageContent(original, false)
    const inner = normalizeMessageContent(message)
    const media = inner?.imageMessage ?? inner?.videoMessage ?? inner?.audioMessage ?? inner?.documentMessage
    const record: Omit<OutboundRecord, 'id' | 'to' | 'at' | 'ack'> = {
      kind: kindOf(message),
      forwardOf: source.id,
    }
    const body = inner ? contentBody(inner) : ''
    if (body) record.body = body
    if (media) {
      record.media = {
        mimetype: media.mimetype ?? 'application/octet-stream',
        fileName: inner?.documentMessage?.fileName ?? '',
        size: Number(media.fileLength ?? 0),
      }
    }
    return this.dispatch(jid, message, record, undefined, true)
  }

  /** Declines a virtual customer's call: recorded in the outbox as kind 'callReject'. */
  async rejectCall(call: { id: string; from: ContactRef }) {
    this.requireConnected()
    const now = this.net.clock.now()
    this.net.record(this.connectionId, {
      id: call.id,
      to: normalizeJid(call.from.jid),
      kind: 'callReject',
      callId: call.id,
      at: now,
      ack: 1,
    })
  }

  async markRead(_refs: MsgRef[]) {
    this.requireConnected()
  }

  async checkNumbers(phones: string[]) {
    this.requireConnected()
    return phones.map((phone) => {
      const digits = digitsOnly(phone)
      return existsOnWhatsApp(digits)
        ? { phone, exists: true, jid: `${digits}${PN_SUFFIX}` }
        : { phone, exists: false }
    })
  }

  async profilePictureUrl(contact: ContactRef) {
    this.requireConnected()
    const jid = contact.jid ? normalizeJid(contact.jid) : ''
    if (jid.endsWith(GROUP_SUFFIX)) return avatarDataUrl(jid, this.net.groupName(jid) ?? 'Grupo')
    const pn =
      contact.pn ??
      pnFromJid(jid) ??
      this.net.pnForLid(contact.lid ?? jid) ??
      (jid === '' ? undefined : this.net.pnForLid(jid))
    if (!pn || !existsOnWhatsApp(pn) || !hasPicture(pn)) return null
    return this.net.customer(pn).avatarUrl
  }

  /** Builds, stores and records a message we send; schedules its receipts when it shows in the chat. */
  private dispatch(
    jid: string,
    message: proto.IMessage,
    fields: Omit<OutboundRecord, 'id' | 'to' | 'at' | 'ack'> & { kind: OutboundKind },
    quoted?: WAMessage,
    withAcks = false,
  ): MsgRef {
    const me = this.me!
    const now = this.net.clock.now()
    const id = generateMessageIDV2(`${me.pn}${PN_SUFFIX}`)
    const msg = sentMessage({
      jid,
      content: message,
      id,
      timestampMs: now,
      meJid: `${me.pn}${PN_SUFFIX}`,
      quoted,
    })
    this.net.rememberMessage(this.connectionId, msg)
    const record: OutboundRecord = { id, to: jid, at: now, ack: withAcks ? 0 : 1, ...fields }
    this.net.record(this.connectionId, record)
    if (withAcks) this.scheduleAcks(record, jid)
    const ref: MsgRef = { id, chatJid: jid, fromMe: true }
    // in groups Baileys names us as the participant of what we send
    if (isJidGroup(jid)) ref.participant = `${me.pn}${PN_SUFFIX}`
    return ref
  }

  /** sent (server ack) soon, delivered a little later, read after a while; a number not on WhatsApp stops at sent. */
  private scheduleAcks(record: OutboundRecord, jid: string) {
    const key: proto.IMessageKey = { remoteJid: jid, fromMe: true, id: record.id }
    const d = this.net.ackDelays
    const steps: [number, proto.WebMessageInfo.Status, 1 | 2 | 4][] = [[d.sent, Status.SERVER_ACK, 1]]
    const pn = isLidUser(jid) ? this.net.pnForLid(jid) : pnFromJid(jid)
    if (isJidGroup(jid) || (pn && existsOnWhatsApp(pn))) {
      steps.push([d.delivered, Status.DELIVERY_ACK, 2], [d.read, Status.READ, 4])
    }
    for (const [ms, status, ack] of steps) {
      const handle = this.net.clock.setTimeout(() => {
        this.ackTimers.delete(handle)
        const deliver = () => {
          if (record.ack >= ack) return
          record.ack = ack
          void this.deliver(statusBatch(key, status, this.net.clock.now()))
        }
        if (this.current === 'CONNECTED') deliver()
        else this.deferredAcks.push(deliver)
      }, this.net.scaled(ms))
      this.ackTimers.add(handle)
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // the customer side (customer.ts)

  /** A virtual customer writes (see SandboxInbound); the Baileys batch is normalized and emitted. */
  inject(input: unknown): Promise<{ id: string }> {
    return this.customers.inject(input)
  }

  /** Several customers' messages at once, in order (see SandboxCustomerSide.injectBatch). */
  injectBatch(
    inputs: unknown[],
    options: { mark?: (event: ChannelEvent) => void } = {},
  ): Promise<{ ids: string[] }> {
    return this.customers.injectBatch(inputs, options)
  }

  /** A history sync chunk (`messaging-history.set`) of old messages, built as `inject` builds them. */
  history(
    inputs: unknown[],
    options: { progress?: number; isLatest?: boolean } = {},
  ): Promise<{ ids: string[] }> {
    return this.customers.history(inputs, options)
  }

  // -------------------------------------------------------------------------------------------------------
  // media

  async downloadMedia(raw: Uint8Array): Promise<Uint8Array> {
    return this.net.download(decodeStored(raw))
  }

  /** The phone uploads an expired media again (see `SandboxNetwork.expireMedia`). */
  async reuploadMedia(raw: Uint8Array): Promise<Uint8Array> {
    this.requireConnected()
    return encodeWAMessage(this.net.reupload(decodeStored(raw)))
  }

  // -------------------------------------------------------------------------------------------------------
  // plumbing

  /** Normalizes a Baileys batch with the shared function and emits the result. */
  async deliver(batch: Partial<BaileysEventMap>, mark?: (event: ChannelEvent) => void) {
    const events = normalizeBaileysEvents(batch, this.normalizeContext())
    if (mark) for (const event of events) mark(event)
    await this.emit(events)
  }

  private normalizeContext(): NormalizeContext {
    if (!this.context) {
      const me = this.me
      this.context = {
        meJid: me ? `${me.pn}${PN_SUFFIX}` : undefined,
        meLid: me ? `${me.lid}${LID_SUFFIX}` : undefined,
        download: (msg) => this.net.download(msg),
        resolvePn: (lid) => this.net.pnForLid(lid),
        now: () => this.net.clock.now(),
      }
    }
    return this.context
  }

  private emit(events: ChannelEvent[]): Promise<void> {
    if (!events.length) return this.chain
    const run = async () => {
      for (const event of events) {
        for (const listener of [...this.listeners]) {
          try {
            await listener(event)
          } catch (err) {
            this.net.log.error('sandbox listener failed', {
              connectionId: this.connectionId,
              event: event.t,
              error: (err as Error).message,
            })
          }
        }
      }
    }
    this.chain = this.chain.then(run)
    return this.chain
  }

  private schedule(ms: number, fn: () => void) {
    const handle = this.net.clock.setTimeout(() => {
      this.timers.delete(handle)
      fn()
    }, this.net.scaled(ms))
    this.timers.add(handle)
  }

  private clearTimers() {
    for (const handle of this.timers) this.net.clock.clearTimeout(handle)
    this.timers.clear()
  }

  private clearAckTimers() {
    for (const handle of this.ackTimers) this.net.clock.clearTimeout(handle)
    this.ackTimers.clear()
    this.deferredAcks = []
  }

  private requireConnected() {
    if (this.current !== 'CONNECTED' || !this.me) {
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The sandbox session is not connected')
    }
  }

  private checkPhone(phone: string) {
    if (typeof phone !== 'string' || !isPhone(phone)) {
      throw new AppError('ERR_VALIDATION', 'Invalid phone number', undefined, [
        { field: 'phone', message: 'must be 8 to 15 digits' },
      ])
    }
  }

  /** The JID to send to, checked. */
  private target(to: ContactRef) {
    let jid: string
    try {
      jid = sendJid(to)
    } catch {
      jid = ''
    }
    const user = jid.split('@')[0] ?? ''
    const ok =
      (jid.endsWith(PN_SUFFIX) && isPhone(user)) ||
      (jid.endsWith(LID_SUFFIX) && /^\d+$/.test(user)) ||
      (jid.endsWith(GROUP_SUFFIX) && /^[\d-]+$/.test(user))
    if (!ok) throw new AppError('ERR_WAPP_INVALID_CONTACT', `Not a WhatsApp address: ${jid || '(empty)'}`)
    return jid
  }

  /** The key of a message we act on: the stored one when the network holds it. */
  private targetKey(ref: MsgRef): proto.IMessageKey {
    const stored = this.net.findMessage(this.connectionId, ref.id)
    return stored ? plainKey(stored.key) : refToKey(ref)
  }

  /** A message to quote: the stored one, or a stand-in. */
  private quotable(ref: MsgRef): WAMessage {
    return this.net.findMessage(this.connectionId, ref.id) ?? stubMessage(refToKey(ref))
  }

  private content(content: AnyMessageContent) {
    return generateWAMessageContent(content, { upload: noUpload })
  }
}

function decodeStored(raw: Uint8Array): WAMessage {
  try {
    return decodeWAMessage(raw)
  } catch {
    throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'Not a stored WhatsApp message')
  }
}

function kindOf(message: proto.IMessage): OutboundKind {
  const type = getContentType(normalizeMessageContent(message))
  const kinds: Partial<Record<string, MediaKind | 'location' | 'contacts'>> = {
    imageMessage: 'image',
    videoMessage: 'video',
    audioMessage: 'audio',
    documentMessage: 'document',
    stickerMessage: 'sticker',
    locationMessage: 'location',
    contactMessage: 'contacts',
    contactsArrayMessage: 'contacts',
  }
  return (type && kinds[type]) || 'text'
}
