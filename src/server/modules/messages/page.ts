/**
 * The hot path of `GET /messages/{ticketId}` (a conversation opened, or reloaded, many times a minute): the
 * ticket, the reader's right to see it and one page of messages, read with as few statements, columns and
 * objects as give the same answer as the general loaders (tickets/dto.ts `loadTicketDtos`, dto.ts
 * `toMessageDto`); the tests in page.test.ts compare them.
 *
 * On this SQLite build every column read and every expression evaluated costs per row, and far more under load
 * than in a quiet loop (the page was 20 % faster once its SQL stopped computing anything), so:
 * - the ticket comes with its user, queue and connection names as subqueries, its contact in one more primary
 *   key lookup, and its tags only when it has some;
 * - a page reads its messages' plain columns only; the rarely-set ones (media, edits, quote, group sender,
 *   error, rare flags) are read for the page's rich messages alone, found through the partial index
 *   `messages_rich` (schema/messages.ts), which holds no entry for a plain message;
 * - reactions are read only when some message of the page has one.
 *
 * A message's company is its ticket's: every path that writes one takes it from the ticket.
 */
import type { Database } from 'bun:sqlite'
import type { MessageDto, MessageReactionDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import type { NumberVisibility } from '../../access/mask'
import { isoString } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { RICH_MESSAGE } from '../../db/schema/messages'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import { type ActorScope, actorScope, canSeeTicket } from '../tickets/access'
import { clampAck, loadQuoted, loadReactions, parseOldMessages } from './dto'

// ---- who reads ----

export type Reader = { userId: number; isTricked: NumberVisibility }

type AccessRow = { allTicket: string; inQueue: number }

const ACCESS_SQL = `SELECT all_ticket AS allTicket,
  EXISTS (SELECT 1 FROM user_queues WHERE user_id = ?1 AND queue_id = ?2) AS inQueue
  FROM users WHERE id = ?1 AND company_id = ?3`

/**
 * The rule of tickets/access.ts (`assertCanSeeTicket(actorScope(ctx), ticket)`) for the reader of a
 * conversation, without loading their whole scope: an actor from `authenticate` carries their profile, super
 * flag and number visibility, read with this request, so an admin needs no query and an attendant at most one
 * (their allTicket flag and whether the ticket's queue is theirs). A hand-built actor gets the full scope
 * (`scope` when the caller loaded it already).
 */
export function readerOf(
  ctx: Ctx,
  ticket: { companyId: number; queueId: number | null; userId: number | null },
  scope: ActorScope | null = null,
): Reader {
  const actor = ctx.actor
  if (scope || actor.kind !== 'user' || actor.isTricked === undefined) {
    const full = scope ?? actorScope(ctx)
    if (!canSeeTicket(full, ticket)) throw new AppError('ERR_NO_PERMISSION', 'Acesso não permitido')
    return { userId: full.userId, isTricked: full.isTricked }
  }
  const reader = { userId: actor.userId, isTricked: actor.isTricked }
  if (ticket.companyId !== actor.companyId) throw new AppError('ERR_NO_PERMISSION', 'Acesso não permitido')
  if (actor.profile === 'admin' || actor.super) return reader
  if (ticket.userId != null && ticket.userId === actor.userId) return reader
  const row = stmt<AccessRow, [number, number | null, number]>(ctx.sqlite, ACCESS_SQL).get(
    actor.userId,
    ticket.queueId,
    actor.companyId,
  )
  if (!row) throw new AppError('ERR_NO_PERMISSION', 'Acesso não permitido')
  const sees = ticket.queueId == null ? row.allTicket === 'enable' : !!row.inQueue
  if (!sees) throw new AppError('ERR_NO_PERMISSION', 'Acesso não permitido')
  return reader
}

// ---- the page of messages ----

/** A message as the page reads it: its plain columns. */
export type PageRow = {
  id: number
  wid: string | null
  body: string
  fromMe: number
  read: number
  ack: number
  mediaType: string
  mediaState: MessageDto['mediaState']
  sendState: MessageDto['sendState']
  userId: number | null
  contactId: number | null
  createdAt: number
  updatedAt: number
}

const PAGE_SQL = `SELECT id, wid, body, from_me AS fromMe, read, ack, media_type AS mediaType,
  media_state AS mediaState, send_state AS sendState, user_id AS userId, contact_id AS contactId,
  created_at AS createdAt, updated_at AS updatedAt
 FROM messages WHERE ticket_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`

/** Rows of one page of the ticket's messages, newest first (LIMIT `limit`, from `offset`). */
export function pageRows(sqlite: Database, ticket: { id: number }, limit: number, offset: number): PageRow[] {
  return stmt<PageRow, [number, number, number]>(sqlite, PAGE_SQL).all(ticket.id, limit, offset)
}

/** The rarely-set columns of a rich message. */
type RichRow = {
  id: number
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  mediaSize: number | null
  oldMessages: string | null
  quotedMsgId: number | null
  participantName: string | null
  sendError: string | null
  ptt: number
  isDeleted: number
  isEdited: number
  isPrivate: number
  transcription: string | null
}

const RICH_SQL = `SELECT id, media_path AS mediaPath, media_name AS mediaName, media_mime AS mediaMime,
  media_size AS mediaSize, old_messages AS oldMessages, quoted_msg_id AS quotedMsgId,
  participant_name AS participantName, send_error AS sendError, ptt, is_deleted AS isDeleted,
  is_edited AS isEdited, is_private AS isPrivate, transcription
 FROM messages WHERE ticket_id = ? AND id BETWEEN ? AND ? AND ${RICH_MESSAGE}`

const PLAIN: Omit<RichRow, 'id'> = {
  mediaPath: null,
  mediaName: null,
  mediaMime: null,
  mediaSize: null,
  oldMessages: null,
  quotedMsgId: null,
  participantName: null,
  sendError: null,
  ptt: 0,
  isDeleted: 0,
  isEdited: 0,
  isPrivate: 0,
  transcription: null,
}

const REACTIONS_PROBE_SQL = `SELECT EXISTS (SELECT 1 FROM message_reactions
  WHERE message_id BETWEEN ? AND ? AND emoji <> '') AS any`

/**
 * The rows as `toMessageDto` shows them (with quotes, reactions and signed media links), for the ticket the
 * page was read from.
 */
export function pageDtos(
  deps: Pick<Deps, 'sqlite' | 'secrets' | 'clock'>,
  ticket: { id: number; companyId: number },
  rows: PageRow[],
): MessageDto[] {
  if (!rows.length) return []
  let low = rows[0]!.id
  let high = low
  for (const r of rows) {
    if (r.id < low) low = r.id
    if (r.id > high) high = r.id
  }
  // The id range may hold messages of other pages: only the page's own are looked up below.
  const rich = new Map<number, RichRow>()
  for (const r of stmt<RichRow, [number, number, number]>(deps.sqlite, RICH_SQL).all(ticket.id, low, high))
    rich.set(r.id, r)
  const anyReaction = stmt<{ any: number }, [number, number]>(deps.sqlite, REACTIONS_PROBE_SQL).get(
    low,
    high,
  )!.any
  const reactions = anyReaction
    ? loadReactions(
        deps,
        rows.map((r) => r.id),
      )
    : null
  const quoted =
    rich.size > 0
      ? loadQuoted(
          deps,
          ticket.companyId,
          rows.map((r) => rich.get(r.id)?.quotedMsgId ?? null),
        )
      : null
  const companyId = ticket.companyId
  const out: MessageDto[] = new Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    const e = rich.get(r.id) ?? PLAIN
    const createdAt = isoString(r.createdAt)
    out[i] = {
      id: r.id,
      wid: r.wid,
      ticketId: ticket.id,
      contactId: r.contactId,
      companyId,
      body: r.body,
      fromMe: r.fromMe !== 0,
      ack: clampAck(r.ack),
      read: r.read !== 0,
      mediaType: r.mediaType,
      mediaUrl:
        e.mediaPath && r.mediaState === 'stored' ? signedMediaUrl(deps, companyId, e.mediaPath) : null,
      mediaName: e.mediaName,
      mediaMime: e.mediaMime,
      mediaSize: e.mediaSize,
      mediaState: r.mediaState,
      ptt: e.ptt !== 0,
      isDeleted: e.isDeleted !== 0,
      isEdited: e.isEdited !== 0,
      isPrivate: e.isPrivate !== 0,
      oldMessages: e.oldMessages
        ? parseOldMessages(e.oldMessages).map((o) => ({ body: o.body, createdAt: isoString(o.createdAt) }))
        : [],
      quotedMsgId: e.quotedMsgId,
      quotedMsg: e.quotedMsgId == null ? null : (quoted?.get(e.quotedMsgId) ?? null),
      reactions: reactions?.get(r.id) ?? ([] as MessageReactionDto[]),
      participantName: e.participantName,
      sendState: r.sendState,
      sendError: e.sendError,
      userId: r.userId,
      transcription: e.transcription,
      createdAt,
      updatedAt: r.updatedAt === r.createdAt ? createdAt : isoString(r.updatedAt),
    }
  }
  return out
}
