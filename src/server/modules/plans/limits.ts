import type { Database } from 'bun:sqlite'
import { AppError, type ErrorCode } from '../../../shared/errors'
import type { Actor } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import { stmt } from '../../db/statements'

export type PlanLimit = 'users' | 'queues' | 'connections'

/** What a plan counts (its column in `plans`), the table it counts in, and the error answered at the limit. */
const LIMITS: Record<PlanLimit, { table: string; code: ErrorCode; noun: string }> = {
  users: { table: 'users', code: 'ERR_USER_LIMIT_REACHED', noun: 'users' },
  queues: { table: 'queues', code: 'ERR_QUEUE_LIMIT_REACHED', noun: 'queues' },
  connections: { table: 'whatsapps', code: 'ERR_CONNECTION_LIMIT_REACHED', noun: 'connections' },
}

/**
 * Refuses to add one more of `limit` when the company's plan is already at its number (0 means no limit).
 * Call it inside the transaction that inserts, passing that transaction as `db`, so two parallel creations
 * cannot both pass.
 */
export function assertWithinPlanLimit(
  ctx: { sqlite: Database; actor: Pick<Actor, 'companyId'> },
  limit: PlanLimit,
  db: Connection = ctx.sqlite,
) {
  const { companyId } = ctx.actor
  const sqlite = sqliteOf(db)
  const max = stmt<{ max: number }, [number]>(
    sqlite,
    `SELECT p.${limit} AS max FROM companies c INNER JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`,
  ).get(companyId)?.max
  if (!max) return
  const { table, code, noun } = LIMITS[limit]
  const current =
    stmt<{ n: number }, [number]>(sqlite, `SELECT count(*) AS n FROM ${table} WHERE company_id = ?`).get(
      companyId,
    )?.n ?? 0
  if (current >= max) throw new AppError(code, `The company's plan allows ${max} ${noun}`, { limit: max })
}
