import type { Paged, PlanDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { PLAN_FLAGS } from '../../../shared/plans'
import type { PlanInput } from '../../../shared/schemas/companies'
import { isoTime } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import { listPage, pageWindow } from '../../db/paging'
import type { PlanRow } from '../../db/schema'
import { stmt } from '../../db/statements'

export const PLANS_PAGE_SIZE = 20

export function toPlanDto(row: PlanRow): PlanDto {
  const { valueCents, createdAt, updatedAt, ...rest } = row
  return { ...rest, value: valueCents / 100, createdAt: isoTime(createdAt)!, updatedAt: isoTime(updatedAt)! }
}

/** The plan's switches (`PLAN_FLAGS`): stored 0/1, answered as booleans. */
const FLAGS = PLAN_FLAGS

/** A row's columns in the table's order (the answer's key order), as `PlanRow` names them. */
const PLAN_COLUMNS = `id, name, value_cents AS valueCents, users, connections, queues, ${FLAGS.map(
  (flag) => `${columnOf(flag)} AS ${flag}`,
).join(', ')}, created_at AS createdAt, updated_at AS updatedAt`

type RawPlanRow = Omit<PlanRow, (typeof FLAGS)[number]> & Record<(typeof FLAGS)[number], number>

function columnOf(field: string) {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

function planRow(raw: RawPlanRow): PlanRow {
  const row = { ...raw } as unknown as PlanRow
  for (const flag of FLAGS) row[flag] = raw[flag] === 1
  return row
}

export function getPlanRow(db: Connection, planId: number): PlanRow {
  const row = stmt<RawPlanRow, [number]>(sqliteOf(db), `SELECT ${PLAN_COLUMNS} FROM plans WHERE id = ?`).get(
    planId,
  )
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND', 'Plan not found')
  return planRow(row)
}

/** Public: the sign-up page offers these. */
export function listPublicPlans(deps: Deps): PlanDto[] {
  return stmt<RawPlanRow, []>(deps.sqlite, `SELECT ${PLAN_COLUMNS} FROM plans ORDER BY value_cents, name`)
    .all()
    .map((raw) => toPlanDto(planRow(raw)))
}

export function listPlans(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'plans', PlanDto> {
  const at = pageWindow(query.pageNumber, PLANS_PAGE_SIZE)
  const term = query.searchParam?.trim() || null
  // Name contains the term, case-insensitive and literal; a null term matches every plan.
  const page = listPage<RawPlanRow, { term: string | null }>(
    ctx.sqlite,
    {
      columns: PLAN_COLUMNS,
      from: 'plans',
      where: '($term IS NULL OR instr(lower(name), lower($term)) > 0)',
      order: 'ORDER BY name',
    },
    { term },
    at,
  )
  return { plans: page.rows.map((raw) => toPlanDto(planRow(raw))), count: page.count, hasMore: page.hasMore }
}

/**
 * `GET /plans/{id}`: the super user any plan; a company's admin their company's plan (the checkout reads it), an
 * attendant of that company 403. Any other plan is not found to them.
 */
export function getPlan(ctx: Ctx, planId: number) {
  const actor = ctx.actor
  if (actor.kind !== 'user' || !actor.super) {
    const own = stmt<{ planId: number | null }, [number]>(
      ctx.sqlite,
      'SELECT plan_id AS planId FROM companies WHERE id = ?',
    ).get(actor.companyId)
    if (own?.planId !== planId) throw new AppError('ERR_NO_PLAN_FOUND', 'Plan not found')
    if (actor.kind !== 'user' || actor.profile !== 'admin')
      throw new AppError('ERR_NO_PERMISSION', "Only the company's admins can read its plan")
  }
  return toPlanDto(getPlanRow(ctx.sqlite, planId))
}

function columns(input: Partial<PlanInput>) {
  const { value, ...rest } = input
  return { ...rest, ...(value !== undefined ? { valueCents: Math.round(value * 100) } : {}) }
}

/** The given fields as columns and values, flags bound as 0/1. */
function assignments(input: Partial<PlanInput>) {
  return Object.entries(columns(input))
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => ({
      column: columnOf(field),
      value: typeof value === 'boolean' ? Number(value) : (value as string | number),
    }))
}

function assertNameFree(db: Connection, name: string, exceptId?: number) {
  const other = stmt<{ id: number }, [string]>(sqliteOf(db), 'SELECT id FROM plans WHERE name = ?').get(name)
  if (other && other.id !== exceptId)
    throw fieldError('name', 'Another plan has this name', 'ERR_PLAN_NAME_ALREADY_EXISTS')
}

export function createPlan(ctx: Ctx, input: PlanInput): PlanDto {
  return transact(ctx, (sqlite) => {
    assertNameFree(sqlite, input.name)
    const now = ctx.clock.now()
    const set = assignments({ ...input, name: input.name })
    const row = stmt<RawPlanRow, (string | number)[]>(
      sqlite,
      `INSERT INTO plans (${set.map((a) => a.column).join(', ')}, created_at, updated_at)
       VALUES (${set.map(() => '?').join(', ')}, ?, ?) RETURNING ${PLAN_COLUMNS}`,
    ).get(...set.map((a) => a.value), now, now) as RawPlanRow
    return toPlanDto(planRow(row))
  })
}

export function updatePlan(ctx: Ctx, planId: number, input: PlanInput): PlanDto {
  return transact(ctx, (sqlite) => {
    getPlanRow(sqlite, planId)
    assertNameFree(sqlite, input.name, planId)
    const set = assignments(input)
    const row = stmt<RawPlanRow, (string | number)[]>(
      sqlite,
      `UPDATE plans SET ${set.map((a) => `${a.column} = ?, `).join('')}updated_at = ? WHERE id = ?
       RETURNING ${PLAN_COLUMNS}`,
    ).get(...set.map((a) => a.value), ctx.clock.now(), planId) as RawPlanRow
    return toPlanDto(planRow(row))
  })
}

export function deletePlan(ctx: Ctx, planId: number) {
  transact(ctx, (sqlite) => {
    getPlanRow(sqlite, planId)
    const inUse =
      stmt<{ n: number }, [number]>(sqlite, 'SELECT count(*) AS n FROM companies WHERE plan_id = ?').get(
        planId,
      )?.n ?? 0
    if (inUse > 0)
      throw new AppError('ERR_PLAN_IN_USE', `${inUse} companies use this plan`, { companies: inUse })
    stmt<unknown, [number]>(sqlite, 'DELETE FROM plans WHERE id = ?').run(planId)
  })
}
