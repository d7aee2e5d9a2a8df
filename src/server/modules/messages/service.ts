import { unlinkSync } from 'node:fs'
import type { MessageDto, MessagesPage } from '../../../shared/api'
import { AppError, type ErrorCode, fieldError } from '../../../shared/errors'
import { FORWARD_MAX } from '../../../shared/schemas/messages'
import type { ChannelSession, MsgRef } from '../../channels/types'
import { type Ctx, transact } from '../../context'
import { pageCount, pageOf, pageWindow } from '../../db/paging'
import { mediaFilePath, storeMedia } from '../../media/store'
import { mediaTypeOf } from '../../media/types'
import type { UploadedMedia } from '../../media/upload'
import { reindexMessage } from '../search/indexer'
import { type ActorScope, actorScope, assertCanSeeTicket, canSeeTicket } from '../tickets/access'
import { loadTicketDto, loadTicketDtos, maskTicket } from '../tickets/dto'
import { otherOpenTicket } from '../tickets/held'
import { findOrOpenInboundTicket } from '../tickets/inbound'
import { publishTicket } from '../tickets/live'
import { markTicketRead } from '../tickets/read'
import { appendOldMessage, loadMessageDtos } from './dto'
import { publishMessageUpdates } from './live'
import {
  afterOutboundCommit,
  outboundSender,
  outboundTicket,
  queueOutboundMessage,
  type StoredMedia,
  writeOutboundMessages,
} from './outbound'
import { pageDtos, pageRows, readerOf } from './page'
import { chatRefOf, msgRefOf } from './refs'

export const MESSAGES_PAGE_SIZE = 20
/** WhatsApp lets a sent message be edited for 15 minutes. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000
/** Read receipts sent for one opening of a ticket at most (the newest unread messages). */
const RECEIPTS_MAX = 100

type Access = { scope: ActorScope | null }

/** The actor's scope when a user acts (their queues decide which tickets they see); null for a token or the system. */
function accessOf(ctx: Ctx): Access {
  return { scope: ctx.actor.kind === 'user' ? actorScope(ctx) : null }
}

function assertSees(
  access: Access,
  ticket: { companyId: number; queueId: number | null; userId: number | null },
) {
  if (access.scope) assertCanSeeTicket(access.scope, ticket)
}

/**
 * `GET /messages/{ticketId}`: 20 a page, page 1 the newest, oldest first within the page. Opening the
 * conversation reads it: its messages become read, its unread count zero (`updateUnread` live), and when the
 * attendant the ticket is assigned to opens it (open ticket), WhatsApp's read receipts go to the customer.
 * `spy` (the admin's read-only view) changes nothing.
 */
export function listMessages(
  ctx: Ctx,
  ticketId: number,
  query: { pageNumber?: number; spy?: boolean },
): MessagesPage {
  // A token, the system or an actor built by hand: their whole scope first (403 before 404, as ever).
  const scope = ctx.actor.kind !== 'user' || ctx.actor.isTricked === undefined ? actorScope(ctx) : null
  const at = pageWindow(query.pageNumber, MESSAGES_PAGE_SIZE)
  const ticket = loadTicketDto(ctx.sqlite, ticketId)
  if (!ticket || ticket.companyId !== ctx.actor.companyId)
    throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
  const reader = readerOf(ctx, ticket, scope)
  const page = pageOf(pageRows(ctx.sqlite, ticket, at.limit, at.offset), at)
  const count = pageCount(
    page,
    () =>
      ctx.sqlite
        .query<{ n: number }, [number]>('SELECT COUNT(*) AS n FROM messages WHERE ticket_id = ?')
        .get(ticketId)!.n,
  )
  page.rows.reverse()
  const messages = pageDtos(ctx, ticket, page.rows)
  if (ticket.unreadMessages > 0 && !query.spy) {
    const attendant = ticket.status === 'open' && ticket.userId === reader.userId
    const receipts = attendant ? unreadRefs(ctx, ticketId) : []
    if (markTicketRead(ctx, ticket)) {
      ticket.unreadMessages = 0
      for (const m of messages) m.read = true
    }
    if (receipts.length && ticket.whatsappId != null) sendReceipts(ctx, ticket.whatsappId, receipts)
  }
  return { count, messages, ticket: maskTicket(ticket, reader.isTricked), hasMore: page.hasMore }
}

type RefSql = { wid: string | null; remoteJid: string | null; fromMe: number; participant: string | null }

/** The customer's unread messages as WhatsApp keys them (newest first, bounded). */
function unreadRefs(ctx: Ctx, ticketId: number): MsgRef[] {
  return ctx.sqlite
    .query<RefSql, [number, number]>(
      `SELECT wid, remote_jid AS remoteJid, from_me AS fromMe, participant FROM messages
        WHERE ticket_id = ? AND from_me = 0 AND read = 0 AND wid IS NOT NULL AND remote_jid IS NOT NULL
        ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(ticketId, RECEIPTS_MAX)
    .flatMap((r) => msgRefOf(r, null) ?? [])
}

/** Read receipts to the customer, after the answer: a session that is down or refuses only logs. */
function sendReceipts(ctx: Ctx, whatsappId: number, refs: MsgRef[]) {
  const session = ctx.channels.session(whatsappId)
  if (session?.status !== 'CONNECTED') return
  void session
    .markRead(refs)
    .catch((err: Error) => ctx.log.warn('read receipts failed', { whatsappId, error: err.message }))
}

/** Stores uploads under the company's folder; the files to send. */
export function storeUploads(ctx: Ctx, uploads: UploadedMedia[]): StoredMedia[] {
  return uploads.map((u) => {
    const stored = storeMedia(ctx, ctx.actor.companyId, u.bytes, { mime: u.format.mime, ext: u.format.ext })
    return {
      path: stored.path,
      size: stored.size,
      mime: u.format.mime,
      name: u.name,
      mediaType: mediaTypeOf(u.format),
      ptt: u.ptt,
    }
  })
}

function removeStored(ctx: Ctx, media: StoredMedia[]) {
  for (const m of media) {
    const path = mediaFilePath(ctx, ctx.actor.companyId, m.path)
    try {
      if (path) unlinkSync(path)
    } catch {}
  }
}

export type SendInput = {
  body: string
  quotedMsgId?: number | null
  isPrivate?: boolean
  uploads?: UploadedMedia[]
}

/**
 * `POST /messages/{ticketId}`: a text, files (each its own message, the text as the first one's caption) or a
 * private note, on an open ticket the user may see. Written first, then sent (see outbound.ts).
 */
export function sendMessage(ctx: Ctx, ticketId: number, input: SendInput): MessageDto[] {
  const access = accessOf(ctx)
  const ticket = outboundTicket(ctx, ctx.actor.companyId, ticketId)
  assertSees(access, ticket)
  if (ticket.status !== 'open' && ctx.actor.kind === 'user')
    throw new AppError('ERR_TICKET_NOT_OPEN', 'Messages can only be sent on an open ticket')
  const uploads = input.uploads ?? []
  if (!input.body && !uploads.length)
    throw fieldError('body', 'must not be empty: write a message or attach a file')
  if (input.quotedMsgId != null) assertMayQuote(ctx, access, ticketId, input.quotedMsgId)
  const media = storeUploads(ctx, uploads)
  try {
    const out: { ticketId: number } & Omit<SendInput, 'uploads'> & { media: StoredMedia[] } = {
      ticketId,
      body: input.body,
      media,
    }
    if (input.quotedMsgId != null) out.quotedMsgId = input.quotedMsgId
    if (input.isPrivate) out.isPrivate = true
    return queueOutboundMessage(ctx, out)
  } catch (err) {
    removeStored(ctx, media)
    throw err
  }
}

type QuotedPlace = {
  ticketId: number
  isPrivate: number
  companyId: number
  queueId: number | null
  userId: number | null
}

/**
 * A reply may quote only a message the user may see: one of a ticket they may open (access.ts), and a private
 * note only on its own ticket (quoted elsewhere, it would show to that ticket's readers). Anything else is not
 * found, so a quote never reveals what it names. (outbound.ts then keeps the quote to the same contact.)
 */
function assertMayQuote(ctx: Ctx, access: Access, ticketId: number, quotedMsgId: number) {
  if (!access.scope) return
  const quoted = ctx.sqlite
    .query<QuotedPlace, [number, number]>(
      `SELECT m.ticket_id AS ticketId, m.is_private AS isPrivate, t.company_id AS companyId,
              t.queue_id AS queueId, t.user_id AS userId
         FROM messages m JOIN tickets t ON t.id = m.ticket_id WHERE m.id = ? AND m.company_id = ?`,
    )
    .get(quotedMsgId, ctx.actor.companyId)
  if (!quoted || !canSeeTicket(access.scope, quoted) || (quoted.isPrivate && quoted.ticketId !== ticketId))
    throw new AppError('ERR_NO_MESSAGE_FOUND', 'Message not found')
}

type MessageWithTicket = {
  id: number
  ticketId: number
  companyId: number
  wid: string | null
  remoteJid: string | null
  fromMe: number
  participant: string | null
  body: string
  mediaType: string
  mediaState: string
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  mediaSize: number | null
  ptt: number
  isDeleted: number
  isPrivate: number
  sendState: string | null
  oldMessages: string | null
  createdAt: number
  status: string
  queueId: number | null
  userId: number | null
  whatsappId: number | null
  contactId: number
  contactNumber: string | null
  contactLid: string | null
  contactIsGroup: number
}

/** A message of the actor's company on a ticket they may see (404 for another company's id, 403 otherwise). */
function messageForActor(ctx: Ctx, access: Access, id: number): MessageWithTicket {
  const row = ctx.sqlite
    .query<MessageWithTicket, [number, number]>(
      `SELECT m.id, m.ticket_id AS ticketId, m.company_id AS companyId, m.wid, m.remote_jid AS remoteJid,
              m.from_me AS fromMe, m.participant, m.body, m.media_type AS mediaType, m.media_state AS mediaState,
              m.media_path AS mediaPath, m.media_name AS mediaName, m.media_mime AS mediaMime,
              m.media_size AS mediaSize, m.ptt, m.is_deleted AS isDeleted, m.is_private AS isPrivate,
              m.send_state AS sendState, m.old_messages AS oldMessages, m.created_at AS createdAt,
              t.status, t.queue_id AS queueId, t.user_id AS userId, t.whatsapp_id AS whatsappId,
              t.contact_id AS contactId, c.number AS contactNumber, c.lid AS contactLid,
              c.is_group AS contactIsGroup
         FROM messages m JOIN tickets t ON t.id = m.ticket_id LEFT JOIN contacts c ON c.id = t.contact_id
        WHERE m.id = ? AND m.company_id = ?`,
    )
    .get(id, ctx.actor.companyId)
  if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND', 'Message not found')
  assertSees(access, row)
  return row
}

/** The connection's session, connected, or ERR_WAPP_NOT_INITIALIZED. */
function connectedSession(ctx: Ctx, whatsappId: number | null): ChannelSession {
  const session = whatsappId == null ? undefined : ctx.channels.session(whatsappId)
  if (session?.status !== 'CONNECTED')
    throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection of this ticket is not connected')
  return session
}

/** Runs a channel call; a failure that is not already one of ours becomes `code`. */
async function onChannel<T>(code: ErrorCode, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof AppError) throw err
    throw new AppError(code, (err as Error).message)
  }
}

function refOfStored(m: MessageWithTicket): MsgRef | null {
  const chat = chatRefOf({ number: m.contactNumber, lid: m.contactLid, isGroup: m.contactIsGroup })
  return msgRefOf(m, chat?.jid ?? null)
}

/**
 * `POST /messages/edit/{messageId}`: a text message we sent, on an open ticket, within WhatsApp's 15 minutes
 * (a note or a message that failed to send is edited here only). The earlier text goes to `oldMessages`
 * (`{ body, createdAt }`, createdAt being when it was replaced) and the message shows as edited.
 */
export async function editMessage(ctx: Ctx, id: number, body: string): Promise<MessageDto> {
  const access = accessOf(ctx)
  const m = messageForActor(ctx, access, id)
  if (!m.fromMe) throw new AppError('ERR_NO_PERMISSION', 'Only messages sent from here can be edited')
  if (m.isDeleted) throw fieldError('body', 'a deleted message cannot be edited')
  if (m.mediaType !== 'chat') throw fieldError('body', 'only text messages can be edited')
  if (m.status !== 'open')
    throw new AppError('ERR_TICKET_NOT_OPEN', 'Messages can only be edited on an open ticket')
  if (m.sendState === 'queued' || m.sendState === 'sending')
    throw new AppError(
      'ERR_VALIDATION',
      'This message is still being sent; edit it once it is sent',
      undefined,
      [{ field: 'body', message: 'the message is still being sent' }],
    )
  if (body === m.body) return loadMessageDtos(ctx, [id])[0]!
  if (!m.isPrivate && m.sendState === 'sent') {
    if (ctx.clock.now() - m.createdAt > EDIT_WINDOW_MS)
      throw fieldError('body', 'WhatsApp lets a message be edited only within 15 minutes of sending it')
    const ref = refOfStored(m)
    if (!ref) throw new AppError('ERR_SENDING_WAPP_MSG', 'This message has no WhatsApp id to edit')
    const session = connectedSession(ctx, m.whatsappId)
    await onChannel('ERR_SENDING_WAPP_MSG', () => session.edit(ref, body))
  }
  const now = ctx.clock.now()
  transact(ctx, (sqlite, events) => {
    // Read again: an edit arriving meanwhile (our own echo) must not be lost from the history.
    const current = sqlite
      .query<{ body: string; old: string | null }, [number]>(
        'SELECT body, old_messages AS old FROM messages WHERE id = ?',
      )
      .get(id)!
    if (current.body === body) return
    sqlite
      .query('UPDATE messages SET body = ?, old_messages = ?, is_edited = 1, updated_at = ? WHERE id = ?')
      .run(body, appendOldMessage(current.old, current.body, now), now, id)
    reindexMessage(sqlite, id)
    publishMessageUpdates(ctx, sqlite, events, m.ticketId, [id])
    // The list shows the edited text when it was the ticket's last message.
    const last = sqlite
      .query<{ id: number }, [number]>(
        'SELECT id FROM messages WHERE ticket_id = ? AND is_private = 0 ORDER BY created_at DESC, id DESC LIMIT 1',
      )
      .get(m.ticketId)
    if (!m.isPrivate && last?.id === id) {
      sqlite.query('UPDATE tickets SET last_message = ? WHERE id = ?').run(body.slice(0, 255), m.ticketId)
      const ticket = loadTicketDtos(sqlite, [m.ticketId])[0]
      if (ticket) publishTicket(events, ticket)
    }
  })
  return loadMessageDtos(ctx, [id])[0]!
}

/**
 * `DELETE /messages/{id}`: a message we sent is deleted for everyone (WhatsApp's revoke) and shows as
 * deleted; a note, or a message WhatsApp never got, is only marked. Deleting twice changes nothing.
 */
export async function deleteMessage(ctx: Ctx, id: number): Promise<MessageDto> {
  const access = accessOf(ctx)
  const m = messageForActor(ctx, access, id)
  if (!m.fromMe) throw new AppError('ERR_NO_PERMISSION', 'Only messages sent from here can be deleted')
  if (!m.isDeleted) {
    if (!m.isPrivate && m.wid) {
      const ref = refOfStored(m)
      const session = connectedSession(ctx, m.whatsappId)
      if (ref) await onChannel('ERR_DELETE_WAPP_MSG', () => session.deleteForEveryone(ref))
    }
    // A message still being sent is taken back by the sender once WhatsApp gives it an id.
    transact(ctx, (sqlite, events) => {
      sqlite.query('UPDATE messages SET is_deleted = 1, updated_at = ? WHERE id = ?').run(ctx.clock.now(), id)
      reindexMessage(sqlite, id)
      publishMessageUpdates(ctx, sqlite, events, m.ticketId, [id])
    })
  }
  return loadMessageDtos(ctx, [id])[0]!
}

/** `POST /messages/{id}/retry`: a message that failed to send goes back in line (only a failed one). */
export async function retryMessage(ctx: Ctx, id: number): Promise<MessageDto> {
  const access = accessOf(ctx)
  const m = messageForActor(ctx, access, id)
  if (!m.fromMe || m.isPrivate || m.sendState !== 'failed' || m.isDeleted)
    throw new AppError('ERR_VALIDATION', 'Only a message that failed to send can be sent again', undefined, [
      { field: 'id', message: 'must be a message that failed to send' },
    ])
  if (m.status !== 'open' && ctx.actor.kind === 'user')
    throw new AppError('ERR_TICKET_NOT_OPEN', 'Messages can only be sent on an open ticket')
  const requeued = transact(ctx, (sqlite, events) => {
    const result = sqlite
      .query(
        `UPDATE messages SET send_state = 'queued', send_error = NULL, updated_at = ?
          WHERE id = ? AND send_state = 'failed'`,
      )
      .run(ctx.clock.now(), id)
    if (result.changes) publishMessageUpdates(ctx, sqlite, events, m.ticketId, [id])
    return result.changes === 1
  })
  if (requeued) await outboundSender(ctx).kick([id])
  return loadMessageDtos(ctx, [id])[0]!
}

/**
 * `POST /messages/{id}/reaction`: our reaction (an emoji; '' takes it away) on a message WhatsApp has, shown
 * under it. One reaction of ours per message, as in WhatsApp.
 */
export async function reactToMessage(ctx: Ctx, id: number, emoji: string): Promise<MessageDto> {
  const access = accessOf(ctx)
  const m = messageForActor(ctx, access, id)
  if (m.isPrivate || m.isDeleted) throw fieldError('emoji', 'this message cannot be reacted to')
  const ref = refOfStored(m)
  if (!ref) throw fieldError('emoji', 'this message has not reached WhatsApp')
  const session = connectedSession(ctx, m.whatsappId)
  await onChannel('ERR_SENDING_WAPP_MSG', () => session.react(ref, emoji))
  transact(ctx, (sqlite, events) => {
    if (emoji)
      sqlite
        .query(
          `INSERT INTO message_reactions (company_id, message_id, sender, sender_name, emoji, created_at)
           VALUES (?, ?, 'me', NULL, ?, ?)
           ON CONFLICT (message_id, sender) DO UPDATE SET emoji = excluded.emoji, created_at = excluded.created_at`,
        )
        .run(m.companyId, id, emoji, ctx.clock.now())
    else sqlite.query(`DELETE FROM message_reactions WHERE message_id = ? AND sender = 'me'`).run(id)
    publishMessageUpdates(ctx, sqlite, events, m.ticketId, [id])
  })
  return loadMessageDtos(ctx, [id])[0]!
}

/**
 * `POST /message/forward`: messages (one per call as the spec's client sends, or up to 4 at once) to a
 * contact, in that contact's ticket on the same connection (found, or opened pending). Each is written first
 * and sent with WhatsApp's forward when the original is known, else as a copy of its content. A contact whose
 * ticket there is one the user may not open answers 409 ERR_OTHER_OPEN_TICKET naming its holder, and nothing
 * is written.
 */
export function forwardMessages(
  ctx: Ctx,
  input: { messageId: number | number[]; contactId: number },
): MessageDto[] {
  const ids = Array.isArray(input.messageId) ? input.messageId : [input.messageId]
  if (ids.length === 0) throw fieldError('messageId', 'No message selected')
  if (ids.length > FORWARD_MAX)
    throw fieldError('messageId', `At most ${FORWARD_MAX} messages can be forwarded at once`)
  if (new Set(ids).size !== ids.length) throw fieldError('messageId', 'must not repeat a message')
  const access = accessOf(ctx)
  const sources = ids.map((id) => messageForActor(ctx, access, id))
  for (const s of sources) {
    if (s.isPrivate) throw fieldError('messageId', 'a private note cannot be forwarded')
    if (s.isDeleted) throw fieldError('messageId', 'a deleted message cannot be forwarded')
    if (s.mediaType !== 'chat' && s.mediaPath && s.mediaState !== 'stored')
      throw fieldError('messageId', 'the media of this message is not available')
    if (!s.body && !s.mediaPath) throw fieldError('messageId', 'this message has nothing to forward')
  }
  const contact = ctx.sqlite
    .query<{ id: number; isGroup: number }, [number, number]>(
      'SELECT id, is_group AS isGroup FROM contacts WHERE id = ? AND company_id = ?',
    )
    .get(input.contactId, ctx.actor.companyId)
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found')
  const whatsappId = sources[0]!.whatsappId ?? defaultConnection(ctx)
  const created = transact(ctx, (sqlite, events) => {
    const { ticket, created: opened } = findOrOpenInboundTicket(
      sqlite,
      {
        companyId: ctx.actor.companyId,
        contactId: contact.id,
        whatsappId,
        isGroup: !!contact.isGroup,
        now: ctx.clock.now(),
      },
      events,
    )
    // The new-ticket rule (tickets/held.ts): the copy may not land in a ticket the user could not open.
    if (access.scope && !opened && !canSeeTicket(access.scope, ticket))
      throw otherOpenTicket(sqlite, access.scope, ticket.id)
    return sources.flatMap((s) => {
      const media: StoredMedia[] =
        s.mediaPath && s.mediaState === 'stored'
          ? [
              {
                path: s.mediaPath,
                size: s.mediaSize ?? 0,
                mime: s.mediaMime ?? 'application/octet-stream',
                name: s.mediaName ?? 'file',
                mediaType: s.mediaType as StoredMedia['mediaType'],
                ptt: !!s.ptt,
              },
            ]
          : []
      return writeOutboundMessages(ctx, sqlite, events, ticket, { body: s.body, media, forwardOf: s.id })
    })
  })
  void afterOutboundCommit(ctx, created)
  return loadMessageDtos(ctx, created)
}

function defaultConnection(ctx: Ctx): number {
  const row = ctx.sqlite
    .query<{ id: number }, [number]>(
      'SELECT id FROM whatsapps WHERE company_id = ? ORDER BY is_default DESC, id LIMIT 1',
    )
    .get(ctx.actor.companyId)
  if (!row) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 'The company has no connection to send from')
  return row.id
}
