/**
 * File lists (spec 3, "Files screen"): a name, a message and options, each option with a name and an optional
 * attached file (stored under the company's media folder, served through signed links). Campaigns and queues
 * pick one. Every user of the company reads them; admins change them (the routes say so). Changes are live to
 * the company (`company-{id}-file`). Deleting a list, an option or an attachment removes its stored file after
 * the commit.
 */

import type { Database } from 'bun:sqlite'
import type { Paged } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import type { FileListDto, FileOptionDto } from '../../../shared/files'
import type { CompanyEvents } from '../../../shared/live'
import type { FileListInput } from '../../../shared/schemas/files'
import { isoString } from '../../clock'
import type { Ctx } from '../../context'
import { transact, userActor } from '../../context'
import { listPage, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import { cleanFileName, removeStoredMedia, storeMedia } from '../../media/store'
import type { UploadedMedia } from '../../media/upload'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

export const FILES_PAGE_SIZE = 20
/** `GET /files/list`: every list of the company, bounded all the same. */
export const FILES_LIST_MAX = 500

type RawFile = {
  id: number
  companyId: number
  name: string
  message: string
  createdAt: number
  updatedAt: number
}
type RawOption = {
  id: number
  fileId: number
  name: string
  path: string | null
  mediaType: string | null
  mediaName: string | null
}

const FILE_COLUMNS = `f.id, f.company_id AS companyId, f.name, f.message, f.created_at AS createdAt,
  f.updated_at AS updatedAt`
const OPTION_COLUMNS = `o.id, o.file_id AS fileId, o.name, o.path, o.media_type AS mediaType,
  o.media_name AS mediaName`

const SEARCH = `($term IS NULL OR instr(lower(f.name), lower($term)) > 0)`

type Deps = Pick<Ctx, 'secrets' | 'clock'>

const notFound = () => new AppError('ERR_NO_FILE_FOUND', 'File list not found')

function toOptionDto(deps: Deps, companyId: number, row: RawOption): FileOptionDto {
  return {
    id: row.id,
    fileId: row.fileId,
    name: row.name,
    path: row.path,
    mediaType: row.mediaType,
    mediaName: row.mediaName,
    mediaUrl: row.path ? signedMediaUrl(deps, companyId, row.path) : null,
  }
}

function optionsOf(sqlite: Database, fileId: number): RawOption[] {
  return stmt<RawOption, [number]>(
    sqlite,
    `SELECT ${OPTION_COLUMNS} FROM file_options o WHERE o.file_id = ? ORDER BY o.id`,
  ).all(fileId)
}

/** The options of several lists in one read, by list id. */
function optionsByFile(sqlite: Database, fileIds: number[]): Map<number, RawOption[]> {
  const out = new Map<number, RawOption[]>()
  if (!fileIds.length) return out
  const rows = stmt<RawOption, [string]>(
    sqlite,
    `SELECT ${OPTION_COLUMNS} FROM file_options o WHERE o.file_id IN (SELECT value FROM json_each(?))
      ORDER BY o.file_id, o.id`,
  ).all(JSON.stringify(fileIds))
  for (const row of rows) {
    const list = out.get(row.fileId)
    if (list) list.push(row)
    else out.set(row.fileId, [row])
  }
  return out
}

function toDto(deps: Deps, row: RawFile, options: RawOption[]): FileListDto {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    message: row.message,
    options: options.map((o) => toOptionDto(deps, row.companyId, o)),
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

/** The one way to load a list: another company's id is simply not found. */
export function getFileRow(sqlite: Database, companyId: number, id: number): RawFile {
  const row = stmt<RawFile, [number, number]>(
    sqlite,
    `SELECT ${FILE_COLUMNS} FROM files f WHERE f.id = ? AND f.company_id = ?`,
  ).get(id, companyId)
  if (!row) throw notFound()
  return row
}

function loadDto(deps: Deps, sqlite: Database, companyId: number, id: number): FileListDto {
  return toDto(deps, getFileRow(sqlite, companyId, id), optionsOf(sqlite, id))
}

function removeStored(ctx: Ctx, companyId: number, paths: (string | null)[]) {
  for (const path of paths) removeStoredMedia(ctx, companyId, path, 'file list attachment')
}

function publish(events: EventBuffer, companyId: number, data: CompanyEvents['file']) {
  events.publish(rooms.company(companyId), channel(companyId, 'file'), data)
}

type ListParams = { companyId: number; term: string | null }

/** `GET /files/`: the company's lists, 20 a page by name, searched in the name. */
export function listFiles(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'files', FileListDto> {
  const actor = userActor(ctx)
  const at = pageWindow(query.pageNumber, FILES_PAGE_SIZE)
  const params: ListParams = { companyId: actor.companyId, term: query.searchParam?.trim() || null }
  const page = listPage<RawFile, ListParams>(
    ctx.sqlite,
    {
      columns: FILE_COLUMNS,
      from: 'files f',
      where: `f.company_id = $companyId AND ${SEARCH}`,
      order: 'ORDER BY f.name COLLATE NOCASE, f.id',
    },
    params,
    at,
  )
  const options = optionsByFile(
    ctx.sqlite,
    page.rows.map((r) => r.id),
  )
  return {
    files: page.rows.map((r) => toDto(ctx, r, options.get(r.id) ?? [])),
    count: page.count,
    hasMore: page.hasMore,
  }
}

/** `GET /files/list`: every list of the company (for the campaign and queue pickers), by name. */
export function listAllFiles(ctx: Ctx): FileListDto[] {
  const actor = userActor(ctx)
  const rows = stmt<RawFile, [number, number]>(
    ctx.sqlite,
    `SELECT ${FILE_COLUMNS} FROM files f WHERE f.company_id = ? ORDER BY f.name COLLATE NOCASE, f.id LIMIT ?`,
  ).all(actor.companyId, FILES_LIST_MAX)
  const options = optionsByFile(
    ctx.sqlite,
    rows.map((r) => r.id),
  )
  return rows.map((r) => toDto(ctx, r, options.get(r.id) ?? []))
}

export function getFile(ctx: Ctx, id: number): FileListDto {
  return loadDto(ctx, ctx.sqlite, userActor(ctx).companyId, id)
}

/** `POST /files`: the list and its options (an option `id` means nothing on a new list: it is a new option). */
export function createFile(ctx: Ctx, input: FileListInput): FileListDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, [number, string, string, number, number]>(
      sqlite,
      'INSERT INTO files (company_id, name, message, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
    ).get(actor.companyId, input.name, input.message ?? '', now, now)!
    for (const option of input.options ?? []) insertOption(sqlite, id, option.name, now)
    const fileList = loadDto(ctx, sqlite, actor.companyId, id)
    publish(events, actor.companyId, { action: 'create', fileList })
    return fileList
  })
}

function insertOption(sqlite: Database, fileId: number, name: string, now: number) {
  stmt(sqlite, 'INSERT INTO file_options (file_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
    fileId,
    name,
    now,
    now,
  )
}

const optionError = (index: number, message: string) =>
  new AppError('ERR_VALIDATION', message, undefined, [{ field: `options.${index}.id`, message }])

/**
 * `PUT /files/{id}`: name and message (left out: kept), and the options: one with an `id` of this list is
 * kept (renamed; `removeAttachment` drops its file), one without is added, and the list's options left out
 * are deleted with their files. With no `options` at all, the options stay as they are.
 */
export function updateFile(ctx: Ctx, id: number, input: FileListInput): FileListDto {
  const actor = userActor(ctx)
  const gonePaths: (string | null)[] = []
  const fileList = transact(ctx, (sqlite, events) => {
    const current = getFileRow(sqlite, actor.companyId, id)
    const now = ctx.clock.now()
    stmt(sqlite, 'UPDATE files SET name = ?, message = ?, updated_at = ? WHERE id = ?').run(
      input.name,
      input.message ?? current.message,
      now,
      id,
    )
    if (input.options) {
      const existing = new Map(optionsOf(sqlite, id).map((o) => [o.id, o]))
      const kept = new Set<number>()
      input.options.forEach((option, index) => {
        if (option.id === undefined) return
        const before = existing.get(option.id)
        if (!before) throw optionError(index, 'is not an option of this file list')
        if (kept.has(option.id)) throw optionError(index, 'names an option twice')
        kept.add(option.id)
      })
      for (const [optionId, before] of existing)
        if (!kept.has(optionId)) {
          stmt(sqlite, 'DELETE FROM file_options WHERE id = ?').run(optionId)
          gonePaths.push(before.path)
        }
      for (const option of input.options) {
        if (option.id === undefined) {
          insertOption(sqlite, id, option.name, now)
          continue
        }
        const before = existing.get(option.id)!
        if (option.removeAttachment && before.path) {
          gonePaths.push(before.path)
          stmt(
            sqlite,
            `UPDATE file_options SET name = ?, path = NULL, media_type = NULL, media_name = NULL, updated_at = ?
              WHERE id = ?`,
          ).run(option.name, now, option.id)
        } else
          stmt(sqlite, 'UPDATE file_options SET name = ?, updated_at = ? WHERE id = ?').run(
            option.name,
            now,
            option.id,
          )
      }
    }
    const fileList = loadDto(ctx, sqlite, actor.companyId, id)
    publish(events, actor.companyId, { action: 'update', fileList })
    return fileList
  })
  removeStored(ctx, actor.companyId, gonePaths)
  return fileList
}

/** `DELETE /files/{id}`: the list and its options, then (after commit) their files. */
export function deleteFile(ctx: Ctx, id: number): void {
  const actor = userActor(ctx)
  const paths = transact(ctx, (sqlite, events) => {
    getFileRow(sqlite, actor.companyId, id)
    const paths = optionsOf(sqlite, id).map((o) => o.path)
    stmt(sqlite, 'DELETE FROM file_options WHERE file_id = ?').run(id)
    stmt(sqlite, 'DELETE FROM files WHERE id = ?').run(id)
    publish(events, actor.companyId, { action: 'delete', fileId: id })
    return paths
  })
  removeStored(ctx, actor.companyId, paths)
}

/** Checks, before a form is read and stored, that the list exists in the actor's company. */
export function assertFileExists(ctx: Ctx, id: number): void {
  getFileRow(ctx.sqlite, userActor(ctx).companyId, id)
}

/**
 * `POST /files/uploadList/{id}`: each file (already checked against the allow-list and its kind's limit) is
 * stored and attached to the option named by the `id` in the same position; the files they replace are removed.
 * An `id` that is not an option of this list is a 400 and nothing is stored.
 */
export function attachFileOptions(
  ctx: Ctx,
  id: number,
  uploads: { optionId: number; media: UploadedMedia }[],
): FileListDto {
  const actor = userActor(ctx)
  const options = new Map(
    optionsOf(ctx.sqlite, getFileRow(ctx.sqlite, actor.companyId, id).id).map((o) => [o.id, o]),
  )
  const seen = new Set<number>()
  uploads.forEach((u, index) => {
    const problem = !options.has(u.optionId)
      ? 'is not an option of this file list'
      : seen.has(u.optionId)
        ? 'names an option twice'
        : null
    if (problem)
      throw new AppError('ERR_VALIDATION', `id ${problem}`, undefined, [
        { field: `id.${index}`, message: problem },
      ])
    seen.add(u.optionId)
  })
  const stored: string[] = []
  const previous: (string | null)[] = []
  try {
    for (const u of uploads)
      stored.push(
        storeMedia(ctx, actor.companyId, u.media.bytes, {
          mime: u.media.format.mime,
          ext: u.media.format.ext,
        }).path,
      )
    const fileList = transact(ctx, (sqlite, events) => {
      getFileRow(sqlite, actor.companyId, id)
      const current = new Map(optionsOf(sqlite, id).map((o) => [o.id, o]))
      const now = ctx.clock.now()
      uploads.forEach((u, index) => {
        const before = current.get(u.optionId)
        if (!before) throw notFound()
        previous.push(before.path)
        stmt(
          sqlite,
          'UPDATE file_options SET path = ?, media_type = ?, media_name = ?, updated_at = ? WHERE id = ?',
        ).run(
          stored[index]!,
          u.media.sendMime,
          cleanFileName(u.media.name, `file.${u.media.format.ext}`),
          now,
          u.optionId,
        )
      })
      stmt(sqlite, 'UPDATE files SET updated_at = ? WHERE id = ?').run(now, id)
      const fileList = loadDto(ctx, sqlite, actor.companyId, id)
      publish(events, actor.companyId, { action: 'update', fileList })
      return fileList
    })
    removeStored(ctx, actor.companyId, previous)
    return fileList
  } catch (err) {
    removeStored(ctx, actor.companyId, stored)
    throw err
  }
}
