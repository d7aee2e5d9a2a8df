/**
 * Companies and plans as the super user's Settings keeps them. They change only through these tabs, so no live
 * event carries them: the lists are fetched when a tab holds them (again when held again, or after a
 * reconnect), and the tabs apply their own saves, extensions and deletes.
 */
import type { CompanyDto, Paged, PlanDto } from '../../../shared/api'
import { realDueDate } from '../../../shared/plans'
import { api } from '../../api/client'
import { daysUntil } from '../../lib/dates'
import { defineLiveList } from '../../state/liveList'

/** The server's order: name (the database's order, case-sensitive), then id. */
export function compareCompanies(a: CompanyDto, b: CompanyDto): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id
}

/** Whether a company belongs to a search (the server looks for the term in the name, case-insensitive). */
export function companyMatches(company: CompanyDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || company.name.toLowerCase().includes(term)
}

export type CompaniesParams = { search: string }

/** GET /api/companies?searchParam=&pageNumber= → `{ companies, count, hasMore }`. */
export const companiesList = defineLiveList<CompanyDto, CompaniesParams>({
  name: 'companies',
  id: (c) => c.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'companies', CompanyDto>>('/companies', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.companies ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareCompanies,
  matches: (company, { search }) => companyMatches(company, search),
  paramsKey: ({ search }) => search.trim(),
  events: [],
})

/** GET /api/plans/all: every plan with its limits (the company dialog's choice, the usage beside the plan). */
export const allPlansList = defineLiveList<PlanDto>({
  name: 'plans-all',
  id: (p) => p.id,
  fetchPage: async (_params, _page, signal) => ({
    items: (await api.get<PlanDto[]>('/plans/all', { signal })) ?? [],
    hasMore: false,
  }),
  events: [],
})

/**
 * The spec's row colour by whole days to the due date: exactly 5 yellow, -3 to 4 orange, exactly -4 red;
 * no colour otherwise (and none without a due date).
 */
export type DueTone = 'yellow' | 'orange' | 'red'

export function dueTone(days: number | null): DueTone | null {
  if (days == null || Number.isNaN(days)) return null
  if (days === 5) return 'yellow'
  if (days >= -3 && days <= 4) return 'orange'
  if (days === -4) return 'red'
  return null
}

/** Days from today to the company's due date; null when it has none. */
export function companyDueDays(company: Pick<CompanyDto, 'dueDate'>, now: Date = new Date()): number | null {
  const dueDate = realDueDate(company.dueDate)
  return dueDate ? daysUntil(dueDate, now) : null
}

/** Subtle tints that read on both themes (translucent over the surface), for rows and cards. */
export const DUE_ROW_CLASS: Record<DueTone, string> = {
  yellow: 'bg-yellow-400/15 hover:bg-yellow-400/25',
  orange: 'bg-orange-500/15 hover:bg-orange-500/25',
  red: 'bg-red-500/15 hover:bg-red-500/25',
}

/** The due-date badge's colours (text contrast checked on both themes), matching the row's tint. */
export const DUE_BADGE_CLASS: Record<DueTone | 'overdue' | 'neutral', string> = {
  yellow: 'border-yellow-500/40 bg-yellow-300/30 text-yellow-900 dark:bg-yellow-400/15 dark:text-yellow-200',
  orange: 'border-orange-500/40 bg-orange-300/30 text-orange-900 dark:bg-orange-400/15 dark:text-orange-200',
  red: 'border-red-500/40 bg-red-300/30 text-red-900 dark:bg-red-400/15 dark:text-red-200',
  overdue: 'border-transparent bg-danger-soft text-on-danger-soft',
  neutral: 'border-border bg-surface-2 text-muted',
}
