import { getContentType, normalizeMessageContent, proto } from '@whiskeysockets/baileys'

/**
 * A message the customer's content points at (quoted, reacted to, edited, revoked), named from the
 * customer's side as WhatsApp clients name it: `chat` is the company's JID, `fromMe` whether the
 * customer sent it. Baileys's `cleanMessage` turns such a key into its own point of view.
 */
export interface TargetRef {
  id: string
  chat: string
  fromMe: boolean
  /** Group: the author of the target. */
  participant?: string
}

export interface QuoteSpec {
  id: string
  /** Who wrote the quoted message (its sender JID). */
  author: string
  /** What the customer's app shows as quoted; WhatsApp always sends a copy. */
  quotedMessage?: proto.IMessage
}

/** What the media server's upload produced, as the customer's message carries it. */
export interface UploadedMedia {
  url: string
  directPath: string
  mediaKey: Uint8Array
  fileEncSha256: Uint8Array
  fileSha256: Uint8Array
  fileLength: number
  mimetype: string
  mediaKeyTimestamp?: number
}

export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker'

export type ContentSpec =
  | { kind: 'text'; text: string; quote?: QuoteSpec }
  | {
      kind: MediaKind
      media: UploadedMedia
      caption?: string
      /** Audio only: a voice note. */
      ptt?: boolean
      /** Audio/video: duration. */
      seconds?: number
      fileName?: string
      quote?: QuoteSpec
      /** Wrapped in `viewOnceMessageV2` (images, videos, voice notes). */
      viewOnce?: boolean
    }
  | { kind: 'reaction'; target: TargetRef; emoji: string; timestampMs?: number }
  | { kind: 'edit'; target: TargetRef; text: string; timestampMs?: number }
  | { kind: 'revoke'; target: TargetRef }
  | {
      kind: 'location'
      latitude: number
      longitude: number
      name?: string
      address?: string
      quote?: QuoteSpec
    }
  | { kind: 'contact'; displayName: string; phone?: string; vcard?: string; quote?: QuoteSpec }

function contextInfoOf(quote: QuoteSpec | undefined): proto.IContextInfo | undefined {
  if (!quote) return undefined
  return {
    stanzaId: quote.id,
    participant: quote.author,
    quotedMessage: quote.quotedMessage ?? { conversation: '' },
  }
}

function keyOf(target: TargetRef): proto.IMessageKey {
  return {
    remoteJid: target.chat,
    fromMe: target.fromMe,
    id: target.id,
    ...(target.participant ? { participant: target.participant } : {}),
  }
}

/** A vCard 3.0 for a name and number, in the form WhatsApp's apps write (`waid` is the number). */
export function vcardFor(displayName: string, phone: string): string {
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${displayName}`,
    `TEL;type=CELL;type=VOICE;waid=${phone}:+${phone}`,
    'END:VCARD',
  ].join('\n')
}

function mediaMessage(spec: Extract<ContentSpec, { media: UploadedMedia }>): proto.IMessage {
  const { media } = spec
  const common = {
    url: media.url,
    directPath: media.directPath,
    mediaKey: media.mediaKey,
    fileEncSha256: media.fileEncSha256,
    fileSha256: media.fileSha256,
    fileLength: media.fileLength,
    mimetype: media.mimetype,
    mediaKeyTimestamp: media.mediaKeyTimestamp ?? Math.floor(Date.now() / 1000),
    ...(spec.quote ? { contextInfo: contextInfoOf(spec.quote) } : {}),
  }
  const caption = spec.caption !== undefined ? { caption: spec.caption } : {}
  const seconds = spec.seconds !== undefined ? { seconds: spec.seconds } : {}
  switch (spec.kind) {
    case 'image':
      return { imageMessage: { ...common, ...caption } }
    case 'video':
      return { videoMessage: { ...common, ...caption, ...seconds } }
    case 'audio':
      return { audioMessage: { ...common, ...seconds, ptt: !!spec.ptt } }
    case 'document':
      return {
        documentMessage: { ...common, ...caption, fileName: spec.fileName ?? 'file', title: spec.fileName },
      }
    case 'sticker':
      return { stickerMessage: common }
  }
}

/** The `proto.Message` a customer's phone sends for each kind of content. */
export function contentOf(spec: ContentSpec): proto.IMessage {
  switch (spec.kind) {
    case 'text':
      return spec.quote
        ? { extendedTextMessage: { text: spec.text, contextInfo: contextInfoOf(spec.quote) } }
        : { conversation: spec.text }
    case 'reaction':
      return {
        reactionMessage: {
          key: keyOf(spec.target),
          text: spec.emoji,
          senderTimestampMs: spec.timestampMs ?? Date.now(),
        },
      }
    case 'edit':
      return {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
          key: keyOf(spec.target),
          editedMessage: { conversation: spec.text },
          timestampMs: spec.timestampMs ?? Date.now(),
        },
      }
    case 'revoke':
      return { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: keyOf(spec.target) } }
    case 'location':
      return {
        locationMessage: {
          degreesLatitude: spec.latitude,
          degreesLongitude: spec.longitude,
          ...(spec.name ? { name: spec.name } : {}),
          ...(spec.address ? { address: spec.address } : {}),
          ...(spec.quote ? { contextInfo: contextInfoOf(spec.quote) } : {}),
        },
      }
    case 'contact': {
      const vcard = spec.vcard ?? vcardFor(spec.displayName, spec.phone ?? '')
      return {
        contactMessage: {
          displayName: spec.displayName,
          vcard,
          ...(spec.quote ? { contextInfo: contextInfoOf(spec.quote) } : {}),
        },
      }
    }
    default: {
      const message = mediaMessage(spec)
      return spec.viewOnce ? { viewOnceMessageV2: { message } } : message
    }
  }
}

/** What a customer's device received, as `GET /control/customers/{n}/received` lists it. */
export interface ReceivedDescription {
  kind: string
  text?: string
  mimetype?: string
  fileLength?: number
  fileName?: string
  ptt?: boolean
  viewOnce?: boolean
  quotedId?: string
  /** A reaction: the message reacted to and the emoji ('' removes it). */
  reaction?: { id: string; emoji: string }
  /** An edit or revoke: the message it changes. */
  targetId?: string
  location?: { latitude: number; longitude: number; name?: string }
  /** Where the media can be fetched and how to decrypt it (base64 bytes). */
  media?: {
    url?: string
    directPath?: string
    mediaKey?: string
    fileEncSha256?: string
    fileSha256?: string
  }
}

const base64 = (bytes: Uint8Array | null | undefined) =>
  bytes ? Buffer.from(bytes).toString('base64') : undefined

type MediaContent = proto.Message.IImageMessage &
  proto.Message.IVideoMessage &
  proto.Message.IAudioMessage &
  proto.Message.IDocumentMessage

const MEDIA_KINDS: Record<string, MediaKind> = {
  imageMessage: 'image',
  videoMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'document',
  stickerMessage: 'sticker',
}

function withoutUndefined(description: ReceivedDescription): ReceivedDescription {
  return Object.fromEntries(
    Object.entries(description).filter(([, v]) => v !== undefined),
  ) as ReceivedDescription
}

/**
 * Turns a decrypted message into what a test asserts: its kind, text, media size and type, the
 * quoted id, a reaction, or the message an edit/revoke targets. Wrappers (view once, ephemeral,
 * document with caption, edited) are opened as Baileys opens them.
 */
export function describe(message: proto.IMessage): ReceivedDescription {
  const viewOnce = !!(
    message.viewOnceMessage ||
    message.viewOnceMessageV2 ||
    message.viewOnceMessageV2Extension
  )
  const content = normalizeMessageContent(message)
  const type = content ? getContentType(content) : undefined
  if (!content || !type) {
    return content?.senderKeyDistributionMessage ? { kind: 'sender-key' } : { kind: 'empty' }
  }
  if (type === 'conversation') return { kind: 'text', text: content.conversation ?? '' }
  if (type === 'extendedTextMessage') {
    const text = content.extendedTextMessage
    return withoutUndefined({
      kind: 'text',
      text: text?.text ?? '',
      quotedId: text?.contextInfo?.stanzaId ?? undefined,
    })
  }
  const mediaKind = MEDIA_KINDS[type]
  if (mediaKind) {
    const media = content[type as keyof proto.IMessage] as MediaContent
    return withoutUndefined({
      kind: mediaKind,
      text: media.caption ?? undefined,
      mimetype: media.mimetype ?? undefined,
      fileLength:
        media.fileLength === null || media.fileLength === undefined ? undefined : Number(media.fileLength),
      fileName: media.fileName ?? undefined,
      ptt: mediaKind === 'audio' ? !!media.ptt : undefined,
      viewOnce: viewOnce || undefined,
      quotedId: media.contextInfo?.stanzaId ?? undefined,
      media: {
        url: media.url ?? undefined,
        directPath: media.directPath ?? undefined,
        mediaKey: base64(media.mediaKey),
        fileEncSha256: base64(media.fileEncSha256),
        fileSha256: base64(media.fileSha256),
      },
    })
  }
  if (type === 'reactionMessage') {
    const reaction = content.reactionMessage
    return { kind: 'reaction', reaction: { id: reaction?.key?.id ?? '', emoji: reaction?.text ?? '' } }
  }
  if (type === 'protocolMessage') {
    const protocol = content.protocolMessage
    const targetId = protocol?.key?.id ?? undefined
    if (protocol?.type === proto.Message.ProtocolMessage.Type.REVOKE)
      return withoutUndefined({ kind: 'revoke', targetId })
    if (protocol?.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
      const edited = protocol.editedMessage
      return withoutUndefined({
        kind: 'edit',
        targetId,
        text: edited?.conversation ?? edited?.extendedTextMessage?.text ?? undefined,
      })
    }
    return { kind: 'protocol' }
  }
  if (type === 'locationMessage') {
    const location = content.locationMessage
    return withoutUndefined({
      kind: 'location',
      text: location?.name ?? undefined,
      location: {
        latitude: location?.degreesLatitude ?? 0,
        longitude: location?.degreesLongitude ?? 0,
        ...(location?.name ? { name: location.name } : {}),
      },
      quotedId: location?.contextInfo?.stanzaId ?? undefined,
    })
  }
  if (type === 'contactMessage') {
    const contact = content.contactMessage
    return withoutUndefined({
      kind: 'contact',
      text: contact?.displayName ?? undefined,
      quotedId: contact?.contextInfo?.stanzaId ?? undefined,
    })
  }
  if (type === 'contactsArrayMessage') {
    return { kind: 'contacts', text: content.contactsArrayMessage?.displayName ?? '' }
  }
  return { kind: type.replace(/Message$/, '') }
}

/**
 * The stanza `type` a WhatsApp client gives a message (mirrors `getMessageType` inside Baileys's
 * `Socket/messages-send.js`, which it does not export): reaction, poll, event, media or text.
 */
export function stanzaTypeOf(message: proto.IMessage): string {
  const content = normalizeMessageContent(message)
  if (!content) return 'text'
  if (content.reactionMessage || content.encReactionMessage) return 'reaction'
  if (content.pollCreationMessage || content.pollCreationMessageV2 || content.pollCreationMessageV3)
    return 'poll'
  if (content.pollUpdateMessage) return 'poll'
  if (content.eventMessage) return 'event'
  return mediaTypeOf(message) ? 'media' : 'text'
}

/** The `<enc mediatype>` of a message, or undefined (mirrors Baileys's `getMediaType`). */
export function mediaTypeOf(message: proto.IMessage): string | undefined {
  const content = normalizeMessageContent(message)
  if (!content) return undefined
  if (content.imageMessage) return 'image'
  if (content.videoMessage) return content.videoMessage.gifPlayback ? 'gif' : 'video'
  if (content.audioMessage) return content.audioMessage.ptt ? 'ptt' : 'audio'
  if (content.contactMessage) return 'vcard'
  if (content.documentMessage) return 'document'
  if (content.contactsArrayMessage) return 'contact_array'
  if (content.liveLocationMessage) return 'livelocation'
  if (content.stickerMessage) return 'sticker'
  return undefined
}
