/**
 * Queue options: the chatbot menu tree of a queue (spec 2 "Queue option"). Admins edit it in the queue dialog;
 * the inbound chatbot reads the same rows (`queue_options`).
 *
 * Rules kept here:
 * - every option belongs to the actor's company and one queue; a parent must be an option of the same queue;
 * - `option` is the position the customer types, a whole number '1'…'999', unique among siblings; a new option
 *   takes the next free position; deleting an option removes its whole subtree and closes the gap (siblings
 *   become 1…n again); POST /queue-options/reorder sets a level's order at any depth;
 * - at most MAX_OPTIONS_PER_QUEUE options per queue and MAX_OPTION_DEPTH levels;
 * - one file per option, typed by its bytes (media allow-list); replaced or removed files are deleted after commit.
 */
import { unlinkSync } from 'node:fs'
import type { QueueOptionDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type {
  CreateQueueOptionInput,
  ReorderQueueOptionsInput,
  UpdateQueueOptionInput,
} from '../../../shared/schemas/queue-options'
import { isoTime } from '../../clock'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import type { QueueOptionRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import { cleanFileName, mediaFilePath, storeMedia } from '../../media/store'
import type { UploadedMedia } from '../../media/upload'
import { getQueueRowInCompany } from '../queues/service'

export const MAX_OPTIONS_PER_QUEUE = 500
export const MAX_OPTION_DEPTH = 10
const MAX_POSITION = 999

const notFound = () => new AppError('ERR_NO_QUEUE_OPTION_FOUND', 'Queue option not found')

/** The one way to load an option: another company's id is simply not found. */
const OPTION_COLUMNS = `id, company_id AS companyId, queue_id AS queueId, parent_id AS parentId, title, message,
  "option", media_path AS mediaPath, media_name AS mediaName, media_mime AS mediaMime, created_at AS createdAt,
  updated_at AS updatedAt`

export function getQueueOptionInCompany(db: Connection, companyId: number, optionId: number): QueueOptionRow {
  const row = stmt<QueueOptionRow, [number, number]>(
    sqliteOf(db),
    `SELECT ${OPTION_COLUMNS} FROM queue_options WHERE id = ? AND company_id = ?`,
  ).get(optionId, companyId)
  if (!row) throw notFound()
  return row
}

function optionsOfQueue(db: Connection, companyId: number, queueId: number): QueueOptionRow[] {
  return stmt<QueueOptionRow, [number, number]>(
    sqliteOf(db),
    `SELECT ${OPTION_COLUMNS} FROM queue_options WHERE queue_id = ? AND company_id = ?`,
  ).all(queueId, companyId)
}

const position = (row: QueueOptionRow) => Number(row.option) || Number.MAX_SAFE_INTEGER
const byPosition = (a: QueueOptionRow, b: QueueOptionRow) => position(a) - position(b) || a.id - b.id

function childrenOf(rows: QueueOptionRow[], parentId: number | null) {
  return rows.filter((r) => r.parentId === parentId).sort(byPosition)
}

/** The ids of `rootId` and everything below it. */
function subtreeIds(rows: QueueOptionRow[], rootId: number): number[] {
  const out = [rootId]
  for (let i = 0; i < out.length; i++) for (const r of rows) if (r.parentId === out[i]) out.push(r.id)
  return out
}

/** Levels above `row`: 1 at the top level. */
function depthOf(rows: QueueOptionRow[], row: QueueOptionRow): number {
  let depth = 1
  let parentId = row.parentId
  while (parentId != null && depth <= MAX_OPTION_DEPTH + 1) {
    const parent = rows.find((r) => r.id === parentId)
    if (!parent) break
    parentId = parent.parentId
    depth++
  }
  return depth
}

function toDto(ctx: Ctx, rows: QueueOptionRow[], row: QueueOptionRow): QueueOptionDto {
  return {
    id: row.id,
    queueId: row.queueId,
    parentId: row.parentId ?? -1,
    title: row.title,
    message: row.message,
    option: row.option,
    mediaName: row.mediaPath ? row.mediaName : null,
    mediaMime: row.mediaPath ? row.mediaMime : null,
    mediaUrl: row.mediaPath ? signedMediaUrl(ctx, row.companyId, row.mediaPath) : null,
    children: childrenOf(rows, row.id).map((child) => toDto(ctx, rows, child)),
    createdAt: isoTime(row.createdAt)!,
    updatedAt: isoTime(row.updatedAt)!,
  }
}

/** A parent given as -1 or null is the top level; another id must be an option of the same queue. */
function resolveParent(
  db: Connection,
  companyId: number,
  queueId: number,
  parentId: number | null | undefined,
): QueueOptionRow | null {
  if (parentId == null || parentId === -1) return null
  const parent = getQueueOptionInCompany(db, companyId, parentId)
  if (parent.queueId !== queueId) throw fieldError('parentId', 'The parent option belongs to another queue')
  return parent
}

/** GET /queue-options?queueId=&parentId=: the options under a parent (-1: top level), each with its subtree. */
export function listQueueOptions(ctx: Ctx, query: { queueId: number; parentId?: number }): QueueOptionDto[] {
  const { companyId } = ctx.actor
  getQueueRowInCompany(ctx.sqlite, companyId, query.queueId)
  const parent = resolveParent(ctx.sqlite, companyId, query.queueId, query.parentId)
  const rows = optionsOfQueue(ctx.sqlite, companyId, query.queueId)
  return childrenOf(rows, parent?.id ?? null).map((r) => toDto(ctx, rows, r))
}

export function getQueueOption(ctx: Ctx, optionId: number): QueueOptionDto {
  const row = getQueueOptionInCompany(ctx.sqlite, ctx.actor.companyId, optionId)
  return toDto(ctx, optionsOfQueue(ctx.sqlite, row.companyId, row.queueId), row)
}

function assertFreePosition(siblings: QueueOptionRow[], option: string, exceptId?: number) {
  if (siblings.some((s) => s.id !== exceptId && Number(s.option) === Number(option))) {
    throw fieldError('option', 'Another option at this level already has this position')
  }
}

export function createQueueOption(ctx: Ctx, input: CreateQueueOptionInput): QueueOptionDto {
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite) => {
    getQueueRowInCompany(sqlite, companyId, input.queueId)
    const parent = resolveParent(sqlite, companyId, input.queueId, input.parentId)
    const rows = optionsOfQueue(sqlite, companyId, input.queueId)
    if (rows.length >= MAX_OPTIONS_PER_QUEUE) {
      throw fieldError('queueId', `A queue holds at most ${MAX_OPTIONS_PER_QUEUE} options`)
    }
    if (parent && depthOf(rows, parent) >= MAX_OPTION_DEPTH) {
      throw fieldError('parentId', `A menu goes at most ${MAX_OPTION_DEPTH} levels deep`)
    }
    const siblings = childrenOf(rows, parent?.id ?? null)
    let option = input.option ?? null
    if (option === null) {
      const next = siblings.reduce((n, s) => Math.max(n, Number(s.option) || 0), 0) + 1
      if (next > MAX_POSITION) throw fieldError('option', 'No free position at this level')
      option = String(next)
    } else {
      option = String(Number(option))
      assertFreePosition(siblings, option)
    }
    const now = ctx.clock.now()
    const row = stmt<QueueOptionRow, [number, number, number | null, string, string, string, number, number]>(
      sqlite,
      `INSERT INTO queue_options (company_id, queue_id, parent_id, title, message, "option", created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${OPTION_COLUMNS}`,
    ).get(companyId, input.queueId, parent?.id ?? null, input.title, input.message ?? '', option, now, now)!
    return toDto(ctx, [...rows, row], row)
  })
}

export function updateQueueOption(ctx: Ctx, optionId: number, input: UpdateQueueOptionInput): QueueOptionDto {
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite) => {
    const current = getQueueOptionInCompany(sqlite, companyId, optionId)
    const rows = optionsOfQueue(sqlite, companyId, current.queueId)
    const option = input.option === undefined ? undefined : String(Number(input.option))
    if (option !== undefined) assertFreePosition(childrenOf(rows, current.parentId), option, optionId)
    const set: [string, string][] = [
      ...(input.title === undefined ? [] : [['title', input.title] as [string, string]]),
      ...(input.message === undefined ? [] : [['message', input.message ?? ''] as [string, string]]),
      ...(option === undefined ? [] : [['"option"', option] as [string, string]]),
    ]
    const row = stmt<QueueOptionRow, (string | number)[]>(
      sqlite,
      `UPDATE queue_options SET ${set.map(([column]) => `${column} = ?, `).join('')}updated_at = ? WHERE id = ?
       RETURNING ${OPTION_COLUMNS}`,
    ).get(...set.map(([, value]) => value), ctx.clock.now(), optionId)!
    return toDto(
      ctx,
      rows.map((r) => (r.id === row.id ? row : r)),
      row,
    )
  })
}

/** Gives a level's options the positions 1…n in the given order. */
function renumber(db: Connection, ordered: QueueOptionRow[], now: number) {
  const update = stmt<unknown, [string, number, number]>(
    sqliteOf(db),
    'UPDATE queue_options SET "option" = ?, updated_at = ? WHERE id = ?',
  )
  ordered.forEach((r, i) => {
    const option = String(i + 1)
    if (r.option !== option) update.run(option, now, r.id)
  })
}

function removeFiles(ctx: Ctx, companyId: number, paths: (string | null)[]) {
  for (const p of paths) {
    const file = p ? mediaFilePath(ctx, companyId, p) : null
    try {
      if (file) unlinkSync(file)
    } catch {}
  }
}

/** DELETE /queue-options/{id}: the option and its whole subtree; the remaining siblings close the gap. */
export function deleteQueueOption(ctx: Ctx, optionId: number): { deleted: number } {
  const { companyId } = ctx.actor
  const { ids, files } = transact(ctx, (sqlite) => {
    const current = getQueueOptionInCompany(sqlite, companyId, optionId)
    const rows = optionsOfQueue(sqlite, companyId, current.queueId)
    const ids = subtreeIds(rows, optionId)
    const files = rows.filter((r) => ids.includes(r.id)).map((r) => r.mediaPath)
    stmt<unknown, [string]>(
      sqlite,
      'DELETE FROM queue_options WHERE id IN (SELECT value FROM json_each(?))',
    ).run(JSON.stringify(ids))
    const remaining = childrenOf(rows, current.parentId).filter((r) => r.id !== optionId)
    renumber(sqlite, remaining, ctx.clock.now())
    return { ids, files }
  })
  removeFiles(ctx, companyId, files)
  return { deleted: ids.length }
}

/** POST /queue-options/reorder: `ids` must be exactly the options of that level, in their new order. */
export function reorderQueueOptions(ctx: Ctx, input: ReorderQueueOptionsInput): QueueOptionDto[] {
  const { companyId } = ctx.actor
  return transact(ctx, (tx) => {
    getQueueRowInCompany(tx, companyId, input.queueId)
    const parent = resolveParent(tx, companyId, input.queueId, input.parentId)
    const rows = optionsOfQueue(tx, companyId, input.queueId)
    const siblings = childrenOf(rows, parent?.id ?? null)
    const given = new Set(input.ids)
    if (
      given.size !== input.ids.length ||
      given.size !== siblings.length ||
      siblings.some((s) => !given.has(s.id))
    ) {
      throw fieldError('ids', 'must list every option of this level exactly once')
    }
    const byId = new Map(siblings.map((s) => [s.id, s]))
    renumber(
      tx,
      input.ids.map((id) => byId.get(id)!),
      ctx.clock.now(),
    )
    const fresh = optionsOfQueue(tx, companyId, input.queueId)
    return childrenOf(fresh, parent?.id ?? null).map((r) => toDto(ctx, fresh, r))
  })
}

/** POST /queue-options/{id}/media-upload: stores the file and replaces the option's previous one. */
export function setQueueOptionMedia(ctx: Ctx, optionId: number, media: UploadedMedia): QueueOptionDto {
  const { companyId } = ctx.actor
  // Checked before the file is written, and again in the transaction (the option may go meanwhile).
  getQueueOptionInCompany(ctx.sqlite, companyId, optionId)
  const stored = storeMedia(ctx, companyId, media.bytes, {
    mime: media.format.mime,
    name: media.name,
    ext: media.format.ext,
  })
  let previous: string | null = null
  try {
    const dto = transact(ctx, (sqlite) => {
      const current = getQueueOptionInCompany(sqlite, companyId, optionId)
      previous = current.mediaPath
      const row = stmt<QueueOptionRow, [string, string, string, number, number]>(
        sqlite,
        `UPDATE queue_options SET media_path = ?, media_name = ?, media_mime = ?, updated_at = ? WHERE id = ?
         RETURNING ${OPTION_COLUMNS}`,
      ).get(
        stored.path,
        cleanFileName(media.name, `file.${media.format.ext}`),
        media.sendMime,
        ctx.clock.now(),
        optionId,
      )!
      return toDto(ctx, optionsOfQueue(sqlite, companyId, row.queueId), row)
    })
    removeFiles(ctx, companyId, [previous])
    return dto
  } catch (err) {
    removeFiles(ctx, companyId, [stored.path])
    throw err
  }
}

/** DELETE /queue-options/{id}/media-upload: removes the option's file (nothing to do when it has none). */
export function clearQueueOptionMedia(ctx: Ctx, optionId: number): QueueOptionDto {
  const { companyId } = ctx.actor
  let previous: string | null = null
  const dto = transact(ctx, (sqlite) => {
    const current = getQueueOptionInCompany(sqlite, companyId, optionId)
    previous = current.mediaPath
    if (previous) {
      stmt<unknown, [number, number]>(
        sqlite,
        'UPDATE queue_options SET media_path = NULL, media_name = NULL, media_mime = NULL, updated_at = ? WHERE id = ?',
      ).run(ctx.clock.now(), optionId)
    }
    const row = getQueueOptionInCompany(sqlite, companyId, optionId)
    return toDto(ctx, optionsOfQueue(sqlite, companyId, row.queueId), row)
  })
  removeFiles(ctx, companyId, [previous])
  return dto
}
