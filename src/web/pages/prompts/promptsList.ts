/** AI prompts as the web keeps them, live (`company-{id}-prompt`): paged, searched by name. */
import type { Paged } from '../../../shared/api'
import type { PromptDto } from '../../../shared/prompts'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type PromptsParams = { search: string }

/** The server's order: name (case-insensitive), then id. */
export function comparePrompts(a: PromptDto, b: PromptDto): number {
  const x = a.name.toLowerCase()
  const y = b.name.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a.id - b.id
}

export function promptMatches(record: PromptDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || record.name.toLowerCase().includes(term)
}

const applyEvent = liveEvent<PromptDto, 'prompt'>('prompt', (data, list) => {
  if (data.action === 'delete') list.remove(data.promptId)
  else list.upsert(data.prompt)
})

/** GET /api/prompt/?searchParam=&pageNumber= → `{ prompts, count, hasMore }`. */
export const promptsList = defineLiveList<PromptDto, PromptsParams>({
  name: 'prompts',
  id: (r) => r.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'prompts', PromptDto>>('/prompt', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.prompts ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: comparePrompts,
  matches: (record, { search }) => promptMatches(record, search),
  paramsKey: ({ search }) => search.trim(),
  events: [applyEvent],
})
