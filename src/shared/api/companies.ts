/** Companies and their plans. */
import type { PlanFlags, Recurrence } from '../plans'

export type PlanDto = PlanFlags & {
  id: number
  name: string
  /** Monthly price in BRL. */
  value: number
  users: number
  connections: number
  queues: number
  createdAt: string
  updatedAt: string
}

export type CompanyDto = {
  id: number
  name: string
  email: string | null
  phone: string | null
  planId: number
  plan: { id: number; name: string } | null
  status: boolean
  /**
   * YYYY-MM-DD. A company that never expires (no due date: the platform's own, the demo) is answered as
   * NO_DUE_DATE (shared/plans.ts), never null, so the spec's client does not lock it out; `realDueDate` reads it.
   */
  dueDate: string | null
  /** YYYY-MM-DD: the end of a signed-up company's free trial (null: no trial). */
  trialExpiration: string | null
  recurrence: Recurrence
  document: string | null
  lastLogin: string | null
  /** What the company uses of its plan's limits. */
  counts: { users: number; connections: number; queues: number }
  createdAt: string
  updatedAt: string
}

/** `GET /companies/listPlan/{companyId}`: the company with its whole plan. */
export type CompanyWithPlanDto = Omit<CompanyDto, 'plan'> & { plan: PlanDto }
