/** The company's tags, paged and searched, live (`company-{id}-tag`): the tags page. */
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

/** GET /api/tags/?searchParam=&pageNumber= (tags and Kanban lanes alike). */
export const tagsList = defineLiveList<TagDto, TagsParams>({
  name: 'tags',
  id: (t) => t.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'tags', TagDto>>('/tags/', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.tags ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareTags,
  matches: (tag, { search }) => tagMatches(tag, search),
  paramsKey: ({ search }) => search.trim(),
  events: [
    liveEvent('tag', (data, list) => {
      if (data.action === 'delete') list.remove(data.tagId)
      else if (data.tag) {
        // An event without ticketsCount keeps the one the row has.
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
