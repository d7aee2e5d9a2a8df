/**
 * The company's tags, paged and searched, live (`company-{id}-tag`): the tags page, and with `kanban` the Kanban
 * lanes screen (the tags with kanban 1).
 */
import type { Paged, TagDto } from '../../../shared/api'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type TagsParams = { search: string }

/** The server's order: name, then id. */
export function compareTags(a: TagDto, b: TagDto): number {
  return a.name.localeCompare(b.name) || a.id - b.id
}

/** Whether a tag belongs to a search (the server looks in the name, case-insensitively). */
export function tagMatches(tag: TagDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || tag.name.toLowerCase().includes(term)
}

/** GET /api/tags/?searchParam=&pageNumber=, with `kanban` also &kanban=1 (only the lanes). */
function defineTagsList(kanban: boolean) {
  return defineLiveList<TagDto, TagsParams>({
    name: kanban ? 'kanbanLanesPage' : 'tags',
    id: (t) => t.id,
    fetchPage: async ({ search }, pageNumber, signal) => {
      const res = await api.get<Paged<'tags', TagDto>>('/tags/', {
        query: { kanban: kanban ? 1 : undefined, searchParam: search || undefined, pageNumber },
        signal,
      })
      return { items: res.tags ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
    },
    sort: compareTags,
    // A tag turned into an ordinary tag elsewhere leaves the lanes.
    matches: (tag, { search }) => (!kanban || tag.kanban === 1) && tagMatches(tag, search),
    paramsKey: ({ search }) => search.trim(),
    events: [
      liveEvent('tag', (data, list) => {
        if (data.action === 'delete') list.remove(data.tagId)
        else if (data.tag) {
          // An event without ticketsCount keeps the one the row (or card) has.
          let next: TagDto = data.tag
          if (next.ticketsCount === undefined)
            list.patch(next.id, (row) => {
              next = { ...data.tag, ticketsCount: row.ticketsCount }
              return row
            })
          list.upsert(next)
        }
      }),
    ],
  })
}

/** The tags page: every tag. */
export const tagsList = defineTagsList(false)

/** The Kanban lanes screen (/tagsKanban): the tags with kanban 1. */
export const lanesList = defineTagsList(true)
