/** The company's Kanban lanes (tags with kanban 1), paged and searched, live (`company-{id}-tag`): the lanes screen. */
import type { Paged, TagDto } from '../../../shared/api'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'
import { compareTags, type TagsParams, tagMatches } from '../tags/tagsList'

/** GET /api/tags/?kanban=1&searchParam=&pageNumber= */
export const lanesList = defineLiveList<TagDto, TagsParams>({
  name: 'kanbanLanesPage',
  id: (t) => t.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'tags', TagDto>>('/tags/', {
      query: { kanban: 1, searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.tags ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareTags,
  // A tag turned into an ordinary tag elsewhere leaves the lanes.
  matches: (tag, { search }) => tag.kanban === 1 && tagMatches(tag, search),
  paramsKey: ({ search }) => search.trim(),
  events: [
    liveEvent('tag', (data, list) => {
      if (data.action === 'delete') list.remove(data.tagId)
      else if (data.tag) {
        // An event without ticketsCount keeps the one the card has.
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
