/**
 * Media inside messages, both ways: the content a customer's phone sends once its media is uploaded
 * (`imageMessage`, `audioMessage` with `ptt`, ...), and the media of a message Balcão sent, found in the store and
 * decrypted as the customer's device would.
 */
import { getContentType, type MediaType, normalizeMessageContent, type proto } from '@whiskeysockets/baileys'
import type { MediaFields, MediaStore } from './store'

/** What a customer can send (`ptt` is an audio sent as a voice note). */
export type CustomerMediaKind = 'image' | 'video' | 'audio' | 'ptt' | 'document' | 'sticker'

export type MediaExtras = {
  caption?: string
  fileName?: string
  seconds?: number
  width?: number
  height?: number
}

/** The key-derivation type of a kind: voice notes are `audio` (Baileys's audioMessage), the rest their own. */
export function mediaTypeOf(kind: CustomerMediaKind): MediaType {
  return kind === 'ptt' ? 'audio' : kind
}

/** The message content a phone sends for uploaded media (see MediaStore.uploadForCustomer). */
export function customerMediaContent(
  kind: CustomerMediaKind,
  fields: MediaFields,
  extras: MediaExtras = {},
): proto.IMessage {
  const common = {
    url: fields.url,
    directPath: fields.directPath,
    mediaKey: fields.mediaKey,
    fileEncSha256: fields.fileEncSha256,
    fileSha256: fields.fileSha256,
    fileLength: fields.fileLength,
    mediaKeyTimestamp: fields.mediaKeyTimestamp,
    mimetype: fields.mimetype,
  }
  switch (kind) {
    case 'image':
      return {
        imageMessage: { ...common, caption: extras.caption, width: extras.width, height: extras.height },
      }
    case 'video':
      return { videoMessage: { ...common, caption: extras.caption, seconds: extras.seconds } }
    case 'audio':
    case 'ptt':
      return { audioMessage: { ...common, ptt: kind === 'ptt', seconds: extras.seconds } }
    case 'document':
      return { documentMessage: { ...common, fileName: extras.fileName, caption: extras.caption } }
    case 'sticker':
      return { stickerMessage: { ...common, width: extras.width, height: extras.height } }
  }
}

export type ReceivedMedia = {
  kind: CustomerMediaKind
  mimetype: string | undefined
  fileName: string | undefined
  bytes: Uint8Array
}

const KIND_OF_CONTENT: Partial<Record<keyof proto.IMessage, CustomerMediaKind>> = {
  imageMessage: 'image',
  videoMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'document',
  stickerMessage: 'sticker',
}

/**
 * The media of a message (wrappers such as view-once and documentWithCaption unwrapped), decrypted from the store
 * with every hash and the MAC checked; undefined when the message carries no media.
 */
export async function decryptMessageMedia(
  store: MediaStore,
  message: proto.IMessage,
): Promise<ReceivedMedia | undefined> {
  const content = normalizeMessageContent(message)
  const type = content ? getContentType(content) : undefined
  const kind = type ? KIND_OF_CONTENT[type] : undefined
  if (!content || !type || !kind) return undefined
  const media = content[type] as proto.Message.IDocumentMessage & proto.Message.IAudioMessage
  const bytes = await store.decryptUploaded(media, mediaTypeOf(kind))
  return {
    kind: kind === 'audio' && media.ptt ? 'ptt' : kind,
    mimetype: media.mimetype ?? undefined,
    fileName: media.fileName ?? undefined,
    bytes,
  }
}
