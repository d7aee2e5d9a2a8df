/** Test fixtures for the tags and Kanban lanes screens. */
import type { TagDto } from '../../../shared/api'
import { mockFetch } from '../../test/utils'

/** An ordinary tag of company 7 (pass `{ kanban: 1 }` for a lane). */
export const tag = (id: number, name: string, extra: Partial<TagDto> = {}): TagDto => ({
  id,
  name,
  color: '#3284FE',
  kanban: 0,
  companyId: 7,
  createdAt: '',
  updatedAt: '',
  ticketsCount: 0,
  ...extra,
})

/** GET /api/tags/ answers `rows()` whose name holds searchParam, as the server does; `extra` adds routes. */
export function serveTags(rows: () => TagDto[], extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/tags/': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = rows().filter((t) => t.name.toLowerCase().includes(term))
      return { body: { tags: list, count: list.length, hasMore: false } }
    },
    ...extra,
  })
}
