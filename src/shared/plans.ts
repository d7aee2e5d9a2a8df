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
