/** Plan feature flags. A flag counts as on unless it is explicitly false. */
export const PLAN_FLAGS = [
  'useWhatsapp',
  'useFacebook',
  'useInstagram',
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const

export type PlanFlag = (typeof PLAN_FLAGS)[number]
export type PlanFlags = Record<PlanFlag, boolean>

/**
 * The API paths (under /api, each with everything below it) that a plan flag gates on the server, whatever the
 * menu shows. An area that a flag names adds its paths here when it is built. Not here: `useExternalApi` gates
 * `POST /api/messages/send`, whose caller is a connection token, inside that route; `useFacebook` and
 * `useInstagram` will gate the creation of those channels' connections.
 */
export const PLAN_GATED_PATHS: Record<PlanFlag, readonly string[]> = {
  useWhatsapp: ['/whatsappsession', '/whatsapp-restart'],
  useFacebook: [],
  useInstagram: [],
  useCampaigns: ['/campaigns', '/campaign-settings', '/contact-lists', '/contact-list-items'],
  useSchedules: ['/schedules'],
  useInternalChat: ['/chats'],
  useExternalApi: [],
  useKanban: ['/ticket/kanban', '/tags/kanban'],
  useOpenAi: ['/prompt'],
  useIntegrations: ['/queueIntegration'],
}

export function planAllows(
  plan: Partial<Record<PlanFlag, boolean | null>> | null | undefined,
  flag: PlanFlag,
) {
  return plan?.[flag] !== false
}

/** Plan limits: 0 means unlimited. */
export const PLAN_LIMITS = ['users', 'connections', 'queues'] as const
export type PlanLimit = (typeof PLAN_LIMITS)[number]

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const
export type Recurrence = (typeof RECURRENCES)[number]
export const RECURRENCE_MONTHS: Record<Recurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
}

/**
 * A YYYY-MM-DD date moved forward by a recurrence's months, the day kept or clamped to the month's last one
 * (31 January + 1 month is 28 or 29 February): '+ Vencimento' and a paid invoice move a due date this way.
 */
export function addRecurrence(date: string, recurrence: Recurrence): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  const target = month - 1 + RECURRENCE_MONTHS[recurrence]
  const y = year + Math.floor(target / 12)
  const m = target % 12
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return `${y}-${String(m + 1).padStart(2, '0')}-${String(Math.min(day, lastDay)).padStart(2, '0')}`
}

/** The highest monthly price of a plan, in reais (planBody in src/shared/schemas/companies.ts). */
export const PLAN_VALUE_MAX = 1_000_000

/**
 * A price typed or sent as text, in reais (the plan form, and API clients that send `"149,90"`): '99,90', '99.90', '1.234,56', '1,234.56', 'R$ 99', '0'. At most two
 * decimals; null when it is not a price (empty, negative, letters, more than the server accepts).
 */
export function parseBrl(text: string): number | null {
  let s = text.replace(/R\$/i, '').replace(/[\s\u00a0]/g, '')
  if (!s) return null
  const comma = s.lastIndexOf(',')
  const dot = s.lastIndexOf('.')
  if (comma > dot) {
    // Brazilian: dots group thousands, the comma is the decimal mark.
    if (dot !== -1 && !/^\d{1,3}(\.\d{3})+,/.test(s)) return null
    s = s.replace(/\./g, '').replace(',', '.')
  } else if (dot > comma && comma !== -1) {
    // English: commas group thousands.
    if (!/^\d{1,3}(,\d{3})+\./.test(s)) return null
    s = s.replace(/,/g, '')
  } else if (dot !== -1 && /^\d{1,3}(\.\d{3})+$/.test(s)) {
    // '1.234': thousands (a price has two decimals at most).
    s = s.replace(/\./g, '')
  }
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null
  const value = Number(s)
  return Number.isFinite(value) && value <= PLAN_VALUE_MAX ? value : null
}

/**
 * The `dueDate` the API answers for a company without one. In the database null means no billing and never
 * expires (the platform's own company, the demo's, a company the operator exempts); but the spec's client compares
 * `dueDate` with today at sign-in and locks its users out when it is past or missing, so every answer that carries
 * a company's due date says this date instead, far enough ahead to never matter. Sent back (PUT /companies/{id}),
 * it is stored as null again.
 */
export const NO_DUE_DATE = '2999-12-31'

/** A company's due date as the API answers it: its own, or NO_DUE_DATE when it has none. */
export function answeredDueDate(dueDate: string | null): string {
  return dueDate ?? NO_DUE_DATE
}

/** The due date a company really has: null when it has none (NO_DUE_DATE is how the API says "none"). */
export function realDueDate(dueDate: string | null | undefined): string | null {
  return !dueDate || dueDate === NO_DUE_DATE ? null : dueDate
}
