/**
 * The one interface the rest of the server knows of a messaging session. Providers (Baileys, the sandbox)
 * implement it; the manager turns their events into domain calls. No Baileys type crosses this line.
 */

import type { ConnectionStatus, ConnectionStatusReason } from '../../shared/connection-status'

/** Someone on the network: the JID we send to, and the phone number and LID when known. */
export type ContactRef = {
  /** What we send to: `<digits>@s.whatsapp.net`, `<digits>@lid` or `<id>@g.us`. */
  jid: string
  /** Phone number, digits only (E.164 without '+'), when known. */
  pn?: string
  lid?: string
}

/** A message on the network, as WhatsApp keys it. */
export type MsgRef = {
  id: string
  chatJid: string
  fromMe: boolean
  participant?: string
  /** false on what a send returns when WhatsApp's server did not acknowledge it (yet): ack 0, not 1. */
  serverAck?: boolean
}

/** The spec's ack numbering: 0 pending, 1 sent, 2 delivered, 3 delivered to all, 4 read (5 played). -1 failed. */
export type Ack = -1 | 0 | 1 | 2 | 3 | 4 | 5

export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker'

export type InboundMedia = {
  kind: MediaKind
  mimetype: string
  fileName?: string
  caption?: string
  seconds?: number
  ptt?: boolean
  size?: number
  /** Downloads the bytes (Baileys decrypts; the sandbox reads its store). */
  download: () => Promise<Uint8Array>
}

export type InboundMessage = {
  t: 'message'
  ref: MsgRef
  /** The chat's other side (for groups: the group) and, in groups, who wrote. */
  chat: ContactRef
  sender: ContactRef
  pushName?: string
  /** Epoch ms. */
  timestamp: number
  isGroup: boolean
  /** Queued by WhatsApp while we were offline (upsert type `append`), or sent from the phone. */
  offline: boolean
  body: string
  media?: InboundMedia
  quoted?: MsgRef
  location?: { latitude: number; longitude: number; name?: string; address?: string }
  vcards?: { displayName: string; vcard: string }[]
  /** Edited before we stored it (an edit folded into the message by Baileys's buffer): the body is the new one. */
  edited?: boolean
  /** Deleted for everyone before we stored it (a revoke folded into it): its content is gone. */
  deleted?: boolean
  /** A kind of message Balcão cannot show (an unknown or unsupported type): stored as a placeholder row. */
  unsupported?: boolean
  /** A decryption failure placeholder: a later message with the same id replaces it. */
  undecryptable?: boolean
  /** The raw provider message (Baileys: WebMessageInfo encoded with proto), for quoting and retries. */
  raw?: Uint8Array
  /** Our own messages (written on the phone): their status as WhatsApp gave it. */
  ack?: Ack
}

/**
 * A chunk of WhatsApp's history sync (after pairing): old messages, oldest chunk first, with how far the sync
 * is. The inbox imports them per the connection's import settings.
 */
export type HistoryChunk = {
  t: 'history'
  messages: InboundMessage[]
  /** 0-100, when WhatsApp says. */
  progress?: number
  /** WhatsApp's last chunk of this sync. */
  isLatest?: boolean
  /** The sync's kind (INITIAL_BOOTSTRAP, RECENT, FULL, ON_DEMAND, …), for the log. */
  syncType?: string
  /** The sync finished (WhatsApp said 100 %, or stopped sending chunks). */
  complete?: boolean
}

/** Someone calls the connection's number (WhatsApp's call offer): the inbox may reject it (the `call` setting). */
export type CallOffer = {
  t: 'call'
  /** WhatsApp's call id, to reject it. */
  id: string
  /** Who calls (for a group call, the caller). */
  from: ContactRef
  isVideo: boolean
  isGroup: boolean
  /** Epoch ms. */
  timestamp: number
}

export type ChannelEvent =
  | { t: 'qr'; qr: string; attempt: number; expiresAt: number }
  | { t: 'pairingCode'; code: string; expiresAt: number }
  | {
      t: 'status'
      status: ConnectionStatus
      /** Why it is not connected, for people; absent when nothing went wrong. */
      statusReason?: ConnectionStatusReason
      /** The provider's close code (Baileys' DisconnectReason), for the log. */
      reason?: number
      detail?: string
      retryInMs?: number
      me?: ContactRef
    }
  | InboundMessage
  | { t: 'ack'; ref: MsgRef; ack: Ack; participant?: string; timestamp?: number }
  /**
   * WhatsApp restricts (or stops restricting) what the number may send: its reach-out time lock, until a time
   * (epoch ms) when WhatsApp said.
   */
  | { t: 'restriction'; active: boolean; until?: number; detail?: string }
  | { t: 'edit'; ref: MsgRef; body: string; timestamp: number }
  | { t: 'delete'; ref: MsgRef }
  | { t: 'reaction'; target: MsgRef; emoji: string; from: ContactRef; fromMe: boolean; timestamp: number }
  | { t: 'contact'; contact: ContactRef; name?: string; pushName?: string; pictureChanged?: boolean }
  | { t: 'lidMapping'; lid: string; pn: string }
  | HistoryChunk
  | CallOffer

export type ChannelEventOf<T extends ChannelEvent['t']> = Extract<ChannelEvent, { t: T }>

/** What Balcão sends. One kind per call; `quoted` makes it a reply. */
export type OutboundContent =
  | { kind: 'text'; body: string }
  | {
      kind: MediaKind
      /** Absolute path of the file to send. */
      path: string
      mimetype: string
      fileName?: string
      caption?: string
      ptt?: boolean
    }
  | { kind: 'location'; latitude: number; longitude: number; name?: string; address?: string }
  | { kind: 'contacts'; contacts: { displayName: string; vcard: string }[] }

export type SendOptions = { quoted?: MsgRef }

export interface ChannelSession {
  readonly connectionId: number
  readonly status: ConnectionStatus
  /**
   * What the session speaks now: its library's version (Baileys') and the WhatsApp Web version it announces,
   * which may change after WhatsApp rejects one (405). A provider without them (the sandbox) leaves it out.
   */
  readonly versions?: { library: string; web: string }
  /** Opens the session; emits qr / pairingCode / status. Idempotent. */
  start(options?: { pairingPhone?: string }): Promise<void>
  /** Closes without unlinking: credentials are kept, a later start resumes without a QR. */
  stop(): Promise<void>
  /** Unlinks from the phone and wipes the credentials. */
  logout(): Promise<void>
  /** Asks for a pairing code for this phone (digits only) instead of a QR. */
  requestPairingCode(phone: string): Promise<string>
  on(listener: (event: ChannelEvent) => void | Promise<void>): () => void
  send(to: ContactRef, content: OutboundContent, options?: SendOptions): Promise<MsgRef>
  react(target: MsgRef, emoji: string): Promise<void>
  edit(target: MsgRef, body: string): Promise<void>
  deleteForEveryone(target: MsgRef): Promise<void>
  /** Forwards a message we hold (`raw` of an inbound or sent message) to someone. */
  forward(to: ContactRef, source: MsgRef, raw: Uint8Array): Promise<MsgRef>
  markRead(refs: MsgRef[]): Promise<void>
  checkNumbers(phones: string[]): Promise<{ phone: string; exists: boolean; jid?: string }[]>
  /** Shows "typing..." (composing) to someone, or stops it (paused); a provider without presence leaves it out. */
  sendPresence?(to: ContactRef, state: 'composing' | 'paused'): Promise<void>
  profilePictureUrl(contact: ContactRef): Promise<string | null>
  /**
   * Downloads the media of a message we hold (`raw` of an inbound message). Throws
   * AppError('ERR_WAPP_DOWNLOAD_MEDIA'), with `details.expired` when WhatsApp no longer holds the file at that
   * address (then `reuploadMedia` may bring it back).
   */
  downloadMedia(raw: Uint8Array): Promise<Uint8Array>
  /**
   * Asks the phone to upload an expired media again (Baileys' updateMediaMessage) and returns the message's
   * new `raw`, whose address works again. Throws AppError('ERR_WAPP_DOWNLOAD_MEDIA') when the phone cannot.
   */
  reuploadMedia(raw: Uint8Array): Promise<Uint8Array>
  /** Declines a call offered to the connection (a provider without calls may leave it out). */
  rejectCall?(call: { id: string; from: ContactRef }): Promise<void>
}

/** Builds a session for a connection row; the manager holds one per started connection. */
export type ChannelProvider = (connection: { id: number; companyId: number; name: string }) => ChannelSession
