/** Minutes as the spec's HH h mm m (whole minutes, rounded; hours past 99 keep all their digits). */
export function durationParts(minutes: number): { h: string; m: string } {
  const total = Math.max(0, Math.round(minutes))
  return { h: String(Math.floor(total / 60)).padStart(2, '0'), m: String(total % 60).padStart(2, '0') }
}

/** The dashboard's filter: the last N days, or a date range (YYYY-MM-DD, both included). */
export type DashboardFilter =
  | { kind: 'days'; days: number | null }
  | { kind: 'dates'; from: string; to: string }

/** The query of a filter, or null when it is incomplete ('Parametrize o filtro'). */
export function filterQuery(filter: DashboardFilter): Record<string, string> | null {
  if (filter.kind === 'days') return filter.days ? { days: String(filter.days) } : null
  if (!/^\d{4}-\d{2}-\d{2}$/.test(filter.from) || !/^\d{4}-\d{2}-\d{2}$/.test(filter.to)) return null
  return { date_from: filter.from, date_to: filter.to }
}

/** NPS zones as commonly read: 75+ excellent, 50+ good, 0+ fair, below 0 poor. */
export function npsZone(score: number): 'excellent' | 'good' | 'fair' | 'poor' {
  return score >= 75 ? 'excellent' : score >= 50 ? 'good' : score >= 0 ? 'fair' : 'poor'
}
