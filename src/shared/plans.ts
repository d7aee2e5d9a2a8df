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
