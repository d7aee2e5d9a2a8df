import { and, eq, isNull } from 'drizzle-orm'
import type { LoginResponse, SessionUser } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { answeredDueDate } from '../../../shared/plans'
import { wallTimeOf } from '../../../shared/timezone'
import { assertCompanyOpen } from '../../access/company-access'
import type { LoginThrottle } from '../../access/throttle'
import { hashToken, newRefreshToken, REFRESH_TOKEN_TTL_MS, signAccessToken } from '../../access/tokens'
import type { Deps } from '../../context'
import { transact } from '../../context'
import { companies, plans, type UserRow, userSessions, users } from '../../db/schema'
import { channel, rooms } from '../../realtime/rooms'
import { toPlanDto } from '../plans/service'
import { companySettings, companyTimeZone } from '../settings/service'
import { userDto } from '../users/service'

/** Verifying against this when the e-mail is unknown keeps both answers equally slow (made on first need). */
let unknownUserHash: Promise<string> | undefined
const dummyHash = () => {
  unknownUserHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: 'argon2id' })
  return unknownUserHash
}

/** `refreshToken` null: keep the cookie the browser has (a refresh within the grace). */
export type Issued = LoginResponse & { refreshToken: string | null; sessionId: string }

export function sessionUser(deps: Deps, user: UserRow): SessionUser {
  const row = deps.db
    .select({ company: companies, plan: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, user.companyId))
    .get()
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  return {
    ...userDto(deps.db, user),
    company: {
      id: row.company.id,
      name: row.company.name,
      // A company without a due date never expires; the spec's client locks out on a missing one.
      dueDate: answeredDueDate(row.company.dueDate),
      trialExpiration: row.company.trialExpiration,
      recurrence: row.company.recurrence,
      settings: companySettings(deps.db, row.company.id),
      plan: row.plan ? toPlanDto(row.plan) : null,
    },
  }
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
  const company = deps.db
    .select({ id: companies.id, status: companies.status, dueDate: companies.dueDate })
    .from(companies)
    .where(eq(companies.id, user.companyId))
    .get()
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
  const user = deps.db.select().from(users).where(eq(users.email, input.email)).get()
  const valid = await Bun.password.verify(input.password, user?.passwordHash ?? (await dummyHash()))
  if (!user || !valid) throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid e-mail or password')
  throttle.succeed(attempt.reservation)
  assertUserEnabled(user)
  assertCompanyUsable(deps, user)
  assertWithinWorkHours(deps, user)

  const sessionId = crypto.randomUUID()
  const refreshToken = newRefreshToken()
  const now = deps.clock.now()
  transact(deps, (tx, events) => {
    // One browser session per user: signing in elsewhere ends the others and tells them, live; their
    // sockets close a moment later, once the message has reached them.
    const ended = tx
      .select({ id: userSessions.id })
      .from(userSessions)
      .where(and(eq(userSessions.userId, user.id), isNull(userSessions.revokedAt)))
      .all()
    events.afterCommit(() => {
      if (ended.length === 0) return
      setTimeout(() => {
        for (const { id } of ended) deps.hub.disconnectSession(id, 'signed in elsewhere')
      }, 1000).unref?.()
    })
    tx.update(userSessions)
      .set({ revokedAt: now })
      .where(and(eq(userSessions.userId, user.id), isNull(userSessions.revokedAt)))
      .run()
    tx.insert(userSessions)
      .values({
        id: sessionId,
        userId: user.id,
        refreshTokenHash: hashToken(refreshToken),
        userAgent: input.userAgent?.slice(0, 300) ?? null,
        createdAt: now,
        lastUsedAt: now,
        expiresAt: now + REFRESH_TOKEN_TTL_MS,
      })
      .run()
    tx.update(companies).set({ lastLogin: now }).where(eq(companies.id, user.companyId)).run()
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
  const session = deps.db.select().from(userSessions).where(eq(userSessions.refreshTokenHash, hash)).get()
  if (!session) return replayed(deps, hash, now)
  if (session.revokedAt != null || session.expiresAt <= now) {
    throw new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  }
  const user = usableUser(deps, session.userId)
  const rotated = newRefreshToken()
  deps.db
    .update(userSessions)
    .set({
      refreshTokenHash: hashToken(rotated),
      previousTokenHash: hash,
      rotatedAt: now,
      lastUsedAt: now,
      expiresAt: now + REFRESH_TOKEN_TTL_MS,
    })
    .where(eq(userSessions.id, session.id))
    .run()
  return issue(deps, user, session.id, rotated)
}

function usableUser(deps: Deps, userId: number): UserRow {
  const user = deps.db.select().from(users).where(eq(users.id, userId)).get()
  if (!user) throw new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  assertUserEnabled(user)
  assertCompanyUsable(deps, user)
  return user
}

/** A refresh token that is no session's current one: the one a session replaced, or nothing we know. */
async function replayed(deps: Deps, hash: string, now: number): Promise<Issued> {
  const session = deps.db.select().from(userSessions).where(eq(userSessions.previousTokenHash, hash)).get()
  const ended = () => new AppError('ERR_INVALID_TOKEN', 'This session has ended')
  if (!session || session.revokedAt != null || session.expiresAt <= now) throw ended()
  if (session.rotatedAt != null && now - session.rotatedAt <= REFRESH_GRACE_MS) {
    // No new cookie: the tab that rotated has set it for the whole browser.
    return issue(deps, usableUser(deps, session.userId), session.id, null)
  }
  deps.db.update(userSessions).set({ revokedAt: now }).where(eq(userSessions.id, session.id)).run()
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
    deps.db.update(userSessions).set({ revokedAt: now }).where(eq(userSessions.id, by.sessionId)).run()
    deps.hub.disconnectSession(by.sessionId, 'signed out')
  }
  if (by.refreshToken) {
    deps.db
      .update(userSessions)
      .set({ revokedAt: now })
      .where(eq(userSessions.refreshTokenHash, hashToken(by.refreshToken)))
      .run()
  }
}

export function me(deps: Deps, userId: number): SessionUser {
  const user = deps.db.select().from(users).where(eq(users.id, userId)).get()
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
  transact(deps, (tx, events) => {
    const user = tx.select().from(users).where(eq(users.id, userId)).get()
    if (!user || user.online === online) return
    const row = { ...user, online, lastSeenAt: deps.clock.now() }
    tx.update(users).set({ online, lastSeenAt: row.lastSeenAt }).where(eq(users.id, userId)).run()
    events.publish(rooms.company(user.companyId), channel(user.companyId, 'user'), {
      action: 'update',
      user: userDto(tx, row),
    })
  })
}
