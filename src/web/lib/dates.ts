/** 'YYYY-MM-DD' -> 'dd/MM/yyyy' (the spec's date format); anything else is returned unchanged. */
export function formatDueDate(date: string | null | undefined): string {
  if (!date) return ''
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date)
  return m ? `${m[3]}/${m[2]}/${m[1]}` : date
}

/** Whole days from today (local calendar) until a 'YYYY-MM-DD' date; negative when it has passed. */
export function daysUntil(date: string, now: Date = new Date()): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date)
  if (!m) return Number.NaN
  const due = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())
  return Math.round((due - today) / 86_400_000)
}
