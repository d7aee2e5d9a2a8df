import type { Database } from 'bun:sqlite'
import type { LoginResponse, SessionUser } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { answeredDueDate } from '../../../shared/plans'
import { wallTimeOf } from '../../../shared/timezone'
import { assertCompanyOpen } from '../../access/company-access'
import type { LoginThrottle } from '../../access/throttle'
import { hashToken, newRefreshToken, REFRESH_TOKEN_TTL_MS, signAccessToken } from '../../access/tokens'
import type { Deps } from '../../context'
import { transact } from '../../context'
import type { CompanyRow, RawUserRow, UserRow, UserSessionRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import { channel, rooms } from '../../realtime/rooms'
import { getPlanRow, toPlanDto } from '../plans/service'
import { companySettings, companyTimeZone } from '../settings/service'
import { USER_COLUMNS, userRow } from '../users/dto'
import { userDto } from '../users/service'

/** Verifying against this when the e-mail is unknown keeps both answers equally slow (made on first need). */
let unknownUserHash: Promise<string> | undefined
const dummyHash = () => {
  unknownUserHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: 'argon2id' })
  return unknownUserHash
}

/** `refreshToken` null: keep the cookie the browser has (a refresh within the grace). */
export type Issued = LoginResponse & { refreshToken: string | null; sessionId: string }

type SessionCompany = Pick<CompanyRow, 'id' | 'name' | 'dueDate' | 'trialExpiration' | 'recurrence'> & {
  /** The plan's id when the plan exists. */
  planId: number | null
}

export function sessionUser(deps: Deps, user: UserRow): SessionUser {
  const company = stmt<SessionCompany, [number]>(
    deps.sqlite,
    `SELECT c.id, c.name, c.due_date AS dueDate, c.trial_expiration AS trialExpiration, c.recurrence,
            p.id AS planId
       FROM companies c LEFT JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`,
  ).get(user.companyId)
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  return {
    ...userDto(deps.sqlite, user),
    company: {
      id: company.id,
      name: company.name,
      // A company without a due date never expires; the spec's client locks out on a missing one.
      dueDate: answeredDueDate(company.dueDate),
      trialExpiration: company.trialExpiration,
      recurrence: company.recurrence,
      settings: companySettings(deps.sqlite, company.id),
      plan: company.planId != null ? toPlanDto(getPlanRow(deps.sqlite, company.planId)) : null,
    },
  }
}

/** A whole user row by id, or null. */
function userById(sqlite: Database, userId: number): UserRow | null {
  const raw = stmt<RawUserRow, [number]>(sqlite, `SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(userId)
  return raw ? userRow(raw) : null
}

/** A user the operator disabled (`balcao user disable`) cannot sign in or refresh a session. */
function assertUserEnabled(user: UserRow) {
  if (user.disabled) throw new AppError('ERR_USER_DISABLED', 'This user is disabled')
}

/** Whether `hhmm` (HH:mm) falls in a shift from `start` to `end`, both minutes included; past midnight when end < start. */
export function withinWorkHours(hhmm: string, start: string, end: string): boolean {
  return start <= end ? hhmm >= start && hhmm <= end : hhmm >= start || hhmm <= end
}

/**
 * A non-admin signs in only within their working hours (startWork to endWork, default the whole day), on the
 * company's clock. Checked at sign-in only, as the spec's client does: a session begun in time runs on.
 */
function assertWithinWorkHours(deps: Deps, user: UserRow) {
  if (user.profile === 'admin' || user.super) return
  const { hour, minute } = wallTimeOf(deps.clock.now(), companyTimeZone(deps.sqlite, user.companyId))
  const now = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
  if (!withinWorkHours(now, user.startWork, user.endWork))
    throw new AppError('ERR_OUT_OF_HOURS', 'Outside your working hours', {
      startWork: user.startWork,
      endWork: user.endWork,
    })
}

/** A company may be used while active and until the end of its due date. */
function assertCompanyUsable(deps: Deps, user: UserRow) {
  const company = stmt<{ id: number; status: number; dueDate: string | null }, [number]>(
    deps.sqlite,
    'SELECT id, status, due_date AS dueDate FROM companies WHERE id = ?',
  ).get(user.companyId)
  if (!company) throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid e-mail or password')
  assertCompanyOpen(deps, company, user.super)
}

async function issue(
  deps: Deps,
  user: UserRow,
  sessionId: string,
  refreshToken: string | null,
): Promise<Issued> {
  const token = await signAccessToken(deps, {
    sub: user.id,
    cid: user.companyId,
    sid: sessionId,
    profile: user.profile,
    super: user.super,
  })
  return { token, user: sessionUser(deps, user), refreshToken, sessionId }
}

export async function login(
  deps: Deps,
  throttle: LoginThrottle,
  input: { email: string; password: string; address: string; userAgent?: string },
): Promise<Issued> {
  // Counted before the slow hash: parallel guesses each take a place, instead of all passing the check
  // while the first ones are still hashing.
  const attempt = throttle.reserve(input.address, input.email)
  if ('retryAfter' in attempt) {
    throw new AppError('ERR_TOO_MANY_ATTEMPTS', 'Too many failed attempts. Try again later.', {
      retryAfter: attempt.retryAfter,
    })
  }
  const raw = stmt<RawUserRow, [string]>(
    deps.sqlite,
    `SELECT ${USER_COLUMNS} FROM users WHERE email = ?`,
  ).get(input.email)
  const user = raw ? userRow(raw) : null
  const valid = await Bun.password.verify(input.password, user?.passwordHash ?? (await dummyHash()))
  if (!user || !valid) throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid e-mail or password')
  throttle.succeed(attempt.reservation)
  assertUserEnabled(user)
  assertCompanyUsable(deps, user)
  assertWithinWorkHours(deps, user)

  const sessionId = crypto.randomUUID()
  const refreshToken = newRefreshToken()
  const now = deps.clock.now()
  transact(deps, (sqlite, events) => {
    // One browser session per user: signing in elsewhere ends the others and tells them, live; their
    // sockets close a moment later, once the message has reached them.
    const ended = stmt<{ id: string }, [number]>(
      sqlite,
      'SELECT id FROM user_sessions WHERE user_id = ? AND revoked_at IS NULL',
    ).all(user.id)
    events.afterCommit(() => {
      if (ended.length === 0) return
      setTimeout(() => {
        for (const { id } of ended) deps.hub.disconnectSession(id, 'signed in elsewhere')
      }, 1000).unref?.()
    })
    stmt<unknown, [number, number]>(
      sqlite,
      'UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL',
    ).run(now, user.id)
    stmt<unknown, [string, number, string, string | null, number, number, number]>(
      sqlite,
      `INSERT INTO user_sessions (id, user_id, refresh_token_hash, user_agent, created_at, last_used_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      sessionId,
      user.id,
      hashToken(refreshToken),
      input.userAgent?.slice(0, 300) ?? null,
      now,
      now,
      now + REFRESH_TOKEN_TTL_MS,
    )
    stmt<unknown, [number, number]>(sqlite, 'UPDATE companies SET last_login = ? WHERE id = ?').run(
      now,
      user.companyId,
    )
    events.publish(rooms.user(user.companyId, user.id), channel(user.companyId, 'auth'), {
      action: 'update',
      user: { id: user.id },
      sessionId,
    })
  })
  return issue(deps, user, sessionId, refreshToken)
}

/**
 * How long the token a refresh just replaced still answers: tabs of one browser that refresh at once all send
 * the cookie they had, and only the first one rotates it.
 */
export const REFRESH_GRACE_MS = 30 * 1000

/**
 * Exchanges a refresh token for a new access token, rotating the refresh token. The token just replaced, sent
 * again within the grace, answers the session without rotating (the browser already holds the new cookie);
 * sent later, it is a stolen copy in use (or the stolen one was used first): the session ends for both holders.
 */
export async function refresh(deps: Deps, refreshToken: string | undefined): Promise<Issued> {
  if (!refreshToken) throw new AppError('ERR_NO_TOKEN', 'Sign in first')
  const now = deps.clock.now()
  const hash = hashToken(refreshToken)
  const session = sessionWhere(deps.sqlite, 'refresh_token_hash', hash)
  if (!session) return replayed(deps, hash, now)
  if (session.revokedAt != null || session.expiresAt <= now) {
    throw new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  }
  const user = usableUser(deps, session.userId)
  const rotated = newRefreshToken()
  stmt<unknown, [string, string, number, number, number, string]>(
    deps.sqlite,
    `UPDATE user_sessions SET refresh_token_hash = ?, previous_token_hash = ?, rotated_at = ?, last_used_at = ?,
       expires_at = ? WHERE id = ?`,
  ).run(hashToken(rotated), hash, now, now, now + REFRESH_TOKEN_TTL_MS, session.id)
  return issue(deps, user, session.id, rotated)
}

type SessionState = Pick<UserSessionRow, 'id' | 'userId' | 'rotatedAt' | 'expiresAt' | 'revokedAt'>

/** The session whose current (`refresh_token_hash`) or replaced (`previous_token_hash`) token has this hash. */
function sessionWhere(
  sqlite: Database,
  column: 'refresh_token_hash' | 'previous_token_hash',
  hash: string,
): SessionState | null {
  return stmt<SessionState, [string]>(
    sqlite,
    `SELECT id, user_id AS userId, rotated_at AS rotatedAt, expires_at AS expiresAt, revoked_at AS revokedAt
       FROM user_sessions WHERE ${column} = ?`,
  ).get(hash)
}

function usableUser(deps: Deps, userId: number): UserRow {
  const user = userById(deps.sqlite, userId)
  if (!user) throw new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  assertUserEnabled(user)
  assertCompanyUsable(deps, user)
  return user
}

/** A refresh token that is no session's current one: the one a session replaced, or nothing we know. */
async function replayed(deps: Deps, hash: string, now: number): Promise<Issued> {
  const session = sessionWhere(deps.sqlite, 'previous_token_hash', hash)
  const ended = () => new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  if (!session || session.revokedAt != null || session.expiresAt <= now) throw ended()
  if (session.rotatedAt != null && now - session.rotatedAt <= REFRESH_GRACE_MS) {
    // No new cookie: the tab that rotated has set it for the whole browser.
    return issue(deps, usableUser(deps, session.userId), session.id, null)
  }
  revokeSession(deps.sqlite, now, session.id)
  deps.hub.disconnectSession(session.id, 'refresh token reused')
  deps.log.warn('a replaced refresh token was used again: the session was ended', {
    userId: session.userId,
    sessionId: session.id,
  })
  throw ended()
}

export function logout(deps: Deps, by: { sessionId?: string; refreshToken?: string }) {
  const now = deps.clock.now()
  if (by.sessionId) {
    revokeSession(deps.sqlite, now, by.sessionId)
    deps.hub.disconnectSession(by.sessionId, 'signed out')
  }
  if (by.refreshToken) {
    stmt<unknown, [number, string]>(
      deps.sqlite,
      'UPDATE user_sessions SET revoked_at = ? WHERE refresh_token_hash = ?',
    ).run(now, hashToken(by.refreshToken))
  }
}

function revokeSession(sqlite: Database, now: number, sessionId: string) {
  stmt<unknown, [number, string]>(sqlite, 'UPDATE user_sessions SET revoked_at = ? WHERE id = ?').run(
    now,
    sessionId,
  )
}

export function me(deps: Deps, userId: number): SessionUser {
  const user = userById(deps.sqlite, userId)
  if (!user) throw new AppError('ERR_NO_USER_FOUND', 'User not found')
  return sessionUser(deps, user)
}

/**
 * Marks a user online (their first socket opened, or the client's 5-minute userStatus) or offline (their last
 * socket closed). Writes and publishes only when the flag changes: userStatus repeats what is already true
 * almost always, and one write per frame let a single socket slow the whole server. `lastSeenAt` is therefore
 * the time of the last change: when they came online, or when they left.
 */
export function setOnline(deps: Deps, userId: number, online: boolean) {
  transact(deps, (sqlite, events) => {
    const user = userById(sqlite, userId)
    if (!user || user.online === online) return
    const row = { ...user, online, lastSeenAt: deps.clock.now() }
    stmt<unknown, [number, number, number]>(
      sqlite,
      'UPDATE users SET online = ?, last_seen_at = ? WHERE id = ?',
    ).run(Number(online), row.lastSeenAt, userId)
    events.publish(rooms.company(user.companyId), channel(user.companyId, 'user'), {
      action: 'update',
      user: userDto(sqlite, row),
    })
  })
}
