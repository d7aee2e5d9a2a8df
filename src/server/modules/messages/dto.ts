import type { MessageAck, MessageDto, MessageReactionDto, QuotedMessageDto } from '../../../shared/api'
import { maskName } from '../../access/mask'
import { isoTime } from '../../clock'
import type { Deps } from '../../context'
import { signedMediaUrl } from '../../media/sign'

/**
 * The columns of a message as its DTO needs them: few and cheap (the booleans packed into `flags`, see
 * FLAG), since reading a column costs on the conversation's hot path. `m` is the message.
 */
export const MESSAGE_COLUMNS = `m.id, m.wid, m.ticket_id AS ticketId, m.contact_id AS contactId, m.company_id AS companyId,
  m.body, (m.from_me | (m.read << 1) | (m.ptt << 2) | (m.is_deleted << 3) | (m.is_edited << 4) | (m.is_private << 5)) AS flags,
  m.ack, m.media_type AS mediaType, m.media_state AS mediaState, m.media_path AS mediaPath, m.media_name AS mediaName,
  m.media_mime AS mediaMime, m.media_size AS mediaSize, m.old_messages AS oldMessages, m.quoted_msg_id AS quotedMsgId,
  m.participant_name AS participantName, m.send_state AS sendState, m.send_error AS sendError, m.user_id AS userId, m.transcription,
  m.created_at AS createdAt, m.updated_at AS updatedAt`

export const MESSAGE_SELECT = `SELECT ${MESSAGE_COLUMNS} FROM messages m`

/** The bits of `flags`. */
export const FLAG = { fromMe: 1, read: 2, ptt: 4, isDeleted: 8, isEdited: 16, isPrivate: 32 } as const

export type MessageSqlRow = {
  id: number
  wid: string | null
  ticketId: number
  contactId: number | null
  companyId: number
  body: string
  flags: number
  ack: number
  mediaType: string
  mediaState: MessageDto['mediaState']
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  mediaSize: number | null
  oldMessages: string | null
  quotedMsgId: number | null
  participantName: string | null
  sendState: MessageDto['sendState']
  sendError: string | null
  userId: number | null
  transcription: string | null
  createdAt: number
  updatedAt: number
}

export type OldMessage = { body: string; createdAt: number }

/**
 * The edit history kept in `old_messages`: JSON `[{ body, createdAt }]`, oldest first, createdAt in epoch ms
 * (an ISO string is read too). Unreadable text counts as no history.
 */
export function parseOldMessages(text: string | null): OldMessage[] {
  if (!text) return []
  try {
    const list = JSON.parse(text) as unknown
    if (!Array.isArray(list)) return []
    return list.flatMap((e) => {
      if (!e || typeof e.body !== 'string') return []
      const at = typeof e.createdAt === 'number' ? e.createdAt : Date.parse(e.createdAt)
      return Number.isFinite(at) ? [{ body: e.body, createdAt: at }] : []
    })
  } catch {
    return []
  }
}

/** The history with one more earlier body: what an edit (ours, or the customer's arriving) stores. */
export function appendOldMessage(text: string | null, body: string, createdAt: number): string {
  return JSON.stringify([...parseOldMessages(text), { body, createdAt }])
}

export const clampAck = (ack: number): MessageAck => (ack <= 0 ? 0 : ack >= 4 ? 4 : (ack as MessageAck))

export function toMessageDto(
  deps: Pick<Deps, 'secrets' | 'clock'>,
  r: MessageSqlRow,
  reactions: MessageReactionDto[] = [],
  quoted: QuotedMessageDto | null = null,
): MessageDto {
  const f = r.flags
  return {
    id: r.id,
    wid: r.wid,
    ticketId: r.ticketId,
    contactId: r.contactId,
    companyId: r.companyId,
    body: r.body,
    fromMe: (f & FLAG.fromMe) !== 0,
    ack: clampAck(r.ack),
    read: (f & FLAG.read) !== 0,
    mediaType: r.mediaType,
    mediaUrl:
      r.mediaPath && r.mediaState === 'stored' ? signedMediaUrl(deps, r.companyId, r.mediaPath) : null,
    mediaName: r.mediaName,
    mediaMime: r.mediaMime,
    mediaSize: r.mediaSize,
    mediaState: r.mediaState,
    ptt: (f & FLAG.ptt) !== 0,
    isDeleted: (f & FLAG.isDeleted) !== 0,
    isEdited: (f & FLAG.isEdited) !== 0,
    isPrivate: (f & FLAG.isPrivate) !== 0,
    oldMessages: r.oldMessages
      ? parseOldMessages(r.oldMessages).map((o) => ({ body: o.body, createdAt: isoTime(o.createdAt)! }))
      : [],
    quotedMsgId: r.quotedMsgId,
    quotedMsg: quoted,
    reactions,
    participantName: r.participantName,
    sendState: r.sendState,
    sendError: r.sendError,
    userId: r.userId,
    transcription: r.transcription ?? null,
    createdAt: isoTime(r.createdAt)!,
    updatedAt: isoTime(r.updatedAt)!,
  }
}

type QuotedRow = {
  id: number
  body: string
  fromMe: number
  mediaType: string
  isDeleted: number
  participantName: string | null
  contactName: string | null
  contactNumber: string | null
}

/** The messages some messages quote, one query for all of them (only when one of them quotes). */
export function loadQuoted(
  deps: Pick<Deps, 'sqlite'>,
  companyId: number,
  ids: (number | null)[],
): Map<number, QuotedMessageDto> {
  const out = new Map<number, QuotedMessageDto>()
  const wanted = [...new Set(ids.filter((id): id is number => id != null))]
  if (!wanted.length) return out
  const rows = deps.sqlite
    .query<QuotedRow, [string, number]>(
      `SELECT q.id, q.body, q.from_me AS fromMe, q.media_type AS mediaType, q.is_deleted AS isDeleted,
              q.participant_name AS participantName, c.name AS contactName, c.number AS contactNumber
         FROM messages q LEFT JOIN contacts c ON c.id = q.contact_id
        WHERE q.id IN (SELECT value FROM json_each(?)) AND q.company_id = ?`,
    )
    .all(JSON.stringify(wanted), companyId)
  for (const q of rows)
    out.set(q.id, {
      id: q.id,
      body: q.body,
      fromMe: !!q.fromMe,
      mediaType: q.mediaType,
      isDeleted: !!q.isDeleted,
      participantName: q.participantName,
      // Messages are the same for every reader: a name that is the number is masked for all (contacts/mask.ts).
      contactName:
        q.fromMe || q.contactName == null ? null : maskName(q.contactName, q.contactNumber, 'disabled'),
    })
  return out
}

type ReactionRow = { messageId: number; sender: string; senderName: string | null; emoji: string }

/** The reactions of some messages, one query for all of them, each list in the order they were made. */
export function loadReactions(deps: Pick<Deps, 'sqlite'>, ids: number[]): Map<number, MessageReactionDto[]> {
  const out = new Map<number, MessageReactionDto[]>()
  if (!ids.length) return out
  const rows = deps.sqlite
    .query<ReactionRow, [string]>(
      `SELECT message_id AS messageId, sender, sender_name AS senderName, emoji
         FROM message_reactions
        WHERE message_id IN (SELECT value FROM json_each(?)) AND emoji <> ''
        ORDER BY created_at, id`,
    )
    .all(JSON.stringify(ids))
  for (const r of rows) {
    const list = out.get(r.messageId)
    const dto = { emoji: r.emoji, fromMe: r.sender === 'me', senderName: r.senderName }
    if (list) list.push(dto)
    else out.set(r.messageId, [dto])
  }
  return out
}

/** Message rows as the API shows them, from rows already read (a page): quotes and reactions batched. */
export function messageDtosOf(deps: Pick<Deps, 'sqlite' | 'secrets' | 'clock'>, rows: MessageSqlRow[]) {
  if (!rows.length) return []
  const reactions = loadReactions(
    deps,
    rows.map((r) => r.id),
  )
  const quoted = loadQuoted(
    deps,
    rows[0]!.companyId,
    rows.map((r) => r.quotedMsgId),
  )
  return rows.map((r) =>
    toMessageDto(
      deps,
      r,
      reactions.get(r.id),
      r.quotedMsgId == null ? null : (quoted.get(r.quotedMsgId) ?? null),
    ),
  )
}

/** Reads message rows by id (in the order given; missing ids are left out). */
export function loadMessageRows(deps: Pick<Deps, 'sqlite'>, ids: number[]): MessageSqlRow[] {
  if (!ids.length) return []
  const rows = deps.sqlite
    .query<MessageSqlRow, [string]>(`${MESSAGE_SELECT} WHERE m.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/**
 * Messages as the API and live events show them: with the quoted message, reactions and a signed media link.
 * No company check: callers pass ids they have read within the actor's company.
 */
export function loadMessageDtos(
  deps: Pick<Deps, 'sqlite' | 'secrets' | 'clock'>,
  ids: number[],
): MessageDto[] {
  return messageDtosOf(deps, loadMessageRows(deps, ids))
}
