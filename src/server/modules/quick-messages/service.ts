/**
 * Quick messages (spec 2): reusable answers called up by a shortcode. A `geral` one is company-wide; any other
 * is personal to its owner. A user sees the company-wide ones and their own; an admin also reaches another
 * user's personal one by its id. Company-wide ones are the admins' to add, edit and delete; an attendant keeps
 * their personal ones. Only the owner or an admin edits or deletes. No user ever sees two quick
 * messages with one shortcode (case-insensitive). Changes are live (`company-{id}-quickmessage`): company-wide
 * ones to the company, personal ones only to their owner.
 */

import type { Database } from 'bun:sqlite'
import type { Paged, QuickMessageDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { ListQuickMessagesQuery, QuickMessageInput } from '../../../shared/schemas/quick-messages'
import { isoString } from '../../clock'
import type { Ctx, UserActor } from '../../context'
import { isAdminActor, transact, userActor } from '../../context'
import { listPage, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import { cleanFileName, removeStoredMedia, storeMedia } from '../../media/store'
import type { UploadedMedia } from '../../media/upload'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

export const QUICK_MESSAGES_PAGE_SIZE = 20
/** The message input's list: every usable quick message, bounded all the same. */
export const QUICK_MESSAGES_LIST_MAX = 1000

type RawQuickMessage = {
  id: number
  companyId: number
  userId: number | null
  shortcode: string
  message: string
  geral: number
  status: number
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  createdAt: number
  updatedAt: number
}

const COLUMNS = `q.id, q.company_id AS companyId, q.user_id AS userId, q.shortcode, q.message, q.geral, q.status,
  q.media_path AS mediaPath, q.media_name AS mediaName, q.media_mime AS mediaMime, q.created_at AS createdAt,
  q.updated_at AS updatedAt`

/** What a user may see: the company-wide ones and their own. */
const VISIBLE = `q.company_id = $companyId AND (q.geral = 1 OR q.user_id = $userId)`

const SEARCH = `($term IS NULL OR instr(lower(q.shortcode), lower($term)) > 0 OR instr(lower(q.message), lower($term)) > 0)`

type Deps = Pick<Ctx, 'secrets' | 'clock'>

export function toQuickMessageDto(deps: Deps, row: RawQuickMessage): QuickMessageDto {
  return {
    id: row.id,
    shortcode: row.shortcode,
    message: row.message,
    geral: row.geral === 1,
    status: row.status === 1,
    isMedia: !!row.mediaPath,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaMime: row.mediaMime,
    mediaUrl: row.mediaPath ? signedMediaUrl(deps, row.companyId, row.mediaPath) : null,
    userId: row.userId,
    companyId: row.companyId,
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

const notFound = () => new AppError('ERR_NO_QUICK_MESSAGE_FOUND', 'Quick message not found')

/**
 * The one way to load a quick message: another company's id, or another user's personal one (to a non-admin),
 * is simply not found.
 */
export function getQuickMessageRow(sqlite: Database, actor: UserActor, id: number): RawQuickMessage {
  const row = stmt<RawQuickMessage, [number, number]>(
    sqlite,
    `SELECT ${COLUMNS} FROM quick_messages q WHERE q.id = ? AND q.company_id = ?`,
  ).get(id, actor.companyId)
  if (!row) throw notFound()
  if (!row.geral && row.userId !== actor.userId && !isAdminActor(actor)) throw notFound()
  return row
}

/** Editing and deleting belong to the owner and to admins; a company-wide one to admins only. */
function assertMayChange(actor: UserActor, row: RawQuickMessage) {
  if (isAdminActor(actor)) return
  if (row.userId !== actor.userId)
    throw new AppError('ERR_NO_PERMISSION', 'Only its owner or an admin can change this quick message')
  if (row.geral) assertMayShare(actor, true)
}

/** Only an admin makes a quick message company-wide. */
function assertMayShare(actor: UserActor, geral: boolean) {
  if (geral && !isAdminActor(actor))
    throw new AppError('ERR_NO_PERMISSION', 'Only admins can share a quick message with the whole company', {
      field: 'geral',
    })
}

/**
 * No user may end up seeing two quick messages with one shortcode: a company-wide one must be unique in the
 * company; a personal one among the company-wide ones and its owner's.
 */
function assertShortcodeFree(
  sqlite: Database,
  companyId: number,
  candidate: { shortcode: string; geral: boolean; ownerId: number | null },
  exceptId = 0,
) {
  const clash = stmt<{ id: number }, [number, string, number, number, number | null]>(
    sqlite,
    `SELECT id FROM quick_messages WHERE company_id = ?1 AND lower(shortcode) = lower(?2) AND id <> ?3
      AND (?4 = 1 OR geral = 1 OR user_id = ?5) LIMIT 1`,
  ).get(companyId, candidate.shortcode, exceptId, candidate.geral ? 1 : 0, candidate.ownerId)
  if (clash)
    throw fieldError(
      'shortcode',
      'Another quick message already uses this shortcode',
      'ERR_QUICK_MESSAGE_SHORTCODE_EXISTS',
    )
}

/** Where a quick message's events go: the company for a company-wide one, its owner for a personal one. */
function roomOf(row: { companyId: number; geral: boolean | number; userId: number | null }): string | null {
  if (row.geral) return rooms.company(row.companyId)
  return row.userId ? rooms.user(row.companyId, row.userId) : null
}

function publishChange(
  events: EventBuffer,
  before: RawQuickMessage | null,
  record: QuickMessageDto,
  action: 'create' | 'update',
) {
  const name = channel(record.companyId, 'quickmessage')
  const was = before ? roomOf(before) : null
  const now = roomOf(record)
  // A company-wide one that became personal leaves everyone else's lists (its owner gets it back just after).
  if (was && was !== now) events.publish(was, name, { action: 'delete', id: record.id })
  if (now) events.publish(now, name, { action: was && was !== now ? 'update' : action, record })
}

type ListParams = { companyId: number; userId: number; term: string | null }

/** `GET /quick-messages`: the ones the user sees, 20 a page by shortcode, searched in shortcode and text. */
export function listQuickMessages(
  ctx: Ctx,
  query: ListQuickMessagesQuery,
): Paged<'records', QuickMessageDto> {
  const actor = userActor(ctx)
  const at = pageWindow(query.pageNumber, QUICK_MESSAGES_PAGE_SIZE)
  const params: ListParams = {
    companyId: actor.companyId,
    userId: actor.userId,
    term: query.searchParam?.trim() || null,
  }
  const page = listPage<RawQuickMessage, ListParams>(
    ctx.sqlite,
    {
      columns: COLUMNS,
      from: 'quick_messages q',
      where: `${VISIBLE} AND ${SEARCH}`,
      order: 'ORDER BY q.shortcode COLLATE NOCASE, q.id',
    },
    params,
    at,
  )
  return {
    records: page.rows.map((r) => toQuickMessageDto(ctx, r)),
    count: page.count,
    hasMore: page.hasMore,
  }
}

/** `GET /quick-messages/list`: what the message input offers: the active ones the user may use. */
export function listUsableQuickMessages(ctx: Ctx): QuickMessageDto[] {
  const actor = userActor(ctx)
  return stmt<RawQuickMessage, [{ companyId: number; userId: number; max: number }]>(
    ctx.sqlite,
    `SELECT ${COLUMNS} FROM quick_messages q WHERE ${VISIBLE} AND q.status = 1
      ORDER BY q.shortcode COLLATE NOCASE, q.id LIMIT $max`,
  )
    .all({ companyId: actor.companyId, userId: actor.userId, max: QUICK_MESSAGES_LIST_MAX })
    .map((r) => toQuickMessageDto(ctx, r))
}

export function getQuickMessage(ctx: Ctx, id: number): QuickMessageDto {
  return toQuickMessageDto(ctx, getQuickMessageRow(ctx.sqlite, userActor(ctx), id))
}

/** `POST /quick-messages`: the acting user owns it. New ones are active unless `status` says otherwise. */
export function createQuickMessage(ctx: Ctx, input: QuickMessageInput): QuickMessageDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const geral = input.geral ?? false
    assertMayShare(actor, geral)
    assertShortcodeFree(sqlite, actor.companyId, { shortcode: input.shortcode, geral, ownerId: actor.userId })
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, (string | number)[]>(
      sqlite,
      `INSERT INTO quick_messages (company_id, user_id, shortcode, message, geral, status, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      actor.companyId,
      actor.userId,
      input.shortcode,
      input.message ?? '',
      geral ? 1 : 0,
      (input.status ?? true) ? 1 : 0,
      now,
      now,
    )!
    const record = toQuickMessageDto(ctx, getQuickMessageRow(sqlite, actor, id))
    publishChange(events, null, record, 'create')
    return record
  })
}

/** `PUT /quick-messages/{id}`: fields left out keep their values; the owner stays who it was. */
export function updateQuickMessage(ctx: Ctx, id: number, input: QuickMessageInput): QuickMessageDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const current = getQuickMessageRow(sqlite, actor, id)
    assertMayChange(actor, current)
    const geral = input.geral ?? current.geral === 1
    assertMayShare(actor, geral)
    assertShortcodeFree(
      sqlite,
      actor.companyId,
      { shortcode: input.shortcode, geral, ownerId: current.userId },
      id,
    )
    stmt(
      sqlite,
      'UPDATE quick_messages SET shortcode = ?, message = ?, geral = ?, status = ?, updated_at = ? WHERE id = ?',
    ).run(
      input.shortcode,
      input.message ?? current.message,
      geral ? 1 : 0,
      (input.status ?? current.status === 1) ? 1 : 0,
      ctx.clock.now(),
      id,
    )
    const record = toQuickMessageDto(ctx, getQuickMessageRow(sqlite, actor, id))
    publishChange(events, current, record, 'update')
    return record
  })
}

function removeFile(ctx: Ctx, companyId: number, path: string | null) {
  removeStoredMedia(ctx, companyId, path, 'quick message media')
}

/** `DELETE /quick-messages/{id}`: the row, then (after commit) its attachment's file. */
export function deleteQuickMessage(ctx: Ctx, id: number): void {
  const actor = userActor(ctx)
  const gone = transact(ctx, (sqlite, events) => {
    const current = getQuickMessageRow(sqlite, actor, id)
    assertMayChange(actor, current)
    stmt(sqlite, 'DELETE FROM quick_messages WHERE id = ?').run(id)
    const room = roomOf(current)
    if (room)
      events.publish(room, channel(actor.companyId, 'quickmessage'), { action: 'delete', id: current.id })
    return current
  })
  removeFile(ctx, actor.companyId, gone.mediaPath)
}

/** Checks, before the file is read and stored, that the user may change this quick message. */
export function assertMayAttach(ctx: Ctx, id: number): void {
  const actor = userActor(ctx)
  assertMayChange(actor, getQuickMessageRow(ctx.sqlite, actor, id))
}

/**
 * `POST /quick-messages/{id}/media-upload`: stores the file (already checked against the allow-list and its
 * kind's limit), points the quick message at it, and removes the file it replaces.
 */
export function attachQuickMessageMedia(ctx: Ctx, id: number, upload: UploadedMedia): QuickMessageDto {
  const actor = userActor(ctx)
  assertMayAttach(ctx, id)
  const stored = storeMedia(ctx, actor.companyId, upload.bytes, {
    mime: upload.format.mime,
    ext: upload.format.ext,
  })
  let previous: string | null = null
  try {
    const record = transact(ctx, (sqlite, events) => {
      const current = getQuickMessageRow(sqlite, actor, id)
      assertMayChange(actor, current)
      previous = current.mediaPath
      stmt(
        sqlite,
        'UPDATE quick_messages SET media_path = ?, media_name = ?, media_mime = ?, updated_at = ? WHERE id = ?',
      ).run(
        stored.path,
        cleanFileName(upload.name, `file.${upload.format.ext}`),
        upload.sendMime,
        ctx.clock.now(),
        id,
      )
      const record = toQuickMessageDto(ctx, getQuickMessageRow(sqlite, actor, id))
      publishChange(events, current, record, 'update')
      return record
    })
    removeFile(ctx, actor.companyId, previous)
    return record
  } catch (err) {
    removeFile(ctx, actor.companyId, stored.path)
    throw err
  }
}

/** `DELETE /quick-messages/{id}/media-upload`: the quick message keeps its text and loses its attachment. */
export function removeQuickMessageMedia(ctx: Ctx, id: number): QuickMessageDto {
  const actor = userActor(ctx)
  let previous: string | null = null
  const record = transact(ctx, (sqlite, events) => {
    const current = getQuickMessageRow(sqlite, actor, id)
    assertMayChange(actor, current)
    previous = current.mediaPath
    stmt(
      sqlite,
      'UPDATE quick_messages SET media_path = NULL, media_name = NULL, media_mime = NULL, updated_at = ? WHERE id = ?',
    ).run(ctx.clock.now(), id)
    const record = toQuickMessageDto(ctx, getQuickMessageRow(sqlite, actor, id))
    publishChange(events, current, record, 'update')
    return record
  })
  removeFile(ctx, actor.companyId, previous)
  return record
}
