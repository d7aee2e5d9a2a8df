import { count, eq } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { AppError, type ErrorCode } from '../../../shared/errors'
import type { Actor } from '../../context'
import type { DB } from '../../db/client'
import { companies, plans, queues, users, whatsapps } from '../../db/schema'

export type PlanLimit = 'users' | 'queues' | 'connections'

/** What a plan counts, the table it counts in, and the error answered at the limit. */
const LIMITS: Record<PlanLimit, { table: SQLiteTable; column: SQLiteColumn; code: ErrorCode; noun: string }> =
  {
    users: { table: users, column: users.companyId, code: 'ERR_USER_LIMIT_REACHED', noun: 'users' },
    queues: { table: queues, column: queues.companyId, code: 'ERR_QUEUE_LIMIT_REACHED', noun: 'queues' },
    connections: {
      table: whatsapps,
      column: whatsapps.companyId,
      code: 'ERR_CONNECTION_LIMIT_REACHED',
      noun: 'connections',
    },
  }

/**
 * Refuses to add one more of `limit` when the company's plan is already at its number (0 means no limit).
 * Call it inside the transaction that inserts, passing that transaction as `db`, so two parallel creations
 * cannot both pass.
 */
export function assertWithinPlanLimit(
  ctx: { db: DB; actor: Pick<Actor, 'companyId'> },
  limit: PlanLimit,
  db: DB = ctx.db,
) {
  const { companyId } = ctx.actor
  const max = db
    .select({ max: plans[limit] })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .get()?.max
  if (!max) return
  const { table, column, code, noun } = LIMITS[limit]
  const current = db.select({ n: count() }).from(table).where(eq(column, companyId)).get()?.n ?? 0
  if (current >= max) throw new AppError(code, `The company's plan allows ${max} ${noun}`, { limit: max })
}
