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

const pad = (n: number) => String(n).padStart(2, '0')

/** The local calendar day of a moment, `YYYY-MM-DD`: messages of one day share it. */
export function dayKey(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/**
 * The date separator's text: 'today' / 'yesterday' (the caller translates them), else the day in the user's
 * locale (dd/MM/yyyy in Portuguese).
 */
export function dayLabel(
  iso: string,
  locale: string,
  now: Date = new Date(),
): 'today' | 'yesterday' | string {
  const key = dayKey(iso)
  if (key === dayKey(now.toISOString())) return 'today'
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12)
  if (key === dayKey(yesterday.toISOString())) return 'yesterday'
  return new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    new Date(iso),
  )
}
