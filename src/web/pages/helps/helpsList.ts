/**
 * Help videos as the web keeps them. They are platform-wide and change rarely, so no live event carries them:
 * the lists are fetched when a screen holds them (and again when held again, or after a reconnect), and the
 * Settings tab applies its own saves and deletes.
 */
import type { Paged } from '../../../shared/api'
import type { HelpDto } from '../../../shared/helps'
import { api } from '../../api/client'
import { defineLiveList } from '../../state/liveList'

/** The server's order: title (case-insensitive), then id. */
export function compareHelps(a: HelpDto, b: HelpDto): number {
  const x = a.title.toLowerCase()
  const y = b.title.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a.id - b.id
}

/** Whether a help belongs to a search (the server looks in the title and the description). */
export function helpMatches(help: HelpDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || help.title.toLowerCase().includes(term) || help.description.toLowerCase().includes(term)
}

/** GET /api/helps/list: every help video, by title (the help screen's grid). */
export const allHelpsList = defineLiveList<HelpDto>({
  name: 'helps-all',
  id: (h) => h.id,
  fetchPage: async (_params, _page, signal) => ({
    items: (await api.get<HelpDto[]>('/helps/list', { signal })) ?? [],
    hasMore: false,
  }),
  sort: compareHelps,
  events: [],
})

export type HelpsParams = { search: string }

/** GET /api/helps?searchParam=&pageNumber= → `{ records, count, hasMore }` (the Settings tab). */
export const helpsList = defineLiveList<HelpDto, HelpsParams>({
  name: 'helps',
  id: (h) => h.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'records', HelpDto>>('/helps', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.records ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareHelps,
  matches: (help, { search }) => helpMatches(help, search),
  paramsKey: ({ search }) => search.trim(),
  events: [],
})
