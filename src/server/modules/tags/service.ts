/**
 * Tags label tickets (and contacts); kanban 1 makes a tag a lane of the Kanban board. Every user of the company
 * lists them and may add an ordinary tag (spec 2, section 6: the tags screen is every user's); renaming and
 * deleting a tag, and any change to the lanes, which lay out everyone's board, are the admins'. Attendants still
 * tag tickets (`/ticket-tags`). Names are unique per company, case-insensitively. Changes are live
 * (`company-{id}-tag`, to the whole company): a client renames or drops the tag on the tickets and contacts it
 * holds by id, so a tag change does not republish every ticket that carries it.
 */

import type { Database } from 'bun:sqlite'
import type { Paged, TagDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { ListTagsQuery, TagInput } from '../../../shared/schemas/tags'
import type { Ctx } from '../../context'
import { isAdminActor, transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import { listPage, pageWindow } from '../../db/paging'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

export const TAGS_PAGE_SIZE = 20
export const DEFAULT_TAG_COLOR = '#3284FE'

type RawTag = {
  id: number
  name: string
  color: string
  kanban: number
  companyId: number
  createdAt: number
  updatedAt: number
  ticketsCount?: number
}

const TAG_COLUMNS = `t.id, t.name, t.color, t.kanban, t.company_id AS companyId, t.created_at AS createdAt,
  t.updated_at AS updatedAt`

/** How many tickets carry the tag (the spec's ticketsCount), as a column of a query on tags `t`. */
const TICKETS_COUNT = `(SELECT count(*) FROM ticket_tags tt WHERE tt.tag_id = t.id) AS ticketsCount`

export function toTagDto(row: RawTag): TagDto {
  const dto: TagDto = {
    id: row.id,
    name: row.name,
    color: row.color,
    kanban: row.kanban,
    companyId: row.companyId,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  }
  if (row.ticketsCount !== undefined) dto.ticketsCount = row.ticketsCount
  return dto
}

/** The one way to load a tag: another company's id is simply not found. */
export function getTagRowInCompany(db: Connection, companyId: number, tagId: number): RawTag {
  const row = sqliteOf(db)
    .query<RawTag, [number, number]>(
      `SELECT ${TAG_COLUMNS}, ${TICKETS_COUNT} FROM tags t WHERE t.id = ? AND t.company_id = ?`,
    )
    .get(tagId, companyId)
  if (!row) throw new AppError('ERR_NO_TAG_FOUND', 'Tag not found')
  return row
}

type ListParams = { companyId: number; term: string | null; kanban: number | null }

const LIST_WHERE = `t.company_id = $companyId AND ($kanban IS NULL OR t.kanban = $kanban)
  AND ($term IS NULL OR instr(lower(t.name), lower($term)) > 0)`

/** `GET /tags/`: 20 a page by name, with each tag's ticketsCount. */
export function listTags(ctx: Ctx, query: ListTagsQuery): Paged<'tags', TagDto> {
  const at = pageWindow(query.pageNumber, TAGS_PAGE_SIZE)
  const params: ListParams = {
    companyId: ctx.actor.companyId,
    term: query.searchParam?.trim() || null,
    kanban: query.kanban ?? null,
  }
  const page = listPage<RawTag, ListParams>(
    ctx.sqlite,
    {
      columns: `${TAG_COLUMNS}, ${TICKETS_COUNT}`,
      from: 'tags t',
      where: LIST_WHERE,
      order: 'ORDER BY t.name, t.id',
    },
    params,
    at,
  )
  return { tags: page.rows.map(toTagDto), count: page.count, hasMore: page.hasMore }
}

/** `GET /tags/list`: every tag of the company by name (the tag selector), optionally only kanban 0 or 1. */
export function listAllTags(ctx: Ctx, kanban?: 0 | 1): TagDto[] {
  return ctx.sqlite
    .query<RawTag, [number, number | null]>(
      `SELECT ${TAG_COLUMNS} FROM tags t WHERE t.company_id = ?1 AND (?2 IS NULL OR t.kanban = ?2) ORDER BY t.name, t.id`,
    )
    .all(ctx.actor.companyId, kanban ?? null)
    .map(toTagDto)
}

export function getTag(ctx: Ctx, tagId: number): TagDto {
  return toTagDto(getTagRowInCompany(ctx.sqlite, ctx.actor.companyId, tagId))
}

function assertNameFree(sqlite: Database, companyId: number, name: string, exceptId?: number) {
  const other = sqlite
    .query<{ id: number }, [number, string]>(
      'SELECT id FROM tags WHERE company_id = ? AND lower(name) = lower(?)',
    )
    .all(companyId, name)
    .find((t) => t.id !== exceptId)
  if (other) throw fieldError('name', 'Another tag already has this name', 'ERR_TAG_NAME_ALREADY_EXISTS')
}

function publishTag(events: EventBuffer, tag: TagDto, action: 'create' | 'update') {
  events.publish(rooms.company(tag.companyId), channel(tag.companyId, 'tag'), { action, tag })
}

function assertAdmin(ctx: Ctx, what: string) {
  if (!isAdminActor(ctx.actor)) throw new AppError('ERR_NO_PERMISSION', `Only admins can ${what}`)
}

export function createTag(ctx: Ctx, input: TagInput): TagDto {
  if (input.kanban === 1) assertAdmin(ctx, 'add a Kanban lane')
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite, events) => {
    assertNameFree(sqlite, companyId, input.name)
    const now = ctx.clock.now()
    const { id } = sqlite
      .query<{ id: number }, (string | number)[]>(
        'INSERT INTO tags (company_id, name, color, kanban, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      )
      .get(companyId, input.name, input.color ?? DEFAULT_TAG_COLOR, input.kanban ?? 0, now, now)!
    const tag = toTagDto(getTagRowInCompany(sqlite, companyId, id))
    publishTag(events, tag, 'create')
    return tag
  })
}

/** A PUT may leave out color and kanban: they keep their values. */
export function updateTag(ctx: Ctx, tagId: number, input: TagInput): TagDto {
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite, events) => {
    // Another company's id is a 404 before it is a 403.
    const current = getTagRowInCompany(sqlite, companyId, tagId)
    assertAdmin(ctx, 'change a tag')
    assertNameFree(sqlite, companyId, input.name, tagId)
    sqlite
      .query('UPDATE tags SET name = ?, color = ?, kanban = ?, updated_at = ? WHERE id = ?')
      .run(input.name, input.color ?? current.color, input.kanban ?? current.kanban, ctx.clock.now(), tagId)
    const tag = toTagDto(getTagRowInCompany(sqlite, companyId, tagId))
    publishTag(events, tag, 'update')
    return tag
  })
}

/** Deletes the tag; the tickets and contacts that carried it lose it (the database cascades). */
export function deleteTag(ctx: Ctx, tagId: number) {
  const { companyId } = ctx.actor
  transact(ctx, (sqlite, events) => {
    getTagRowInCompany(sqlite, companyId, tagId)
    assertAdmin(ctx, 'delete a tag')
    sqlite.query('DELETE FROM tags WHERE id = ?').run(tagId)
    events.publish(rooms.company(companyId), channel(companyId, 'tag'), { action: 'delete', tagId })
  })
}
