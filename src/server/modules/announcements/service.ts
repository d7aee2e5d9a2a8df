/**
 * Announcements (spec 2): notices from the platform operator to every company. Super users manage them (the
 * routes gate that); every signed-in user reads the active ones in the bell (`GET /announcements/`, as the
 * spec's client does, or `GET /announcements/feed`, our addition). An announcement belongs to no tenant: its row carries the creating super user's company (the
 * platform company), whose media folder holds its image. Changes are live to every socket of every company
 * (the global `announcement` event in the `everyone` room), after commit.
 */

import type { Database } from 'bun:sqlite'
import type {
  AnnouncementDto,
  AnnouncementPriority,
  AnnouncementsFeedPage,
  AnnouncementsPage,
} from '../../../shared/announcements'
import { DEFAULT_ANNOUNCEMENT_PRIORITY } from '../../../shared/announcements'
import { AppError } from '../../../shared/errors'
import type {
  AnnouncementInput,
  AnnouncementsFeedQuery,
  ListAnnouncementsQuery,
} from '../../../shared/schemas/announcements'
import { isoString } from '../../clock'
import type { Ctx } from '../../context'
import { transact, userActor } from '../../context'
import { listPage, pageOf, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import { cleanFileName, removeStoredMedia, storeMedia } from '../../media/store'
import type { UploadedMedia } from '../../media/upload'
import type { EventBuffer } from '../../realtime/hub'
import { rooms } from '../../realtime/rooms'

/** The management page: 20 a page. */
export const ANNOUNCEMENTS_PAGE_SIZE = 20
/** The bell: 10 a page. */
export const ANNOUNCEMENTS_FEED_PAGE_SIZE = 10

type RawAnnouncement = {
  id: number
  companyId: number
  title: string
  text: string
  priority: number
  status: number
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  createdAt: number
  updatedAt: number
}

const COLUMNS = `a.id, a.company_id AS companyId, a.title, a.text, a.priority, a.status, a.media_path AS mediaPath,
  a.media_name AS mediaName, a.media_mime AS mediaMime, a.created_at AS createdAt, a.updated_at AS updatedAt`

const SEARCH = `($term IS NULL OR instr(lower(a.title), lower($term)) > 0 OR instr(lower(a.text), lower($term)) > 0)`

/** Newest first; the id breaks ties (two created in one millisecond). */
const ORDER = 'ORDER BY a.created_at DESC, a.id DESC'

type Deps = Pick<Ctx, 'secrets' | 'clock'>

const asPriority = (n: number): AnnouncementPriority => (n === 1 || n === 2 ? n : 3)

export function toAnnouncementDto(deps: Deps, row: RawAnnouncement): AnnouncementDto {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    priority: asPriority(row.priority),
    status: row.status === 1,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? signedMediaUrl(deps, row.companyId, row.mediaPath) : null,
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

const notFound = () => new AppError('ERR_NO_ANNOUNCEMENT_FOUND', 'Announcement not found')

/** The one way to load an announcement by id (the platform's: no tenant filter; callers are super users). */
function getAnnouncementRow(sqlite: Database, id: number): RawAnnouncement {
  const row = stmt<RawAnnouncement, [number]>(
    sqlite,
    `SELECT ${COLUMNS} FROM announcements a WHERE a.id = ?`,
  ).get(id)
  if (!row) throw notFound()
  return row
}

/** Super users only. The routes gate on it too; the service refuses anyone else whoever calls it. */
function superActor(ctx: Ctx) {
  const actor = userActor(ctx)
  if (!actor.super) throw new AppError('ERR_NO_PERMISSION', 'Only the platform administrator can do this')
  return actor
}

/**
 * An active announcement goes to everyone. An inactive one (a draft, or one taken down) is the super users' only:
 * everyone else is told it is gone (so it leaves their bell), and each super user gets the record for their list.
 */
function publish(
  sqlite: Database,
  events: EventBuffer,
  record: AnnouncementDto,
  action: 'create' | 'update',
) {
  if (record.status) {
    events.publish(rooms.everyone, 'announcement', { action, record })
    return
  }
  events.publish(rooms.everyone, 'announcement', { action: 'delete', id: record.id })
  const supers = stmt<{ id: number; companyId: number }, []>(
    sqlite,
    'SELECT id, company_id AS companyId FROM users WHERE super = 1',
  ).all()
  for (const u of supers) events.publish(rooms.user(u.companyId, u.id), 'announcement', { action, record })
}

type ListParams = { term: string | null; all: number }

/** Super users see drafts and taken-down ones too; everyone else the active ones. */
const VISIBLE = '($all = 1 OR a.status = 1)'

/**
 * `GET /announcements/`: newest first, 20 a page, searched in title and text. Every signed-in user reads it (the
 * spec's bell does): the active ones; a super user (the management page) every one.
 */
export function listAnnouncements(ctx: Ctx, query: ListAnnouncementsQuery): AnnouncementsPage {
  const actor = userActor(ctx)
  const at = pageWindow(query.pageNumber, ANNOUNCEMENTS_PAGE_SIZE)
  const params: ListParams = { term: query.searchParam?.trim() || null, all: actor.super ? 1 : 0 }
  const page = listPage<RawAnnouncement, ListParams>(
    ctx.sqlite,
    { columns: COLUMNS, from: 'announcements a', where: `${VISIBLE} AND ${SEARCH}`, order: ORDER },
    params,
    at,
  )
  return {
    records: page.rows.map((r) => toAnnouncementDto(ctx, r)),
    count: page.count,
    hasMore: page.hasMore,
  }
}

/** `GET /announcements/feed` (our addition, every signed-in user): the active ones, newest first, 10 a page. */
export function announcementsFeed(ctx: Ctx, query: AnnouncementsFeedQuery): AnnouncementsFeedPage {
  userActor(ctx)
  const at = pageWindow(query.pageNumber, ANNOUNCEMENTS_FEED_PAGE_SIZE)
  const rows = stmt<RawAnnouncement, [{ limit: number; offset: number }]>(
    ctx.sqlite,
    `SELECT ${COLUMNS} FROM announcements a WHERE a.status = 1 ${ORDER} LIMIT $limit OFFSET $offset`,
  ).all({ limit: at.limit, offset: at.offset })
  const page = pageOf(rows, at)
  return { records: page.rows.map((r) => toAnnouncementDto(ctx, r)), hasMore: page.hasMore }
}

export function getAnnouncement(ctx: Ctx, id: number): AnnouncementDto {
  superActor(ctx)
  return toAnnouncementDto(ctx, getAnnouncementRow(ctx.sqlite, id))
}

/** `POST /announcements/`: priority 3 and active unless the body says otherwise. */
export function createAnnouncement(ctx: Ctx, input: AnnouncementInput): AnnouncementDto {
  const actor = superActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, (string | number)[]>(
      sqlite,
      `INSERT INTO announcements (company_id, title, text, priority, status, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      actor.companyId,
      input.title,
      input.text,
      input.priority ?? DEFAULT_ANNOUNCEMENT_PRIORITY,
      (input.status ?? true) ? 1 : 0,
      now,
      now,
    )!
    const record = toAnnouncementDto(ctx, getAnnouncementRow(sqlite, id))
    publish(sqlite, events, record, 'create')
    return record
  })
}

/** `PUT /announcements/{id}`: title and text as given; priority and status keep their values when left out. */
export function updateAnnouncement(ctx: Ctx, id: number, input: AnnouncementInput): AnnouncementDto {
  superActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const current = getAnnouncementRow(sqlite, id)
    stmt(
      sqlite,
      'UPDATE announcements SET title = ?, text = ?, priority = ?, status = ?, updated_at = ? WHERE id = ?',
    ).run(
      input.title,
      input.text,
      input.priority ?? current.priority,
      (input.status ?? current.status === 1) ? 1 : 0,
      ctx.clock.now(),
      id,
    )
    const record = toAnnouncementDto(ctx, getAnnouncementRow(sqlite, id))
    publish(sqlite, events, record, 'update')
    return record
  })
}

function removeFile(ctx: Ctx, companyId: number, path: string | null) {
  removeStoredMedia(ctx, companyId, path, 'announcement media')
}

/** `DELETE /announcements/{id}`: the row, then (after commit) its image's file. */
export function deleteAnnouncement(ctx: Ctx, id: number): void {
  superActor(ctx)
  const gone = transact(ctx, (sqlite, events) => {
    const current = getAnnouncementRow(sqlite, id)
    stmt(sqlite, 'DELETE FROM announcements WHERE id = ?').run(id)
    events.publish(rooms.everyone, 'announcement', { action: 'delete', id })
    return current
  })
  removeFile(ctx, gone.companyId, gone.mediaPath)
}

/** Checks, before the file is read, that the caller may change this announcement and that it exists. */
export function assertMayAttach(ctx: Ctx, id: number): void {
  superActor(ctx)
  getAnnouncementRow(ctx.sqlite, id)
}

/** png, jpg and jpeg only (the spec), recognised by the file's bytes (a renamed text file is refused). */
export function assertAnnouncementImage(upload: UploadedMedia) {
  if (upload.format.ext !== 'png' && upload.format.ext !== 'jpg')
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Only png, jpg and jpeg images can be attached', {
      name: upload.name,
    })
}

/**
 * `POST /announcements/{id}/media-upload`: stores the image in the announcement's company folder, points the
 * row at it, and removes the image it replaces.
 */
export function attachAnnouncementMedia(ctx: Ctx, id: number, upload: UploadedMedia): AnnouncementDto {
  superActor(ctx)
  assertAnnouncementImage(upload)
  const { companyId } = getAnnouncementRow(ctx.sqlite, id)
  const stored = storeMedia(ctx, companyId, upload.bytes, {
    mime: upload.format.mime,
    ext: upload.format.ext,
  })
  let previous: string | null = null
  try {
    const record = transact(ctx, (sqlite, events) => {
      const current = getAnnouncementRow(sqlite, id)
      previous = current.mediaPath
      stmt(
        sqlite,
        'UPDATE announcements SET media_path = ?, media_name = ?, media_mime = ?, updated_at = ? WHERE id = ?',
      ).run(
        stored.path,
        cleanFileName(upload.name, `image.${upload.format.ext}`),
        upload.format.mime,
        ctx.clock.now(),
        id,
      )
      const record = toAnnouncementDto(ctx, getAnnouncementRow(sqlite, id))
      publish(sqlite, events, record, 'update')
      return record
    })
    removeFile(ctx, companyId, previous)
    return record
  } catch (err) {
    removeFile(ctx, companyId, stored.path)
    throw err
  }
}

/** `DELETE /announcements/{id}/media-upload`: the announcement keeps its text and loses its image. */
export function removeAnnouncementMedia(ctx: Ctx, id: number): AnnouncementDto {
  superActor(ctx)
  let previous: { companyId: number; path: string | null } = { companyId: 0, path: null }
  const record = transact(ctx, (sqlite, events) => {
    const current = getAnnouncementRow(sqlite, id)
    previous = { companyId: current.companyId, path: current.mediaPath }
    stmt(
      sqlite,
      'UPDATE announcements SET media_path = NULL, media_name = NULL, media_mime = NULL, updated_at = ? WHERE id = ?',
    ).run(ctx.clock.now(), id)
    const record = toAnnouncementDto(ctx, getAnnouncementRow(sqlite, id))
    publish(sqlite, events, record, 'update')
    return record
  })
  removeFile(ctx, previous.companyId, previous.path)
  return record
}
