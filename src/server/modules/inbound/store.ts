/**
 * One inbound message into the inbox, inside the caller's transaction (synchronous, so nothing interleaves):
 *
 * 1. a message whose provider id (wid) the company already holds is a no-op (WhatsApp delivers again after a
 *    reconnect, a history sync repeats, our own sends echo back);
 * 2. a group message is taken only when the connection allows groups and the company does not ignore them
 *    (`allowGroup` on the connection AND the CheckMsgIsGroup setting not 'enabled', "ignore group messages");
 *    imported history follows the connection's importOldMessagesGroups instead (history.ts);
 * 3. the contact (contacts/resolve.ts) and the ticket (tickets/inbound.ts: the active one, or a new pending one
 *    after a close) are found or made;
 * 4. the message row is written with the message's own time (`created_at` = WhatsApp's timestamp, so messages
 *    delivered late land where they belong), its quote resolved by wid (or kept pending), its media 'pending';
 * 5. reactions, edits, deletions and quotes that arrived before it (inbound_pending) are applied to it;
 * 6. the ticket's lastMessage (only when this is its newest message), updatedAt and unread count (customer
 *    messages only) follow.
 *
 * The caller publishes and starts the side work (media download, search index, profile picture) after commit.
 */
import type { Database } from 'bun:sqlite'
import { SETTINGS } from '../../../shared/settings'
import type { InboundMessage, MediaKind } from '../../channels/types'
import type { Deps } from '../../context'
import type { MediaType } from '../../db/schema/messages'
import { cleanFileName } from '../../media/store'
import type { EventBuffer } from '../../realtime/hub'
import { resolveInboundContact } from '../contacts/resolve'
import { findOrOpenInboundTicket } from '../tickets/inbound'
import { jidUser, lidDigits } from './jids'
import { applyPendingFor, type PendingStore, rememberPending } from './targets'

/** Where a message comes from: live (notify), replayed after a reconnect (append), or history sync. */
export type Origin = 'live' | 'offline' | 'history'

export type StoredMessage = {
  messageId: number
  ticketId: number
  contactId: number
  contactCreated: boolean
  /** When the contact's picture was last asked of the channel (null: never). */
  pictureCheckedAt: number | null
  ticketCreated: boolean
  /** Messages changed by pending reactions/edits/quotes applied to this one (besides itself). */
  touched: { ticketId: number; messageId: number }[]
  hasMedia: boolean
  /** An existing `waiting` row became this message (published as an update, not a new message). */
  replaced?: boolean
}

export type Skipped = 'duplicate' | 'group' | 'undecryptable' | 'empty'

export type ConnectionRef = { id: number; companyId: number }

const MEDIA_TYPES: Record<MediaKind, MediaType> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'application',
  sticker: 'sticker',
}

const EXTENSIONS: Record<MediaKind, string> = {
  image: 'jpg',
  video: 'mp4',
  audio: 'ogg',
  document: 'bin',
  sticker: 'webp',
}

/** Whether group messages open tickets on this connection (see the file's comment). */
export function groupsAllowed(sqlite: Database, companyId: number, whatsappId: number): boolean {
  const row = sqlite
    .query<{ allowGroup: number; ignore: string | null }, [number, number, number]>(
      `SELECT w.allow_group AS allowGroup,
              (SELECT value FROM settings WHERE company_id = ? AND key = 'CheckMsgIsGroup') AS ignore
         FROM whatsapps w WHERE w.id = ? AND w.company_id = ?`,
    )
    .get(companyId, whatsappId, companyId)
  if (!row?.allowGroup) return false
  return (row.ignore ?? SETTINGS.CheckMsgIsGroup.default) !== 'enabled'
}

/** The id of the company's message with this provider id. */
export function messageIdByWid(sqlite: Database, companyId: number, wid: string): number | undefined {
  return (
    sqlite
      .query<{ id: number }, [number, string]>('SELECT id FROM messages WHERE company_id = ? AND wid = ?')
      .get(companyId, wid)?.id ?? undefined
  )
}

/**
 * What an attendant sees instead of a message Balcão cannot show (issue 20, defect 13: nothing is dropped
 * silently), in the inbox's default language; `provider_data.placeholder` names the kind, so the page may show it
 * in the reader's language. A `waiting` row is replaced in place when the message arrives again (the sender's
 * phone resends it after Baileys's retry receipt).
 */
export const PLACEHOLDER_BODIES = {
  waiting: 'Aguardando esta mensagem. Isso pode levar alguns instantes.',
  unsupported: 'Mensagem não suportada neste dispositivo. Veja no celular.',
} as const
export type Placeholder = keyof typeof PLACEHOLDER_BODIES

function placeholderOf(event: InboundMessage): Placeholder | undefined {
  if (event.undecryptable) return 'waiting'
  if (event.unsupported) return 'unsupported'
  return undefined
}

/** What the row shows: type, body, file name and the provider data kept for later. */
function contentOf(event: InboundMessage) {
  let mediaType: MediaType = 'chat'
  let body = event.body
  const data: Record<string, unknown> = {}
  if (event.raw) data.raw = Buffer.from(event.raw).toString('base64')
  let mediaName: string | null = null
  const placeholder = placeholderOf(event)
  if (placeholder) {
    data.placeholder = placeholder
    body = PLACEHOLDER_BODIES[placeholder]
  } else if (event.media) {
    mediaType = MEDIA_TYPES[event.media.kind]
    mediaName = cleanFileName(
      event.media.fileName,
      `${event.media.kind}-${event.ref.id}.${extensionOf(event.media.mimetype, event.media.kind)}`,
    )
  } else if (event.location) {
    mediaType = 'locationMessage'
    const { latitude, longitude, name, address } = event.location
    data.location = event.location
    const link = `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`
    body = [name, address, link].filter(Boolean).join('\n')
  } else if (event.vcards?.length) {
    mediaType = 'contactMessage'
    body = event.vcards.map((v) => v.vcard).join('\n')
    data.vcards = event.vcards.map((v) => v.displayName)
  }
  return { mediaType, body, mediaName, providerData: JSON.stringify(data) }
}

function extensionOf(mime: string, kind: MediaKind): string {
  const sub = mime.split(';')[0]?.split('/')[1]?.trim().toLowerCase()
  if (sub && /^[a-z0-9]{2,5}$/.test(sub)) return sub === 'jpeg' ? 'jpg' : sub
  return EXTENSIONS[kind]
}

/** The list's preview of a message: its text (a caption), a document's own name, a contact card's name. */
function previewOf(event: InboundMessage, body: string, mediaType: MediaType): string {
  if (mediaType === 'contactMessage') return body.match(/^FN[;:]?[^:\n]*:(.*)$/m)?.[1]?.trim() ?? ''
  return body || event.media?.fileName || ''
}

/**
 * The message a `waiting` row stood for arrived (the resend after a retry receipt): the row becomes it, in place
 * (same id, same place in the conversation), and the ticket's preview follows when it is the newest.
 */
function replaceWaiting(
  sqlite: Database,
  messageId: number,
  event: InboundMessage,
  conn: ConnectionRef,
  now: number,
): StoredMessage | undefined {
  const row = sqlite
    .query<{ ticketId: number; contactId: number | null; providerData: string | null }, [number]>(
      'SELECT ticket_id AS ticketId, contact_id AS contactId, provider_data AS providerData FROM messages WHERE id = ?',
    )
    .get(messageId)
  if (!row?.providerData) return undefined
  let placeholder: unknown
  try {
    placeholder = (JSON.parse(row.providerData) as { placeholder?: unknown }).placeholder
  } catch {
    return undefined
  }
  if (placeholder !== 'waiting') return undefined
  const quotedMsgId = event.quoted ? (messageIdByWid(sqlite, conn.companyId, event.quoted.id) ?? null) : null
  const { mediaType, body, mediaName, providerData } = contentOf(event)
  sqlite
    .query(
      `UPDATE messages SET body = ?, media_type = ?, media_state = ?, media_name = ?, media_mime = ?,
              media_size = ?, ptt = ?, quoted_msg_id = ?, provider_data = ?, is_edited = ?, is_deleted = ?,
              updated_at = ?
        WHERE id = ?`,
    )
    .run(
      body,
      mediaType,
      event.media ? 'pending' : 'none',
      mediaName,
      event.media?.mimetype ?? null,
      event.media?.size ?? null,
      event.media?.ptt ? 1 : 0,
      quotedMsgId,
      providerData,
      event.edited ? 1 : 0,
      event.deleted ? 1 : 0,
      now,
      messageId,
    )
  const newest = sqlite
    .query<{ id: number }, [number]>(
      'SELECT id FROM messages WHERE ticket_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    )
    .get(row.ticketId)
  if (newest?.id === messageId)
    sqlite
      .query('UPDATE tickets SET last_message = ? WHERE id = ?')
      .run(previewOf(event, body, mediaType), row.ticketId)
  if (event.media) {
    sqlite
      .query(
        `INSERT INTO media_downloads (message_id, company_id, whatsapp_id, attempts, next_attempt_at, updated_at)
         VALUES (?, ?, ?, 0, ?, ?)`,
      )
      .run(messageId, conn.companyId, conn.id, now, now)
  }
  return {
    messageId,
    ticketId: row.ticketId,
    contactId: row.contactId ?? 0,
    contactCreated: false,
    pictureCheckedAt: null,
    ticketCreated: false,
    touched: [],
    hasMedia: !!event.media,
    replaced: true,
  }
}

const INSERT_SQL = `INSERT INTO messages (company_id, ticket_id, contact_id, wid, remote_jid, participant,
  participant_name, from_me, body, media_type, media_state, media_name, media_mime, media_size, ptt, ack, read,
  quoted_msg_id, provider_data, is_edited, is_deleted, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

/**
 * Stores one inbound message (see the file's comment). Returns what it did, or why it did nothing.
 * `now` is the server's time; the message keeps WhatsApp's.
 */
export function storeInboundMessage(
  deps: Pick<Deps, 'sqlite'>,
  tx: Database,
  events: EventBuffer,
  conn: ConnectionRef,
  event: InboundMessage,
  origin: Origin,
  now: number,
  pending: PendingStore,
): StoredMessage | Skipped {
  const { sqlite } = deps
  const companyId = conn.companyId
  if (!event.ref.id) return 'empty'
  const existing = messageIdByWid(sqlite, companyId, event.ref.id)
  if (existing !== undefined) {
    if (event.undecryptable) return 'duplicate'
    return replaceWaiting(sqlite, existing, event, conn, now) ?? 'duplicate'
  }
  // history's groups were chosen by importOldMessagesGroups (history.ts)
  if (event.isGroup && origin !== 'history' && !groupsAllowed(sqlite, companyId, conn.id)) return 'group'

  const fromMe = event.ref.fromMe
  const at = event.timestamp
  const who = event.isGroup
    ? { number: jidUser(event.chat.jid), lid: null, name: null, isGroup: true, whatsappId: conn.id }
    : {
        number: event.chat.pn ?? null,
        lid: lidDigits(event.chat.lid),
        name: fromMe ? null : (event.pushName ?? null),
        isGroup: false,
        whatsappId: conn.id,
      }
  if (!who.number && !who.lid) return 'empty'
  // imported history opens its tickets at the conversation's own time
  const ticketTime = origin === 'history' ? at : now
  const { contact, created: contactCreated } = resolveInboundContact(tx, companyId, who, ticketTime, events)
  const { ticket, created: ticketCreated } = findOrOpenInboundTicket(
    tx,
    { companyId, contactId: contact.id, whatsappId: conn.id, isGroup: event.isGroup, now: ticketTime },
    events,
  )

  const quotedMsgId = event.quoted ? (messageIdByWid(sqlite, companyId, event.quoted.id) ?? null) : null
  const { mediaType, body, mediaName, providerData } = contentOf(event)
  const newest = sqlite
    .query<{ at: number }, [number]>(
      'SELECT created_at AS at FROM messages WHERE ticket_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    )
    .get(ticket.id)
  const isNewest = !newest || at >= newest.at
  const participant = event.isGroup && !fromMe ? event.sender.jid || null : null
  const participantName =
    event.isGroup && !fromMe ? (event.pushName ?? event.sender.pn ?? lidDigits(event.sender.lid)) : null
  const ack = fromMe ? Math.max(0, Math.min(4, event.ack ?? 1)) : 0
  const result = sqlite.query(INSERT_SQL).run(
    companyId,
    ticket.id,
    contact.id,
    event.ref.id,
    event.ref.chatJid,
    participant,
    participantName,
    fromMe ? 1 : 0,
    body,
    mediaType,
    event.media ? 'pending' : 'none',
    mediaName,
    event.media?.mimetype ?? null,
    event.media?.size ?? null,
    event.media?.ptt ? 1 : 0,
    ack,
    // read: ours, and imported history, are read; a customer's live message waits for an attendant
    fromMe || origin === 'history' ? 1 : 0,
    quotedMsgId,
    providerData,
    event.edited ? 1 : 0,
    event.deleted ? 1 : 0,
    at,
    now,
  )
  const messageId = Number(result.lastInsertRowid)
  if (event.quoted && quotedMsgId === null)
    rememberPending(sqlite, pending, companyId, conn.id, event.quoted.id, 'quote', { messageId }, now)

  const unread = !fromMe && origin !== 'history' ? 1 : 0
  sqlite
    .query(
      `UPDATE tickets
          SET last_message = CASE WHEN ?1 THEN ?2 ELSE last_message END,
              updated_at = max(updated_at, ?3),
              unread_messages = unread_messages + ?4,
              imported = ?5
        WHERE id = ?6`,
    )
    .run(
      isNewest ? 1 : 0,
      previewOf(event, body, mediaType),
      origin === 'history' ? at : now,
      unread,
      // a ticket made by an import stays "imported" until a live message makes it a conversation again
      origin === 'history' ? (ticketCreated || ticket.imported ? 1 : 0) : 0,
      ticket.id,
    )

  if (event.media) {
    sqlite
      .query(
        `INSERT INTO media_downloads (message_id, company_id, whatsapp_id, attempts, next_attempt_at, updated_at)
         VALUES (?, ?, ?, 0, ?, ?)`,
      )
      .run(messageId, companyId, conn.id, now, now)
  }

  const touched = pending.count > 0 ? applyPendingFor(deps, pending, companyId, event.ref.id, messageId) : []
  return {
    messageId,
    ticketId: ticket.id,
    contactId: contact.id,
    contactCreated,
    pictureCheckedAt: contact.profilePicCheckedAt ?? null,
    ticketCreated,
    touched,
    hasMedia: !!event.media,
  }
}
