/**
 * History sync as the phone does it after linking: a `proto.HistorySync` (conversations carrying contact names
 * and LID/phone pairs, plus `phoneNumberToLidMappings`), zlib-deflated, encrypted as media type `md-msg-hist`,
 * uploaded to the media host; the companion receives a `HistorySyncNotification` with the keys and direct path
 * inside a protocolMessage from its own phone, downloads it and runs Baileys's `processHistoryMessage`
 * (Utils/history.js), which turns each conversation into a contact and each pair into a LID mapping.
 */
import { deflateSync } from 'node:zlib'
import { proto } from '@whiskeysockets/baileys'
import { encryptMedia } from './crypto'
import type { MediaStore } from './store'

export type HistoryContact = {
  /** The chat id: a phone JID (`5511...@s.whatsapp.net`) or a LID (`123...@lid`). */
  id: string
  name?: string
  /** The LID of a phone-addressed chat. */
  lid?: string
  /** The phone JID of a LID-addressed chat. */
  pn?: string
}

export type HistoryBlobInput = {
  contacts: HistoryContact[]
  /** Pairs the phone knows beyond its chats (`HistorySync.phoneNumberToLidMappings`). */
  phoneNumberToLidMappings?: { pn: string; lid: string }[]
  /** Extra conversations as they are (messages included), after those built from `contacts`. */
  conversations?: proto.IConversation[]
  /** Default INITIAL_BOOTSTRAP, the chunk a fresh link gets first. */
  syncType?: proto.HistorySync.HistorySyncType
  chunkOrder?: number
  /** Percent of the whole history this chunk completes. Default 100. */
  progress?: number
}

/** Builds, compresses, encrypts and stores a history chunk; answers the notification the phone sends. */
export async function historyBlob(
  store: MediaStore,
  input: HistoryBlobInput,
): Promise<proto.Message.IHistorySyncNotification> {
  const syncType = input.syncType ?? proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP
  const chunkOrder = input.chunkOrder ?? 1
  const progress = input.progress ?? 100
  const history = proto.HistorySync.create({
    syncType,
    chunkOrder,
    progress,
    conversations: [
      ...input.contacts.map((c) =>
        proto.Conversation.create({
          id: c.id,
          ...(c.name ? { name: c.name, displayName: c.name } : {}),
          ...(c.lid ? { lidJid: c.lid } : {}),
          ...(c.pn ? { pnJid: c.pn } : {}),
        }),
      ),
      ...(input.conversations ?? []),
    ],
    phoneNumberToLidMappings: (input.phoneNumberToLidMappings ?? []).map(({ pn, lid }) => ({
      pnJid: pn,
      lidJid: lid,
    })),
  })
  const compressed = deflateSync(proto.HistorySync.encode(history).finish())
  const encrypted = await encryptMedia(compressed, 'md-msg-hist')
  // Uploaded where Baileys's MEDIA_PATH_MAP puts md-msg-hist (/mms/md-app-state).
  const media = store.put(encrypted.encrypted, 'md-app-state', 'simulator')
  return {
    fileSha256: encrypted.fileSha256,
    fileLength: encrypted.fileLength,
    mediaKey: encrypted.mediaKey,
    fileEncSha256: encrypted.fileEncSha256,
    directPath: media.directPath,
    // The two enums (Message.HistorySyncType and HistorySync.HistorySyncType) share their values.
    syncType: syncType as number as proto.Message.HistorySyncType,
    chunkOrder,
    progress,
  }
}
