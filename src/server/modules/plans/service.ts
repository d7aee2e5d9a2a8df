import { asc, count, eq, sql } from 'drizzle-orm'
import type { Paged, PlanDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { PlanInput } from '../../../shared/schemas/companies'
import { isoTime } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { transact } from '../../context'
import type { DB } from '../../db/client'
import { pageCount, pageOf, pageWindow, preparedOnce } from '../../db/paging'
import { companies, type PlanRow, plans } from '../../db/schema'

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

/** Name contains the term, case-insensitive and literal; a null term matches every plan. */
const nameMatches = () =>
  sql`(${sql.placeholder('term')} IS NULL OR instr(lower(${plans.name}), lower(${sql.placeholder('term')})) > 0)`

const plansPage = preparedOnce((db) =>
  db
    .select()
    .from(plans)
    .where(nameMatches())
    .orderBy(asc(plans.name))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(),
)

const plansCount = preparedOnce((db) => db.select({ n: count() }).from(plans).where(nameMatches()).prepare())

export function listPlans(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'plans', PlanDto> {
  const at = pageWindow(query.pageNumber, PLANS_PAGE_SIZE)
  const term = query.searchParam?.trim() || null
  const page = pageOf(plansPage(ctx.db).all({ term, limit: at.limit, offset: at.offset }), at)
  return {
    plans: page.rows.map(toPlanDto),
    count: pageCount(page, () => plansCount(ctx.db).get({ term })?.n ?? 0),
    hasMore: page.hasMore,
  }
}

/**
 * `GET /plans/{id}`: the super user any plan; a company's admin their company's plan (the checkout reads it), an
 * attendant of that company 403. Any other plan is not found to them.
 */
export function getPlan(ctx: Ctx, planId: number) {
  const actor = ctx.actor
  if (actor.kind !== 'user' || !actor.super) {
    const own = ctx.db
      .select({ planId: companies.planId })
      .from(companies)
      .where(eq(companies.id, actor.companyId))
      .get()
    if (own?.planId !== planId) throw new AppError('ERR_NO_PLAN_FOUND', 'Plan not found')
    if (actor.kind !== 'user' || actor.profile !== 'admin')
      throw new AppError('ERR_NO_PERMISSION', "Only the company's admins can read its plan")
  }
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
