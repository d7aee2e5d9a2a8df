/**
 * The hot path of `GET /messages/{ticketId}` (a conversation opened, or reloaded, many times a minute): the
 * ticket, the reader's right to see it and one page of messages, read with as few statements, columns and
 * objects as give the same answer as the general loaders (tickets/dto.ts `loadTicketDtos`, dto.ts
 * `toMessageDto`); the tests in page.test.ts compare them.
 *
 * On this SQLite build a JOIN of a few single-row lookups costs several times the same lookups as correlated
 * scalar subqueries, and every column read costs per row, so:
 * - the ticket comes with its user, queue and connection names as subqueries, its contact in one more primary
 *   key lookup, and its tags only when it has some;
 * - a message's rarely-set columns (media, edits, quote, participant, error, and its company or contact when
 *   they differ from the ticket's) come packed in one `extra` JSON column that is NULL for most messages;
 * - reactions are read only when some message of the page has one.
 */
import type { Database } from 'bun:sqlite'
import type { MessageDto, MessageReactionDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { isoString } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import type { NumberVisibility } from '../contacts/mask'
import { type ActorScope, actorScope, canSeeTicket } from '../tickets/access'
import { FLAG, loadQuoted, loadReactions, parseOldMessages } from './dto'

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

/** A message as the page reads it; see EXTRA for `extra`. */
export type PageRow = {
  id: number
  wid: string | null
  body: string
  /** FLAG's bits, and the ack from bit 8 on. */
  flags: number
  mediaType: string
  mediaState: MessageDto['mediaState']
  sendState: MessageDto['sendState']
  userId: number | null
  createdAt: number
  updatedAt: number
  extra: string | null
}

/**
 * The rarely-set columns, as a JSON array in this order, or NULL when all of them are NULL and the message's
 * company and contact are the ticket's (?2, ?3).
 */
const EXTRA = `CASE WHEN m.media_path IS NULL AND m.media_name IS NULL AND m.media_mime IS NULL
    AND m.media_size IS NULL AND m.old_messages IS NULL AND m.quoted_msg_id IS NULL
    AND m.participant_name IS NULL AND m.send_error IS NULL AND m.company_id = ?2 AND m.contact_id IS ?3
  THEN NULL ELSE json_array(m.media_path, m.media_name, m.media_mime, m.media_size, m.old_messages,
    m.quoted_msg_id, m.participant_name, m.send_error, m.company_id, m.contact_id) END`

type Extra = [
  mediaPath: string | null,
  mediaName: string | null,
  mediaMime: string | null,
  mediaSize: number | null,
  oldMessages: string | null,
  quotedMsgId: number | null,
  participantName: string | null,
  sendError: string | null,
  companyId: number,
  contactId: number | null,
]

const PAGE_SQL = `SELECT m.id, m.wid, m.body,
  (m.from_me | (m.read << 1) | (m.ptt << 2) | (m.is_deleted << 3) | (m.is_edited << 4) | (m.is_private << 5)
    | (CASE WHEN m.ack >= 4 THEN 4 WHEN m.ack > 0 THEN m.ack ELSE 0 END << 8)) AS flags,
  m.media_type AS mediaType, m.media_state AS mediaState, m.send_state AS sendState, m.user_id AS userId,
  m.created_at AS createdAt, m.updated_at AS updatedAt, ${EXTRA} AS extra
 FROM messages m WHERE m.ticket_id = ?1 ORDER BY m.created_at DESC, m.id DESC LIMIT ?4 OFFSET ?5`

/** Rows of one page of the ticket's messages, newest first (LIMIT `limit`, from `offset`). */
export function pageRows(
  sqlite: Database,
  ticket: { id: number; companyId: number; contactId: number },
  limit: number,
  offset: number,
): PageRow[] {
  return stmt<PageRow, [number, number, number, number, number]>(sqlite, PAGE_SQL).all(
    ticket.id,
    ticket.companyId,
    ticket.contactId,
    limit,
    offset,
  )
}

const NO_EXTRA: Extra = [null, null, null, null, null, null, null, null, 0, null]

const REACTIONS_PROBE_SQL = `SELECT EXISTS (SELECT 1 FROM message_reactions
  WHERE message_id BETWEEN ? AND ? AND emoji <> '') AS any`

/**
 * The rows as `toMessageDto` shows them (with quotes, reactions and signed media links), for the ticket the
 * page was read from.
 */
export function pageDtos(
  deps: Pick<Deps, 'sqlite' | 'secrets' | 'clock'>,
  ticket: { id: number; companyId: number; contactId: number },
  rows: PageRow[],
): MessageDto[] {
  if (!rows.length) return []
  const extras = rows.map((r) => (r.extra ? (JSON.parse(r.extra) as Extra) : null))
  let low = rows[0]!.id
  let high = low
  for (const r of rows) {
    if (r.id < low) low = r.id
    if (r.id > high) high = r.id
  }
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
  const quotedIds = extras.map((e) => e?.[5] ?? null)
  const quoted = quotedIds.some((id) => id != null)
    ? loadQuoted(deps, extras[0] ? extras[0][8] : ticket.companyId, quotedIds)
    : null
  const out: MessageDto[] = new Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    const e = extras[i] ?? NO_EXTRA
    const companyId = extras[i] ? e[8] : ticket.companyId
    const f = r.flags
    const createdAt = isoString(r.createdAt)
    out[i] = {
      id: r.id,
      wid: r.wid,
      ticketId: ticket.id,
      contactId: extras[i] ? e[9] : ticket.contactId,
      companyId,
      body: r.body,
      fromMe: (f & FLAG.fromMe) !== 0,
      ack: (f >> 8) as MessageDto['ack'],
      read: (f & FLAG.read) !== 0,
      mediaType: r.mediaType,
      mediaUrl: e[0] && r.mediaState === 'stored' ? signedMediaUrl(deps, companyId, e[0]) : null,
      mediaName: e[1],
      mediaMime: e[2],
      mediaSize: e[3],
      mediaState: r.mediaState,
      ptt: (f & FLAG.ptt) !== 0,
      isDeleted: (f & FLAG.isDeleted) !== 0,
      isEdited: (f & FLAG.isEdited) !== 0,
      isPrivate: (f & FLAG.isPrivate) !== 0,
      oldMessages: e[4]
        ? parseOldMessages(e[4]).map((o) => ({ body: o.body, createdAt: isoString(o.createdAt) }))
        : [],
      quotedMsgId: e[5],
      quotedMsg: e[5] == null ? null : (quoted?.get(e[5]) ?? null),
      reactions: reactions?.get(r.id) ?? ([] as MessageReactionDto[]),
      participantName: e[6],
      sendState: r.sendState,
      sendError: e[7],
      userId: r.userId,
      createdAt,
      updatedAt: r.updatedAt === r.createdAt ? createdAt : isoString(r.updatedAt),
    }
  }
  return out
}
