import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { contacts } from './contacts'
import { tickets } from './tickets'
import { users } from './users'

export const MEDIA_TYPES = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'sticker',
  'locationMessage',
  'contactMessage',
  'vcard',
  'call_log',
] as const
export type MediaType = (typeof MEDIA_TYPES)[number]

/** Where an outbound message is: written (queued), handed to WhatsApp (sent), or failed with a reason. */
export const SEND_STATES = ['queued', 'sending', 'sent', 'failed'] as const
export type SendState = (typeof SEND_STATES)[number]

/** Where an inbound message's media is: none, stored, still to fetch, or failed (shows a retry). */
export const MEDIA_STATES = ['none', 'stored', 'pending', 'failed'] as const
export type MediaState = (typeof MEDIA_STATES)[number]

/**
 * A message that carries more than text: media, an edit history, a quote, a group sender, a send error or a
 * rare flag. Most messages are plain, so the conversation page reads the plain columns of its rows and looks
 * these up only for its rich ones, through the partial index `messages_rich` (modules/messages/page.ts). The
 * page's probe repeats this text exactly, which is what lets SQLite use the index.
 */
export const RICH_MESSAGE = `(media_path IS NOT NULL OR media_name IS NOT NULL OR media_mime IS NOT NULL
  OR media_size IS NOT NULL OR old_messages IS NOT NULL OR quoted_msg_id IS NOT NULL
  OR participant_name IS NOT NULL OR send_error IS NOT NULL OR ptt <> 0 OR is_deleted <> 0 OR is_edited <> 0
  OR is_private <> 0)`

export const messages = sqliteTable(
  'messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** The provider's message id (WhatsApp's key.id); null until an outbound message is sent. */
    wid: text('wid'),
    /** The chat's JID as WhatsApp addressed it, for receipts, edits and re-downloads. */
    remoteJid: text('remote_jid'),
    /** In a group: who wrote (JID) and their name as WhatsApp gave it. */
    participant: text('participant'),
    participantName: text('participant_name'),
    fromMe: integer('from_me', { mode: 'boolean' }).notNull().default(false),
    /** The user who wrote it from Balcão (outbound), if any. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull().default(''),
    mediaType: text('media_type').$type<MediaType>().notNull().default('chat'),
    mediaState: text('media_state', { enum: MEDIA_STATES }).notNull().default('none'),
    /** The stored file, relative to the company's media folder. */
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    mediaSize: integer('media_size'),
    /** A voice note (push-to-talk) rather than an audio file. */
    ptt: integer('ptt', { mode: 'boolean' }).notNull().default(false),
    /** 0 pending, 1 sent, 2 delivered, 3 delivered to all, 4 read; only ever moves forward. */
    ack: integer('ack').notNull().default(0),
    read: integer('read', { mode: 'boolean' }).notNull().default(false),
    isDeleted: integer('is_deleted', { mode: 'boolean' }).notNull().default(false),
    isEdited: integer('is_edited', { mode: 'boolean' }).notNull().default(false),
    isPrivate: integer('is_private', { mode: 'boolean' }).notNull().default(false),
    /** Earlier bodies, newest last: JSON `[{ body, createdAt }]`. */
    oldMessages: text('old_messages'),
    quotedMsgId: integer('quoted_msg_id'),
    /** Outbound only: the send's state and, when it failed, why. */
    sendState: text('send_state', { enum: SEND_STATES }),
    sendError: text('send_error'),
    sendAttempts: integer('send_attempts').notNull().default(0),
    /** What the provider needs to act on the message later (re-download its media, quote it): JSON. */
    providerData: text('provider_data'),
    /** A voice note's or audio's text, once transcribed (modules/prompts/transcription.ts). */
    transcription: text('transcription'),
    ...timestamps,
  },
  (t) => [
    index('messages_ticket_created').on(t.ticketId, t.createdAt, t.id),
    uniqueIndex('messages_company_wid').on(t.companyId, t.wid).where(sql`wid IS NOT NULL`),
    index('messages_send_state').on(t.sendState).where(sql`send_state IN ('queued', 'sending')`),
    index('messages_media_pending').on(t.mediaState).where(sql`media_state = 'pending'`),
    index('messages_rich').on(t.ticketId, t.id).where(sql.raw(RICH_MESSAGE)),
  ],
)

/** One reaction per sender on a message, shown under it; an empty emoji removes it. */
export const messageReactions = sqliteTable(
  'message_reactions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    /** Who reacted: 'me' for us, otherwise the sender's JID. */
    sender: text('sender').notNull(),
    senderName: text('sender_name'),
    emoji: text('emoji').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('message_reactions_message_sender').on(t.messageId, t.sender)],
)

export type MessageRow = typeof messages.$inferSelect
