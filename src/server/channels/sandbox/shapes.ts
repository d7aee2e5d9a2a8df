/**
 * Builders of the Baileys shapes the sandbox emits: the `WAMessage`s, keys and event batches a live Baileys
 * socket hands to its listeners after decoding and `processMessage`. They go through the same
 * `normalizeBaileysEvents` as the real adapter's.
 */
import { createHash } from 'node:crypto'
import {
  type BaileysEventMap,
  generateWAMessageFromContent,
  normalizeMessageContent,
  proto,
  type WAMessage,
  type WAMessageKey,
  WAMessageStubType,
} from '@whiskeysockets/baileys'
import type { MediaKind } from '../types'

/** How a chat is addressed on the wire: by phone number (`pn`) or by LID (`lid`). */
export type Addressing = {
  /** `remoteJid`: the customer (1:1) or the group. */
  chatJid: string
  /** `remoteJidAlt` in 1:1 chats: the other form of the customer's JID. */
  chatAlt?: string
  /** Groups: who wrote, and the other form of their JID. */
  participant?: string
  participantAlt?: string
  mode: 'pn' | 'lid'
}

/** A message key as Baileys' `decodeMessageNode` builds it (rc14 fields). */
export function messageKey(a: Addressing, id: string, fromMe: boolean): WAMessageKey {
  return {
    remoteJid: a.chatJid,
    remoteJidAlt: a.participant ? undefined : a.chatAlt,
    fromMe,
    id,
    participant: a.participant,
    participantAlt: a.participant ? a.participantAlt : undefined,
    addressingMode: a.mode,
  }
}

/** A plain key (remoteJid, fromMe, id, participant) as it appears inside reactions and protocol messages. */
export function plainKey(key: WAMessageKey): proto.IMessageKey {
  const k: proto.IMessageKey = { remoteJid: key.remoteJid, fromMe: key.fromMe, id: key.id }
  if (key.participant) k.participant = key.participant
  return k
}

const noQuote = undefined

/**
 * A received message: the content (optionally quoting `quoted`) under an inbound key, with push name and
 * timestamp, built with Baileys' own `generateWAMessageFromContent` so `contextInfo` is what Baileys makes.
 */
export function receivedMessage(opts: {
  key: WAMessageKey
  content: proto.IMessage
  timestampMs: number
  pushName?: string
  /** Our own JID: Baileys names it as the quoted participant when the quoted message is ours. */
  meJid: string
  quoted?: WAMessage
}): WAMessage {
  const built = generateWAMessageFromContent(opts.key.remoteJid!, opts.content, {
    userJid: opts.meJid,
    quoted: opts.quoted ?? noQuote,
    timestamp: new Date(opts.timestampMs),
  })
  const msg = built as WAMessage
  msg.key = opts.key
  msg.messageTimestamp = Math.floor(opts.timestampMs / 1000)
  msg.pushName = opts.pushName ?? null
  msg.broadcast = false
  msg.participant = null
  msg.status = opts.key.fromMe ? proto.WebMessageInfo.Status.SERVER_ACK : null
  return msg
}

/** A message we send, as `sock.sendMessage` returns it (status PENDING, id from our device). */
export function sentMessage(opts: {
  jid: string
  content: proto.IMessage
  id: string
  timestampMs: number
  meJid: string
  quoted?: WAMessage
}): WAMessage {
  return generateWAMessageFromContent(opts.jid, opts.content, {
    userJid: opts.meJid,
    quoted: opts.quoted ?? noQuote,
    messageId: opts.id,
    timestamp: new Date(opts.timestampMs),
  }) as WAMessage
}

/** A stand-in for a message the network no longer holds, good enough to quote or react to. */
export function stubMessage(key: proto.IMessageKey): WAMessage {
  return {
    key: { remoteJid: key.remoteJid, fromMe: key.fromMe, id: key.id, participant: key.participant },
    message: { conversation: '' },
  }
}

/** Plain text: `conversation`; replies use `extendedTextMessage` (Baileys cannot attach a quote to a string). */
export function textContent(body: string, replying: boolean): proto.IMessage {
  return replying ? { extendedTextMessage: { text: body } } : { conversation: body }
}

export type MediaShape = {
  kind: MediaKind
  mimetype: string
  /** Where the bytes live in the network's media store; also used to derive the keys. */
  directPath: string
  size: number
  sha256: Uint8Array
  timestampMs: number
  fileName?: string
  caption?: string
  ptt?: boolean
  seconds?: number
}

function sha(label: string, data: string | Uint8Array) {
  return new Uint8Array(createHash('sha256').update(label).update(data).digest())
}

/** A media message shaped like a real one (url, directPath, keys, hashes, length); captioned documents are wrapped. */
export function mediaContent(m: MediaShape): proto.IMessage {
  const common = {
    url: `https://mmg.sandbox.invalid${m.directPath}?ccb=11-4&oh=sandbox&mms3=true`,
    directPath: m.directPath,
    mimetype: m.mimetype,
    fileLength: m.size,
    fileSha256: m.sha256,
    fileEncSha256: sha('enc', m.sha256),
    mediaKey: sha('key', m.directPath),
    mediaKeyTimestamp: Math.floor(m.timestampMs / 1000),
  }
  switch (m.kind) {
    case 'image':
      return { imageMessage: { ...common, caption: m.caption } }
    case 'video':
      return { videoMessage: { ...common, caption: m.caption, seconds: m.seconds ?? 0 } }
    case 'audio':
      return { audioMessage: { ...common, ptt: m.ptt ?? false, seconds: m.seconds ?? 0 } }
    case 'sticker':
      return { stickerMessage: { ...common, isAnimated: false } }
    case 'document': {
      const documentMessage = {
        ...common,
        fileName: m.fileName ?? 'document',
        title: m.fileName ?? 'document',
        caption: m.caption,
      }
      return m.caption
        ? { documentWithCaptionMessage: { message: { documentMessage } } }
        : { documentMessage }
    }
  }
}

/** The media part of a message (after unwrapping), when it has one. */
export function mediaPart(message: proto.IMessage | null | undefined) {
  const m = normalizeMessageContent(message)
  return (
    m?.imageMessage ??
    m?.videoMessage ??
    m?.audioMessage ??
    m?.documentMessage ??
    m?.stickerMessage ??
    undefined
  )
}

export function locationContent(l: {
  latitude: number
  longitude: number
  name?: string
  address?: string
}): proto.IMessage {
  return {
    locationMessage: {
      degreesLatitude: l.latitude,
      degreesLongitude: l.longitude,
      name: l.name,
      address: l.address,
    },
  }
}

/** A vCard as WhatsApp writes it, with the `waid` WhatsApp uses to link the number. */
export function vcardOf(name: string, phone: string) {
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${name}`,
    `TEL;type=CELL;type=VOICE;waid=${phone}:+${phone}`,
    'END:VCARD',
  ].join('\n')
}

export function contactsContent(contacts: { displayName: string; vcard: string }[]): proto.IMessage {
  if (contacts.length === 1) return { contactMessage: contacts[0] }
  return { contactsArrayMessage: { displayName: `${contacts.length} contacts`, contacts } }
}

export function reactionContent(
  target: proto.IMessageKey,
  emoji: string,
  timestampMs: number,
): proto.IMessage {
  return { reactionMessage: { key: target, text: emoji, senderTimestampMs: timestampMs } }
}

export function editContent(target: proto.IMessageKey, body: string, timestampMs: number): proto.IMessage {
  return {
    protocolMessage: {
      key: target,
      type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
      editedMessage: { conversation: body },
      timestampMs,
    },
  }
}

export function revokeContent(target: proto.IMessageKey): proto.IMessage {
  return { protocolMessage: { key: target, type: proto.Message.ProtocolMessage.Type.REVOKE } }
}

/**
 * The batch Baileys emits for one received message: the upsert, plus what `processMessage` derives from it
 * (`messages.reaction` for a reaction, `messages.update` for an edit or a revoke).
 */
export function receivedBatch(msg: WAMessage, type: 'notify' | 'append'): Partial<BaileysEventMap> {
  const batch: Partial<BaileysEventMap> = { 'messages.upsert': { messages: [msg], type } }
  const content = msg.message
  const reaction = content?.reactionMessage
  const protocol = content?.protocolMessage
  if (reaction?.key) {
    batch['messages.reaction'] = [{ key: reaction.key, reaction: { ...reaction, key: msg.key } }]
  } else if (protocol?.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT && protocol.key?.id) {
    const ts = protocol.timestampMs ? Math.floor(Number(protocol.timestampMs) / 1000) : msg.messageTimestamp
    batch['messages.update'] = [
      {
        key: { ...msg.key, id: protocol.key.id },
        update: { message: { editedMessage: { message: protocol.editedMessage } }, messageTimestamp: ts },
      },
    ]
  } else if (protocol?.type === proto.Message.ProtocolMessage.Type.REVOKE && protocol.key?.id) {
    batch['messages.update'] = [
      {
        key: { ...msg.key, id: protocol.key.id },
        update: { message: null, messageStubType: WAMessageStubType.REVOKE, key: msg.key },
      },
    ]
  }
  return batch
}

/** A receipt for one of our messages in a 1:1 chat: `messages.update` with a `proto.WebMessageInfo.Status`. */
export function statusBatch(
  key: proto.IMessageKey,
  status: proto.WebMessageInfo.Status,
  timestampMs: number,
): Partial<BaileysEventMap> {
  return {
    'messages.update': [
      {
        key: { remoteJid: key.remoteJid, id: key.id, fromMe: true, participant: key.participant },
        update: { status, messageTimestamp: Math.floor(timestampMs / 1000) },
      },
    ],
  }
}
