/**
 * Plans as the super user's Settings keeps them (no live event carries them: the tab applies its own saves and
 * deletes, and fetches again when held again or after a reconnect).
 */
import type { Paged, PlanDto } from '../../../shared/api'
import { api } from '../../api/client'
import { defineLiveList } from '../../state/liveList'

/** The server's order: name, then id. */
export function comparePlans(a: PlanDto, b: PlanDto): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id
}

export function planMatches(plan: PlanDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || plan.name.toLowerCase().includes(term)
}

export type PlansParams = { search: string }

/** GET /api/plans?searchParam=&pageNumber= → `{ plans, count, hasMore }`. */
export const plansList = defineLiveList<PlanDto, PlansParams>({
  name: 'plans',
  id: (p) => p.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'plans', PlanDto>>('/plans', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.plans ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: comparePlans,
  matches: (plan, { search }) => planMatches(plan, search),
  paramsKey: ({ search }) => search.trim(),
  events: [],
})
