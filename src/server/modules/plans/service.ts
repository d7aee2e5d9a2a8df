import { asc, count, eq } from 'drizzle-orm'
import type { Paged, PlanDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import type { PlanInput } from '../../../shared/schemas/companies'
import { isoTime } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { transact } from '../../context'
import type { DB } from '../../db/client'
import { companies, type PlanRow, plans } from '../../db/schema'
import { contains } from '../../db/search'
import { fieldError } from '../../http/validate'

export const PLANS_PAGE_SIZE = 20

export function toPlanDto(row: PlanRow): PlanDto {
  const { valueCents, createdAt, updatedAt, ...rest } = row
  return { ...rest, value: valueCents / 100, createdAt: isoTime(createdAt)!, updatedAt: isoTime(updatedAt)! }
}

export function getPlanRow(db: DB, planId: number): PlanRow {
  const row = db.select().from(plans).where(eq(plans.id, planId)).get()
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND', 'Plan not found')
  return row
}

/** Public: the sign-up page offers these. */
export function listPublicPlans(deps: Deps): PlanDto[] {
  return deps.db.select().from(plans).orderBy(asc(plans.valueCents), asc(plans.name)).all().map(toPlanDto)
}

export function listPlans(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'plans', PlanDto> {
  const page = query.pageNumber ?? 1
  const term = query.searchParam?.trim()
  const where = term ? contains(plans.name, term) : undefined
  const total = ctx.db.select({ n: count() }).from(plans).where(where).get()?.n ?? 0
  const rows = ctx.db
    .select()
    .from(plans)
    .where(where)
    .orderBy(asc(plans.name))
    .limit(PLANS_PAGE_SIZE)
    .offset((page - 1) * PLANS_PAGE_SIZE)
    .all()
  return { plans: rows.map(toPlanDto), count: total, hasMore: page * PLANS_PAGE_SIZE < total }
}

export function getPlan(ctx: Ctx, planId: number) {
  return toPlanDto(getPlanRow(ctx.db, planId))
}

function columns(input: Partial<PlanInput>) {
  const { value, ...rest } = input
  return { ...rest, ...(value !== undefined ? { valueCents: Math.round(value * 100) } : {}) }
}

function assertNameFree(db: DB, name: string, exceptId?: number) {
  const other = db.select({ id: plans.id }).from(plans).where(eq(plans.name, name)).get()
  if (other && other.id !== exceptId)
    throw fieldError('name', 'Another plan has this name', 'ERR_PLAN_NAME_ALREADY_EXISTS')
}

export function createPlan(ctx: Ctx, input: PlanInput): PlanDto {
  return transact(ctx, (tx) => {
    assertNameFree(tx, input.name)
    const now = ctx.clock.now()
    return toPlanDto(
      tx
        .insert(plans)
        .values({ ...columns(input), name: input.name, createdAt: now, updatedAt: now })
        .returning()
        .get(),
    )
  })
}

export function updatePlan(ctx: Ctx, planId: number, input: PlanInput): PlanDto {
  return transact(ctx, (tx) => {
    getPlanRow(tx, planId)
    assertNameFree(tx, input.name, planId)
    const row = tx
      .update(plans)
      .set({ ...columns(input), updatedAt: ctx.clock.now() })
      .where(eq(plans.id, planId))
      .returning()
      .get()
    return toPlanDto(row)
  })
}

export function deletePlan(ctx: Ctx, planId: number) {
  transact(ctx, (tx) => {
    getPlanRow(tx, planId)
    const inUse = tx.select({ n: count() }).from(companies).where(eq(companies.planId, planId)).get()?.n ?? 0
    if (inUse > 0)
      throw new AppError('ERR_PLAN_IN_USE', `${inUse} companies use this plan`, { companies: inUse })
    tx.delete(plans).where(eq(plans.id, planId)).run()
  })
}
