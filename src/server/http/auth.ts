import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../shared/errors'
import { can, type Permission } from '../../shared/permissions'
import { type PlanFlag, planAllows } from '../../shared/plans'
import { assertCompanyOpen } from '../access/company-access'
import { verifyAccessToken } from '../access/tokens'
import { type Actor, type Ctx, type Deps, isAdminActor, type UserActor } from '../context'
import type { AppEnv } from './env'

type SessionRow = { userId: number; revokedAt: number | null }
type UserRow = {
  id: number
  companyId: number
  profile: UserActor['profile']
  super: number
  isTricked: 'enabled' | 'disabled'
  disabled: number
}
type CompanyRow = { status: number; dueDate: string | null }

/**
 * Resolves a token to the acting user. The user, the session and the company are read on every request, so a deleted user, a demoted admin, a signed-out session or a deactivated or
 * expired company lose access at once, not when the token expires.
 */
export async function authenticate(deps: Deps, token: string | undefined | null): Promise<UserActor> {
  const claims = await verifyAccessToken(deps, token)
  // Three primary-key lookups: SQLite answers them in about 1 µs together, where the same as one join took ~10 µs.
  const session = deps.sqlite
    .query<SessionRow, [string]>(
      'SELECT user_id AS userId, revoked_at AS revokedAt FROM user_sessions WHERE id = ?',
    )
    .get(claims.sid)
  if (!session || session.revokedAt != null || session.userId !== claims.sub)
    throw new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  const row = deps.sqlite
    .query<UserRow, [number]>(
      'SELECT id, company_id AS companyId, profile, super, is_tricked AS isTricked, disabled FROM users WHERE id = ?',
    )
    .get(claims.sub)
  if (!row) throw new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  if (row.disabled) throw new AppError('ERR_USER_DISABLED', 'This user is disabled')
  const company = deps.sqlite
    .query<CompanyRow, [number]>('SELECT status, due_date AS dueDate FROM companies WHERE id = ?')
    .get(row.companyId)
  if (!company) throw new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  assertCompanyOpen(deps, { id: row.companyId, ...company }, !!row.super)
  return {
    kind: 'user',
    userId: row.id,
    companyId: row.companyId,
    profile: row.profile,
    super: !!row.super,
    sessionId: claims.sid,
    isTricked: row.isTricked,
  }
}

export function bearer(header: string | undefined) {
  const match = header?.match(/^Bearer\s+(.+)$/i)
  return match?.[1]
}

export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A plan gate in front of the area may have authenticated the request already.
  if (!c.get('actor'))
    c.set('actor', await authenticate(c.get('deps'), bearer(c.req.header('authorization'))))
  await next()
}

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isAdminActor(c.get('actor'))) throw new AppError('ERR_NO_PERMISSION', 'Only admins can do this')
  await next()
}

/** Gates a route on one of the spec's permissions (the list the web uses too). */
export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.get('actor')
    if (actor.kind !== 'user' || !can(actor, permission))
      throw new AppError('ERR_NO_PERMISSION', `Missing permission ${permission}`)
    await next()
  }
}

export const requireSuper: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get('actor')
  if (actor.kind !== 'user' || !actor.super)
    throw new AppError('ERR_NO_PERMISSION', 'Only the platform administrator can do this')
  await next()
}

/** Gates a whole area on a plan flag, on the server, whatever the menu shows. */
export function requirePlanFeature(flag: PlanFlag): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { sqlite } = c.get('deps')
    const plan = sqlite
      .query<Record<string, number>, [number]>(
        `SELECT p.* FROM companies c JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`,
      )
      .get(c.get('actor').companyId)
    const column = flag.replace(/[A-Z]/g, (l) => `_${l.toLowerCase()}`)
    if (!plan || !planAllows({ [flag]: plan[column] !== 0 }, flag)) {
      throw new AppError('ERR_PLAN_FEATURE_DISABLED', `The company's plan does not include ${flag}`, { flag })
    }
    await next()
  }
}

/** The service context for the current request. */
export function ctxOf(c: { get(key: 'deps'): Deps; get(key: 'actor'): Actor }): Ctx {
  return { ...c.get('deps'), actor: c.get('actor') }
}
