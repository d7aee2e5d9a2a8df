/**
 * Baileys events -> ChannelEvents. Pure: no socket, no I/O (media bytes only through `ctx.download`).
 * Shared by the Baileys session and the sandbox, which builds the same Baileys shapes (tests build them with
 * normalize.fixtures.ts).
 */
import {
  areJidsSameUser,
  type BaileysEventMap,
  type BinaryNode,
  type Contact,
  extractMessageContent,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  jidNormalizedUser,
  normalizeMessageContent,
  proto,
  type WAMessage,
  type WAMessageContent,
  type WAMessageKey,
} from '@whiskeysockets/baileys'
import { contactRef, normalizeJid, pnFromJid, toLidJid } from './baileys/jid'
import type { Ack, ChannelEvent, ContactRef, InboundMedia, InboundMessage, MediaKind, MsgRef } from './types'

export type NormalizeContext = {
  /** Our own PN JID (`sock.user.id`), to tell our messages and quotes apart. */
  meJid?: string
  /** Our own LID JID (`sock.user.lid`). */
  meLid?: string
  /** Downloads (and decrypts) the media of a message. */
  download: (msg: WAMessage) => Promise<Uint8Array>
  /** Phone number (digits or PN JID) known for a LID, when the message carries no alternative JID. */
  resolvePn?: (lid: string) => string | undefined
  /** Epoch ms for events without a timestamp; defaults to Date.now. */
  now?: () => number
}

const Status = proto.WebMessageInfo.Status
const StubType = proto.WebMessageInfo.StubType

/**
 * Baileys' message status (proto.WebMessageInfo.Status) -> the spec's ack numbering. The one place this lives.
 * ERROR 0 -> -1, PENDING 1 -> 0, SERVER_ACK 2 -> 1, DELIVERY_ACK 3 -> 2, READ 4 -> 4, PLAYED 5 -> 5.
 */
export function baileysStatusToAck(status: number | null | undefined): Ack | undefined {
  switch (status) {
    case Status.ERROR:
      return -1
    case Status.PENDING:
      return 0
    case Status.SERVER_ACK:
      return 1
    case Status.DELIVERY_ACK:
      return 2
    case Status.READ:
      return 4
    case Status.PLAYED:
      return 5
    default:
      return undefined
  }
}

export function normalizeBaileysEvents(
  events: Partial<BaileysEventMap>,
  ctx: NormalizeContext,
): ChannelEvent[] {
  const out: ChannelEvent[] = []
  const upsert = events['messages.upsert']
  if (upsert) {
    // Messages first, then what other messages of the batch say about them (their targets are stored by then).
    const revoked = revokedTargets(upsert.messages)
    const unfolded = unfoldedTargets(events)
    const actions: ChannelEvent[] = []
    for (const msg of upsert.messages) {
      const offline = upsert.type === 'append'
      // one message we cannot read never costs the batch: it becomes a "not supported" row, the rest goes on
      try {
        const event = normalizeWAMessage(msg, ctx, { offline }) ?? foldedRevoke(msg, revoked, ctx, offline)
        if (event) out.push(event)
        actions.push(...messageActions(msg, revoked, ctx, unfolded))
      } catch {
        const placeholder = unreadable(msg, ctx, offline)
        if (placeholder) out.push(placeholder)
      }
    }
    out.push(...actions)
  }
  for (const u of events['messages.update'] ?? []) out.push(...normalizeMessageUpdate(u, ctx))
  for (const r of events['message-receipt.update'] ?? []) {
    const e = normalizeReceipt(r)
    if (e) out.push(e)
  }
  for (const r of events['messages.reaction'] ?? []) {
    const e = normalizeReaction(r, ctx)
    if (e) out.push(e)
  }
  for (const c of events['contacts.upsert'] ?? []) {
    const e = normalizeContact(c, ctx)
    if (e) out.push(e)
  }
  for (const c of events['contacts.update'] ?? []) {
    const e = normalizeContact(c, ctx)
    if (e) out.push(e)
  }
  const mapping = events['lid-mapping.update']
  if (mapping) {
    const e = normalizeLidMapping(mapping)
    if (e) out.push(e)
  }
  // history sync: its LID/PN pairs (the main source of phone numbers for LIDs) first, then its messages
  const history = events['messaging-history.set']
  for (const m of history?.lidPnMappings ?? []) {
    const e = normalizeLidMapping(m)
    if (e) out.push(e)
  }
  // its contacts carry the same pairs (`lid` / `phoneNumber`), and they are all that is left of them when Baileys
  // buffered the history: its buffer drops `lidPnMappings` (Utils/event-buffer.js consolidateEvents)
  for (const c of history?.contacts ?? []) {
    const e = normalizeContact(c, ctx)
    if (e) out.push(e)
  }
  if (history?.messages?.length) out.push(normalizeHistory(history, ctx))
  // calls: only the offer (ringing, accept, terminate and the rest are the phone's business)
  for (const c of events.call ?? []) {
    if (c.status !== 'offer' || !c.id || !c.from) continue
    out.push({
      t: 'call',
      id: c.id,
      from: contactRef(
        c.from,
        c.callerPn ? `${pnFromJid(c.callerPn) ?? c.callerPn}@s.whatsapp.net` : null,
        ctx.resolvePn,
      ),
      isVideo: !!c.isVideo,
      isGroup: !!c.isGroup,
      timestamp: c.date instanceof Date ? c.date.getTime() : (ctx.now ?? Date.now)(),
    })
  }
  const status = events['messaging-history.status']
  if (status?.status === 'complete') {
    out.push({
      t: 'history',
      messages: [],
      progress: 100,
      complete: true,
      syncType: proto.HistorySync.HistorySyncType[status.syncType] ?? String(status.syncType),
    })
  }
  return out
}

/** A history sync chunk: its messages (oldest first), as offline messages, and how far the sync is. */
export function normalizeHistory(
  history: BaileysEventMap['messaging-history.set'],
  ctx: NormalizeContext,
): ChannelEvent {
  const messages: InboundMessage[] = []
  for (const msg of history.messages) {
    const e = normalizeWAMessage(msg, ctx, { offline: true })
    if (e && !e.undecryptable) messages.push(e)
  }
  messages.sort((a, b) => a.timestamp - b.timestamp)
  const chunk: ChannelEvent = { t: 'history', messages }
  if (typeof history.progress === 'number') {
    chunk.progress = Math.max(0, Math.min(100, history.progress))
    if (history.progress >= 100) chunk.complete = true
  }
  if (history.isLatest !== undefined) chunk.isLatest = history.isLatest
  if (history.syncType !== undefined && history.syncType !== null)
    chunk.syncType = proto.HistorySync.HistorySyncType[history.syncType] ?? String(history.syncType)
  return chunk
}

// ---------------------------------------------------------------------------------------------------------
// messages.upsert

/** Content kinds that are not messages of their own: they come again as update/reaction events, or are noise. */
const SKIPPED_KINDS = new Set<string>([
  'protocolMessage',
  'reactionMessage',
  'encReactionMessage',
  'senderKeyDistributionMessage',
  'messageContextInfo',
  'pollUpdateMessage',
  'keepInChatMessage',
  'pinInChatMessage',
  'encEventResponseMessage',
  'deviceSentMessage',
])

const MEDIA_FIELDS: { field: keyof proto.IMessage; kind: MediaKind }[] = [
  { field: 'imageMessage', kind: 'image' },
  { field: 'videoMessage', kind: 'video' },
  { field: 'ptvMessage', kind: 'video' },
  { field: 'audioMessage', kind: 'audio' },
  { field: 'documentMessage', kind: 'document' },
  { field: 'stickerMessage', kind: 'sticker' },
]

/** Fields whose presence makes a content something we show. */
const CONTENT_FIELDS = new Set<string>([
  'conversation',
  'extendedTextMessage',
  'locationMessage',
  'liveLocationMessage',
  'contactMessage',
  'contactsArrayMessage',
  'buttonsResponseMessage',
  'listResponseMessage',
  'templateButtonReplyMessage',
  'interactiveResponseMessage',
  'pollCreationMessage',
  'pollCreationMessageV2',
  'pollCreationMessageV3',
  ...MEDIA_FIELDS.map((m) => m.field as string),
])

/** Fields that carry nothing a person reads (keys, context, headers of what comes as messages of their own). */
const NOISE_FIELDS = new Set<string>([
  'messageContextInfo',
  'senderKeyDistributionMessage',
  'fastRatchetKeySenderKeyDistributionMessage',
  'albumMessage',
  'stickerSyncRmrMessage',
])

/**
 * A content that is neither something we show nor an action on another message (reaction, edit, revoke, poll
 * vote, ...): a type we do not support, or one this protobuf version does not know (decoded empty).
 */
function isUnsupported(message: WAMessageContent | null | undefined): boolean {
  if (!message) return false
  const inner = extractMessageContent(normalizeMessageContent(message)) ?? message
  const fields = setFields(inner)
  if (fields.some((f) => SKIPPED_KINDS.has(f) && f !== 'messageContextInfo')) return false
  if (fields.some((f) => !NOISE_FIELDS.has(f))) return true
  // nothing but context: a type this protobuf version does not know (its field was dropped when decoding)
  return fields.every((f) => f === 'messageContextInfo')
}

/** Own set fields of a proto message (decoded protobufjs objects keep defaults on the prototype). */
function setFields(content: proto.IMessage): string[] {
  return Object.keys(content).filter((k) => {
    const v = (content as Record<string, unknown>)[k]
    return v !== null && v !== undefined
  })
}

/** The content we show, unwrapped (ephemeral, view once, document with caption, templates); undefined to skip. */
export function unwrapContent(message: WAMessageContent | null | undefined): WAMessageContent | undefined {
  const content = extractMessageContent(normalizeMessageContent(message))
  if (!content) return undefined
  const fields = setFields(content)
  if (fields.some((f) => SKIPPED_KINDS.has(f) && f !== 'messageContextInfo')) return undefined
  if (!fields.some((f) => CONTENT_FIELDS.has(f))) return undefined
  return content
}

/** The text of a content: conversation, extended text, caption, or the chosen option of a reply button/list. */
export function contentBody(c: WAMessageContent): string {
  return (
    c.conversation ??
    c.extendedTextMessage?.text ??
    c.imageMessage?.caption ??
    c.videoMessage?.caption ??
    c.ptvMessage?.caption ??
    c.documentMessage?.caption ??
    c.buttonsResponseMessage?.selectedDisplayText ??
    c.listResponseMessage?.title ??
    c.templateButtonReplyMessage?.selectedDisplayText ??
    c.interactiveResponseMessage?.body?.text ??
    c.pollCreationMessage?.name ??
    c.pollCreationMessageV2?.name ??
    c.pollCreationMessageV3?.name ??
    ''
  )
}

function contextInfoOf(c: WAMessageContent): proto.IContextInfo | undefined {
  for (const field of setFields(c)) {
    const value = (c as Record<string, unknown>)[field]
    if (value && typeof value === 'object' && 'contextInfo' in value) {
      const info = (value as { contextInfo?: proto.IContextInfo | null }).contextInfo
      if (info) return info
    }
  }
  return undefined
}

function isMe(jid: string | null | undefined, ctx: NormalizeContext): boolean {
  if (!jid) return false
  return (!!ctx.meJid && areJidsSameUser(jid, ctx.meJid)) || (!!ctx.meLid && areJidsSameUser(jid, ctx.meLid))
}

function meRef(ctx: NormalizeContext): ContactRef {
  const jid = ctx.meJid ? normalizeJid(ctx.meJid) : ctx.meLid ? normalizeJid(ctx.meLid) : ''
  const ref: ContactRef = { jid }
  const pn = pnFromJid(ctx.meJid)
  if (pn) ref.pn = pn
  if (ctx.meLid) ref.lid = toLidJid(ctx.meLid)
  return ref
}

/** MsgRef of a Baileys key, with the chat normalized. */
export function keyToRef(key: WAMessageKey): MsgRef {
  const chatJid = normalizeJid(key.remoteJid ?? '')
  const ref: MsgRef = { id: key.id ?? '', chatJid, fromMe: !!key.fromMe }
  if (key.participant && isJidGroup(chatJid)) ref.participant = normalizeJid(key.participant)
  return ref
}

/** A protobuf number that may be a Long. */
function num(v: unknown): number {
  if (v === null || v === undefined) return 0
  if (typeof v === 'number') return v
  if (typeof v === 'object' && 'toNumber' in v) return (v as { toNumber(): number }).toNumber()
  return Number(v) || 0
}

/** The epoch ms of a Baileys seconds timestamp. */
function secondsToMs(ts: unknown, ctx: NormalizeContext): number {
  const n = num(ts)
  return n > 0 ? n * 1000 : (ctx.now ?? Date.now)()
}

/** Who the chat is, and who wrote. An alt JID pointing at ourselves (fromMe stanzas) is ignored. */
function parties(
  key: WAMessageKey,
  ctx: NormalizeContext,
): { chat: ContactRef; sender: ContactRef; isGroup: boolean } {
  const remoteJid = key.remoteJid ?? ''
  const isGroup = !!isJidGroup(remoteJid)
  const remoteAlt = key.remoteJidAlt && !isMe(key.remoteJidAlt, ctx) ? key.remoteJidAlt : undefined
  const chat = contactRef(remoteJid, isGroup ? undefined : remoteAlt, ctx.resolvePn)
  let sender: ContactRef
  if (key.fromMe) sender = meRef(ctx)
  else if (isGroup) {
    const participant = key.participant ?? ''
    sender = participant ? contactRef(participant, key.participantAlt, ctx.resolvePn) : { jid: '' }
  } else sender = chat
  return { chat, sender, isGroup }
}

/** Encodes a WAMessage to the bytes stored as `raw` (proto.WebMessageInfo). */
export function encodeWAMessage(msg: WAMessage): Uint8Array {
  return proto.WebMessageInfo.encode(msg).finish()
}

/** Decodes `raw` bytes back into a WAMessage. */
export function decodeWAMessage(raw: Uint8Array): WAMessage {
  return proto.WebMessageInfo.decode(raw) as WAMessage
}

/** One upserted WAMessage -> an InboundMessage, or undefined when it is not a message of its own. */
export function normalizeWAMessage(
  msg: WAMessage,
  ctx: NormalizeContext,
  opts: { offline?: boolean } = {},
): InboundMessage | undefined {
  const key = msg.key
  const remoteJid = key?.remoteJid
  if (!key?.id || !remoteJid) return undefined
  if (isJidStatusBroadcast(remoteJid) || isJidNewsletter(remoteJid)) return undefined
  if (remoteJid.endsWith('@broadcast')) {
    // A broadcast list's message: the sender's phone shows it in the 1:1 chat with us, and so does the inbox
    // (a reply goes to that chat). Our own list sends (from the phone) have no one chat: not inbound.
    if (key.fromMe || !key.participant) return undefined
    const chatKey: WAMessageKey = { remoteJid: key.participant, fromMe: false, id: key.id }
    if (key.participantAlt) chatKey.remoteJidAlt = key.participantAlt
    return normalizeWAMessage({ ...msg, key: chatKey }, ctx, opts)
  }
  const { chat, sender, isGroup } = parties(key, ctx)
  const base = {
    t: 'message' as const,
    ref: keyToRef(key),
    chat,
    sender,
    timestamp: secondsToMs(msg.messageTimestamp, ctx),
    isGroup,
    // replayed while we were away (append), or written on the phone: history, not a live customer message
    offline: !!opts.offline || !!key.fromMe,
  }
  const pushName = !key.fromMe && msg.pushName ? { pushName: msg.pushName } : {}

  if (!msg.message) {
    if (msg.messageStubType === StubType.CIPHERTEXT) {
      return { ...base, ...pushName, body: '', undecryptable: true, raw: encodeWAMessage(msg) }
    }
    return undefined
  }
  const content = unwrapContent(msg.message)
  if (!content) {
    // a kind we cannot show (unknown to us, or to this protobuf version): a row saying so, never nothing
    if (isUnsupported(msg.message))
      return { ...base, ...pushName, body: '', unsupported: true, raw: encodeWAMessage(msg) }
    return undefined
  }

  const event: InboundMessage = {
    ...base,
    ...pushName,
    body: contentBody(content),
    raw: encodeWAMessage(msg),
  }
  if (isFoldedEdit(msg.message)) event.edited = true
  if (key.fromMe) {
    const ack = baileysStatusToAck(msg.status)
    if (ack !== undefined) event.ack = ack
  }

  const media = mediaOf(content, msg, ctx)
  if (media) event.media = media

  const loc = content.locationMessage ?? content.liveLocationMessage
  if (loc) {
    event.location = { latitude: loc.degreesLatitude ?? 0, longitude: loc.degreesLongitude ?? 0 }
    const named = content.locationMessage
    if (named?.name) event.location.name = named.name
    if (named?.address) event.location.address = named.address
    if (!event.body && named?.name) event.body = named.name
  }

  if (content.contactMessage) {
    event.vcards = [
      { displayName: content.contactMessage.displayName ?? '', vcard: content.contactMessage.vcard ?? '' },
    ]
  } else if (content.contactsArrayMessage) {
    event.vcards = (content.contactsArrayMessage.contacts ?? []).map((c) => ({
      displayName: c.displayName ?? '',
      vcard: c.vcard ?? '',
    }))
  }

  const info = contextInfoOf(content)
  if (info?.stanzaId) {
    const quotedParticipant = info.participant ?? undefined
    const quoted: MsgRef = {
      id: info.stanzaId,
      chatJid: normalizeJid(info.remoteJid || remoteJid),
      fromMe: isMe(quotedParticipant, ctx),
    }
    if (quotedParticipant && isGroup) quoted.participant = normalizeJid(quotedParticipant)
    event.quoted = quoted
  }
  return event
}

function mediaOf(content: WAMessageContent, msg: WAMessage, ctx: NormalizeContext): InboundMedia | undefined {
  for (const { field, kind } of MEDIA_FIELDS) {
    const m = content[field] as
      | (proto.Message.IImageMessage &
          proto.Message.IAudioMessage &
          proto.Message.IDocumentMessage &
          proto.Message.IVideoMessage)
      | null
      | undefined
    if (!m) continue
    const media: InboundMedia = {
      kind,
      mimetype: m.mimetype ?? defaultMime(kind),
      download: () => ctx.download(msg),
    }
    if (m.fileName) media.fileName = m.fileName
    if (m.caption) media.caption = m.caption
    if (m.seconds) media.seconds = m.seconds
    if (kind === 'audio') media.ptt = !!m.ptt
    const size = num(m.fileLength)
    if (size > 0) media.size = size
    return media
  }
  return undefined
}

function defaultMime(kind: MediaKind): string {
  switch (kind) {
    case 'image':
      return 'image/jpeg'
    case 'video':
      return 'video/mp4'
    case 'audio':
      return 'audio/ogg; codecs=opus'
    case 'sticker':
      return 'image/webp'
    case 'document':
      return 'application/octet-stream'
  }
}

// ---------------------------------------------------------------------------------------------------------
// folded events (issue 20, defect 5)
//
// While Baileys buffers its events (the offline burst on reconnect, until `<ib><offline>` and a flush), a
// reaction, receipt, edit or revoke of a message upserted in the same buffer is not emitted on its own: it is
// folded into that message (Utils/event-buffer.js `append`): reactions into `message.reactions`, receipts into
// `message.userReceipt`, an edit assigned over `message` (`{editedMessage}`), a revoke assigned over the whole
// message (`message: null`, stub REVOKE, and the REVOKE's own key). The reaction, edit and revoke stanzas are
// upserted in the same batch as messages of their own, so they are read here too: each becomes the event it
// would have been unfolded. The inbox applies them idempotently (same emoji, same body, already deleted: no-op).

/**
 * The targets of the batch's own (unfolded) edit, revoke and reaction events: a protocol or reaction message
 * upserted with them says the same thing again, so it is not read twice.
 */
function unfoldedTargets(events: Partial<BaileysEventMap>): Set<string> {
  const out = new Set<string>()
  for (const { key, update } of events['messages.update'] ?? []) {
    if (!key?.id) continue
    if (update.message?.editedMessage) out.add(`edit:${key.id}`)
    if (update.messageStubType === StubType.REVOKE) out.add(`delete:${key.id}`)
  }
  for (const { key, reaction } of events['messages.reaction'] ?? [])
    if (key?.id && reaction?.key?.id) out.add(`reaction:${key.id}:${reaction.key.id}`)
  return out
}

/** A message that failed to normalize, as a "not supported" placeholder when its key still says where it goes. */
function unreadable(msg: WAMessage, ctx: NormalizeContext, offline: boolean): InboundMessage | undefined {
  try {
    const key = msg.key
    if (!key?.id || !key.remoteJid || key.remoteJid.endsWith('@broadcast') || isJidNewsletter(key.remoteJid))
      return undefined
    const { chat, sender, isGroup } = parties(key, ctx)
    return {
      t: 'message',
      ref: keyToRef(key),
      chat,
      sender,
      timestamp: (ctx.now ?? Date.now)(),
      isGroup,
      offline: offline || !!key.fromMe,
      body: '',
      unsupported: true,
    }
  } catch {
    return undefined
  }
}

/**
 * A message WhatsApp keeps from linked devices (`<unavailable type="view_once_unavailable_fanout"/>`: a view-once
 * message, to be opened on the phone). Baileys acknowledges it and emits nothing (Socket/messages-recv.js, the
 * NO_MESSAGE_FOUND branch), so the session reads the stanza itself: a "not supported" row, open it on the phone.
 */
export function normalizeUnavailable(node: BinaryNode, ctx: NormalizeContext): InboundMessage | undefined {
  const { attrs } = node
  const unavailable = Array.isArray(node.content)
    ? node.content.find((child) => child.tag === 'unavailable')
    : undefined
  if (unavailable?.attrs.type !== 'view_once_unavailable_fanout' || !attrs.id || !attrs.from) return undefined
  const from = jidNormalizedUser(attrs.from)
  if (!from || isJidStatusBroadcast(from) || isJidNewsletter(from) || from.endsWith('@broadcast'))
    return undefined
  const key: WAMessageKey = { remoteJid: from, fromMe: isMe(from, ctx), id: attrs.id }
  if (isJidGroup(from)) {
    if (attrs.participant) key.participant = jidNormalizedUser(attrs.participant)
    const alt = attrs.participant_pn ?? attrs.participant_lid
    if (alt) key.participantAlt = jidNormalizedUser(alt)
  } else {
    const alt = attrs.sender_pn ?? attrs.sender_lid
    if (alt) key.remoteJidAlt = jidNormalizedUser(alt)
  }
  const { chat, sender, isGroup } = parties(key, ctx)
  const event: InboundMessage = {
    t: 'message',
    ref: keyToRef(key),
    chat,
    sender,
    timestamp: secondsToMs(Number(attrs.t), ctx),
    isGroup,
    offline: !!attrs.offline || !!key.fromMe,
    body: '',
    unsupported: true,
  }
  if (attrs.notify && !key.fromMe) event.pushName = attrs.notify
  return event
}

/** REVOKE protocol messages of a batch: the revoke's id -> the key of the message it revokes (our view). */
function revokedTargets(messages: WAMessage[]): Map<string, WAMessageKey> {
  const out = new Map<string, WAMessageKey>()
  for (const msg of messages) {
    const protocol = normalizeMessageContent(msg.message)?.protocolMessage
    if (protocol?.type === proto.Message.ProtocolMessage.Type.REVOKE && protocol.key?.id && msg.key?.id)
      out.set(msg.key.id, { ...msg.key, id: protocol.key.id })
  }
  return out
}

/**
 * A message revoked in the same buffer: Baileys folded the REVOKE over it (content gone, the key now the
 * REVOKE's). It is still a message the customer sent: a deleted row under its own id.
 */
function foldedRevoke(
  msg: WAMessage,
  revoked: Map<string, WAMessageKey>,
  ctx: NormalizeContext,
  offline: boolean,
): InboundMessage | undefined {
  if (msg.message || msg.messageStubType !== StubType.REVOKE || !msg.key?.id) return undefined
  const key = revoked.get(msg.key.id)
  if (!key?.id || !key.remoteJid) return undefined
  if (
    isJidStatusBroadcast(key.remoteJid) ||
    isJidNewsletter(key.remoteJid) ||
    key.remoteJid.endsWith('@broadcast')
  )
    return undefined
  const { chat, sender, isGroup } = parties(key, ctx)
  const event: InboundMessage = {
    t: 'message',
    ref: keyToRef(key),
    chat,
    sender,
    timestamp: secondsToMs(msg.messageTimestamp, ctx),
    isGroup,
    offline: offline || !!key.fromMe,
    body: '',
    deleted: true,
  }
  if (!key.fromMe && msg.pushName) event.pushName = msg.pushName
  return event
}

/**
 * What an upserted message says about messages (itself included): a reaction, edit or revoke stanza about its
 * target; reactions and receipts folded into it.
 */
function messageActions(
  msg: WAMessage,
  revoked: Map<string, WAMessageKey>,
  ctx: NormalizeContext,
  unfolded: Set<string>,
): ChannelEvent[] {
  const out: ChannelEvent[] = []
  const key = msg.key
  if (!key?.id || !key.remoteJid) return out
  const content = normalizeMessageContent(msg.message)
  const reaction = content?.reactionMessage
  if (reaction?.key?.id && !unfolded.has(`reaction:${reaction.key.id}:${key.id}`)) {
    const e = normalizeReaction({ key: reaction.key, reaction: { ...reaction, key } }, ctx)
    if (e) out.push(e)
  }
  const protocol = content?.protocolMessage
  if (protocol?.key?.id) {
    const target = keyToRef({ ...key, id: protocol.key.id })
    const { REVOKE, MESSAGE_EDIT } = proto.Message.ProtocolMessage.Type
    if (protocol.type === REVOKE && !unfolded.has(`delete:${target.id}`))
      out.push({ t: 'delete', ref: target })
    else if (protocol.type === MESSAGE_EDIT && protocol.editedMessage && !unfolded.has(`edit:${target.id}`)) {
      const ms = num(protocol.timestampMs)
      out.push({
        t: 'edit',
        ref: target,
        body: contentBody(normalizeMessageContent(protocol.editedMessage) ?? protocol.editedMessage),
        timestamp: ms > 0 ? ms : secondsToMs(msg.messageTimestamp, ctx),
      })
    }
  }
  const own = foldedRevokeKey(msg, revoked) ?? key
  for (const folded of msg.reactions ?? []) {
    const e = normalizeReaction({ key: own, reaction: folded }, ctx)
    if (e) out.push(e)
  }
  for (const receipt of msg.userReceipt ?? []) {
    const e = normalizeReceipt({ key: own, receipt })
    if (e) out.push(e)
  }
  return out
}

/** A revoke folded over a message leaves the REVOKE's key on it: the message's own key, from the batch. */
function foldedRevokeKey(msg: WAMessage, revoked: Map<string, WAMessageKey>): WAMessageKey | undefined {
  if (msg.message || msg.messageStubType !== StubType.REVOKE || !msg.key?.id) return undefined
  return revoked.get(msg.key.id)
}

/** A folded edit: Baileys assigned `{editedMessage: {message}}` (the new content) over the message. */
function isFoldedEdit(message: WAMessageContent | null | undefined): boolean {
  const inner = message?.editedMessage?.message
  return !!inner && !normalizeMessageContent(inner)?.protocolMessage
}

// ---------------------------------------------------------------------------------------------------------
// messages.update, message-receipt.update, messages.reaction

export function normalizeMessageUpdate(
  u: BaileysEventMap['messages.update'][number],
  ctx: NormalizeContext,
): ChannelEvent[] {
  const out: ChannelEvent[] = []
  if (!u.key?.id || !u.key.remoteJid) return out
  const ref = keyToRef(u.key)
  const { update } = u
  if (update.status !== undefined && update.status !== null) {
    const ack = baileysStatusToAck(update.status)
    if (ack !== undefined) {
      const event: ChannelEvent = { t: 'ack', ref, ack }
      const ts = num(update.messageTimestamp)
      if (ts > 0) event.timestamp = ts * 1000
      out.push(event)
    }
  }
  const edited = update.message?.editedMessage?.message
  if (edited) {
    const content = normalizeMessageContent(edited)
    const inner = content?.protocolMessage?.editedMessage ?? content
    out.push({
      t: 'edit',
      ref,
      body: inner ? contentBody(inner) : '',
      timestamp: secondsToMs(update.messageTimestamp, ctx),
    })
  }
  if (update.messageStubType === StubType.REVOKE) out.push({ t: 'delete', ref })
  return out
}

export function normalizeReceipt(
  r: BaileysEventMap['message-receipt.update'][number],
): ChannelEvent | undefined {
  if (!r.key?.id || !r.key.remoteJid || !r.receipt?.userJid) return undefined
  const { receipt } = r
  let ack: Ack | undefined
  let ts = 0
  if (receipt.playedTimestamp) {
    ack = 5
    ts = num(receipt.playedTimestamp)
  } else if (receipt.readTimestamp) {
    ack = 4
    ts = num(receipt.readTimestamp)
  } else if (receipt.receiptTimestamp) {
    ack = 2
    ts = num(receipt.receiptTimestamp)
  }
  if (ack === undefined) return undefined
  const event: ChannelEvent = {
    t: 'ack',
    ref: keyToRef(r.key),
    ack,
    participant: normalizeJid(receipt.userJid ?? ''),
  }
  if (ts > 0) event.timestamp = ts * 1000
  return event
}

/**
 * A reaction. `reaction.key` is the key of the reaction message itself (who reacted, in which chat); `key` is the
 * target as the reactor addressed it, so its `fromMe` is from the reactor's point of view: flipped here to ours.
 */
export function normalizeReaction(
  r: BaileysEventMap['messages.reaction'][number],
  ctx: NormalizeContext,
): ChannelEvent | undefined {
  const target = r.key
  const reactionKey = r.reaction?.key as WAMessageKey | null | undefined
  if (!target?.id) return undefined
  const chatJid = normalizeJid(reactionKey?.remoteJid || target.remoteJid || '')
  if (!chatJid) return undefined
  const isGroup = !!isJidGroup(chatJid)
  const fromMe = !!reactionKey?.fromMe
  // Baileys hands the target key over after cleanMessage, already from our point of view.
  const targetFromMe = !!target.fromMe
  const targetRef: MsgRef = { id: target.id, chatJid, fromMe: targetFromMe }
  if (isGroup && target.participant) targetRef.participant = normalizeJid(target.participant)
  if (isGroup && targetFromMe && !targetRef.participant && ctx.meJid)
    targetRef.participant = normalizeJid(ctx.meJid)
  let from: ContactRef
  if (fromMe) from = meRef(ctx)
  else if (reactionKey) from = parties({ ...reactionKey, fromMe: false }, ctx).sender
  else from = { jid: '' }
  const ms = r.reaction?.senderTimestampMs
  const timestamp = ms ? num(ms) : (ctx.now ?? Date.now)()
  return { t: 'reaction', target: targetRef, emoji: r.reaction?.text ?? '', from, fromMe, timestamp }
}

// ---------------------------------------------------------------------------------------------------------
// contacts, LID mappings

export function normalizeContact(c: Partial<Contact>, ctx: NormalizeContext): ChannelEvent | undefined {
  const id = c.id
  if (!id || isJidGroup(id) || isJidNewsletter(id) || id.endsWith('@broadcast')) return undefined
  const alt = isLidUser(id) ? c.phoneNumber : c.lid
  const contact = contactRef(id, alt, ctx.resolvePn)
  if (!contact.pn && c.phoneNumber) {
    const pn = pnFromJid(c.phoneNumber)
    if (pn) contact.pn = pn
  }
  if (!contact.lid && c.lid && isLidUser(c.lid)) contact.lid = toLidJid(c.lid)
  const event: ChannelEvent = { t: 'contact', contact }
  if (c.name) event.name = c.name
  if (c.notify) event.pushName = c.notify
  if (c.imgUrl === 'changed') event.pictureChanged = true
  if (!event.name && !event.pushName && !event.pictureChanged && !(contact.pn && contact.lid))
    return undefined
  return event
}

export function normalizeLidMapping(m: BaileysEventMap['lid-mapping.update']): ChannelEvent | undefined {
  if (!m?.lid || !m.pn) return undefined
  const pn = pnFromJid(m.pn)
  if (!pn) return undefined
  return { t: 'lidMapping', lid: toLidJid(m.lid), pn }
}

/** A WAMessageKey of a MsgRef. */
export function refToKey(ref: MsgRef): WAMessageKey {
  const key: WAMessageKey = { remoteJid: ref.chatJid, fromMe: ref.fromMe, id: ref.id }
  if (ref.participant) key.participant = ref.participant
  return key
}
