/**
 * Help videos (spec 3): platform-wide YouTube videos. Every signed-in user reads them (whatever their company);
 * only super users create, edit and delete them (the routes gate that). A help belongs to the company of the
 * super user who created it, but is shown to everyone. Titles are unique, ignoring the case of ASCII letters.
 */

import type { Database } from 'bun:sqlite'
import type { Paged } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { HelpDto } from '../../../shared/helps'
import type { HelpInput, ListHelpsQuery } from '../../../shared/schemas/helps'
import { isoString } from '../../clock'
import type { Ctx } from '../../context'
import { transact, userActor } from '../../context'
import { listPage, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'

export const HELPS_PAGE_SIZE = 20
/** `GET /helps/list`: every help video, bounded all the same. */
export const HELPS_LIST_MAX = 1000

type RawHelp = {
  id: number
  title: string
  description: string
  video: string
  createdAt: number
  updatedAt: number
}

const COLUMNS = `h.id, h.title, h.description, h.video, h.created_at AS createdAt, h.updated_at AS updatedAt`

const SEARCH = `($term IS NULL OR instr(lower(h.title), lower($term)) > 0
  OR instr(lower(h.description), lower($term)) > 0)`

const ORDER = 'ORDER BY h.title COLLATE NOCASE, h.id'

export function toHelpDto(row: RawHelp): HelpDto {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    video: row.video,
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

/** The one way to load a help video: an unknown id is ERR_NO_HELP_FOUND (404). */
export function getHelpRow(sqlite: Database, id: number): RawHelp {
  const row = stmt<RawHelp, [number]>(sqlite, `SELECT ${COLUMNS} FROM helps h WHERE h.id = ?`).get(id)
  if (!row) throw new AppError('ERR_NO_HELP_FOUND', 'Help video not found')
  return row
}

function assertTitleFree(sqlite: Database, title: string, exceptId = 0) {
  const clash = stmt<{ id: number }, [string, number]>(
    sqlite,
    'SELECT id FROM helps WHERE lower(title) = lower(?) AND id <> ? LIMIT 1',
  ).get(title, exceptId)
  if (clash) throw fieldError('title', 'Another help video has this title', 'ERR_HELP_DUPLICATED')
}

/** `GET /helps`: 20 a page by title, searched in the title and the description. */
export function listHelps(ctx: Ctx, query: ListHelpsQuery): Paged<'records', HelpDto> {
  userActor(ctx)
  const at = pageWindow(query.pageNumber, HELPS_PAGE_SIZE)
  const term = query.searchParam?.trim() || null
  const page = listPage<RawHelp, { term: string | null }>(
    ctx.sqlite,
    { columns: COLUMNS, from: 'helps h', where: SEARCH, order: ORDER },
    { term },
    at,
  )
  return { records: page.rows.map(toHelpDto), count: page.count, hasMore: page.hasMore }
}

/** `GET /helps/list`: every help video, by title (the help screen's grid). */
export function listAllHelps(ctx: Ctx): HelpDto[] {
  userActor(ctx)
  return stmt<RawHelp, [number]>(ctx.sqlite, `SELECT ${COLUMNS} FROM helps h ${ORDER} LIMIT ?`)
    .all(HELPS_LIST_MAX)
    .map(toHelpDto)
}

/** `POST /helps` (super users): the help belongs to the creator's company, and is seen by everyone. */
export function createHelp(ctx: Ctx, input: HelpInput): HelpDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite) => {
    assertTitleFree(sqlite, input.title)
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, (string | number)[]>(
      sqlite,
      `INSERT INTO helps (company_id, title, description, video, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(actor.companyId, input.title, input.description ?? '', input.video, now, now)!
    return toHelpDto(getHelpRow(sqlite, id))
  })
}

/** `PUT /helps/{id}` (super users): a description left out keeps its value. */
export function updateHelp(ctx: Ctx, id: number, input: HelpInput): HelpDto {
  userActor(ctx)
  return transact(ctx, (sqlite) => {
    const current = getHelpRow(sqlite, id)
    assertTitleFree(sqlite, input.title, id)
    stmt(sqlite, 'UPDATE helps SET title = ?, description = ?, video = ?, updated_at = ? WHERE id = ?').run(
      input.title,
      input.description ?? current.description,
      input.video,
      ctx.clock.now(),
      id,
    )
    return toHelpDto(getHelpRow(sqlite, id))
  })
}

/** `DELETE /helps/{id}` (super users). */
export function deleteHelp(ctx: Ctx, id: number): void {
  userActor(ctx)
  transact(ctx, (sqlite) => {
    getHelpRow(sqlite, id)
    stmt(sqlite, 'DELETE FROM helps WHERE id = ?').run(id)
  })
}
