import { and, asc, count, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm'
import type { Paged, UserDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { isAdmin } from '../../../shared/permissions'
import type { CreateUserInput, UpdateUserInput } from '../../../shared/schemas/users'
import { assertCurrentPassword } from '../../access/current-password'
import type { Ctx, Deps, UserActor } from '../../context'
import { transact, userActor } from '../../context'
import type { DB } from '../../db/client'
import { pageCount, pageOf, pageWindow, preparedOnce } from '../../db/paging'
import { queues, type UserRow, userQueues, userSessions, users, whatsapps } from '../../db/schema'
import type { EventBuffer } from '../../realtime/hub'
import { channel, fullRoom, rooms } from '../../realtime/rooms'
import { assertWithinPlanLimit } from '../plans/limits'
import { queuesOfUsers, toUserDto } from './dto'

export const USERS_PAGE_SIZE = 20

/** Fields an attendant may change on their own profile; everything else needs an admin. */
const SELF_EDITABLE = new Set(['name', 'email', 'password', 'farewellMessage', 'defaultTheme', 'defaultMenu'])

export function hashPassword(password: string) {
  return Bun.password.hash(password, { algorithm: 'argon2id' })
}

/** The one way to load a user: another company's id is simply not found. */
export function getUserRowInCompany(db: DB, companyId: number, userId: number): UserRow {
  const row = db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)))
    .get()
  if (!row) throw new AppError('ERR_NO_USER_FOUND', 'User not found')
  return row
}

export function userDto(db: DB, row: UserRow): UserDto {
  return toUserDto(row, queuesOfUsers(db, [row.id]).get(row.id) ?? [])
}

/**
 * The rooms a user's live sockets belong in: their company, their own, admins, each of their queues, and the
 * platform-wide `everyone` room (announcements). A user whose isTricked is 'enabled' sees phone numbers in full,
 * so gets the `#full` flavour of each room
 * (see `fullRoom`); publishUser resubscribes the user's sockets after every update, isTricked included.
 */
export function roomsOfUser(db: DB, userId: number): string[] {
  const user = db.select().from(users).where(eq(users.id, userId)).get()
  if (!user) return []
  const list = [rooms.company(user.companyId), rooms.user(user.companyId, user.id), rooms.everyone]
  if (isAdmin(user)) list.push(rooms.admins(user.companyId))
  const queueIds = db
    .select({ id: userQueues.queueId })
    .from(userQueues)
    .where(eq(userQueues.userId, userId))
    .all()
  for (const { id } of queueIds) list.push(rooms.queue(user.companyId, id))
  // Tickets without a queue reach admins through their room, and the attendants allowed to see them here.
  if (!isAdmin(user) && user.allTicket === 'enable') list.push(rooms.noQueue(user.companyId))
  return user.isTricked === 'enabled' ? list.map(fullRoom) : list
}

/** `name or e-mail contains term`, case-insensitive, literal (no wildcards); a null term matches all. */
function usersWhere(): SQL | undefined {
  const term = sql.placeholder('term')
  return and(
    eq(users.companyId, sql.placeholder('companyId')),
    sql`(${term} IS NULL OR instr(lower(${users.name}), lower(${term})) > 0
         OR instr(lower(${users.email}), lower(${term})) > 0)`,
  )
}

/** The users page: prepared once per database, the example hot lists follow (see db/paging.ts). */
const usersPage = preparedOnce((db) =>
  db
    .select()
    .from(users)
    .where(usersWhere())
    .orderBy(asc(users.name), asc(users.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(),
)

const usersCount = preparedOnce((db) => db.select({ n: count() }).from(users).where(usersWhere()).prepare())

export function listUsers(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'users', UserDto> {
  const at = pageWindow(query.pageNumber, USERS_PAGE_SIZE)
  const filter = { companyId: ctx.actor.companyId, term: query.searchParam?.trim() || null }
  const page = pageOf(usersPage(ctx.db).all({ ...filter, limit: at.limit, offset: at.offset }), at)
  const queueRefs = queuesOfUsers(
    ctx.db,
    page.rows.map((r) => r.id),
  )
  return {
    users: page.rows.map((r) => toUserDto(r, queueRefs.get(r.id) ?? [])),
    count: pageCount(page, () => usersCount(ctx.db).get(filter)?.n ?? 0),
    hasMore: page.hasMore,
  }
}

export function listAllUsers(ctx: Ctx): UserDto[] {
  const rows = ctx.db
    .select()
    .from(users)
    .where(eq(users.companyId, ctx.actor.companyId))
    .orderBy(asc(users.name))
    .all()
  const queueRefs = queuesOfUsers(
    ctx.db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => toUserDto(r, queueRefs.get(r.id) ?? []))
}

export function getUser(ctx: Ctx, userId: number): UserDto {
  const actor = userActor(ctx)
  if (!isAdmin(actor) && userId !== actor.userId)
    throw new AppError('ERR_NO_PERMISSION', 'Only admins can see other users')
  return userDto(ctx.db, getUserRowInCompany(ctx.db, ctx.actor.companyId, userId))
}

function assertEmailFree(db: DB, email: string, exceptUserId?: number) {
  const other = db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()
  if (other && other.id !== exceptUserId)
    throw fieldError('email', 'This e-mail is already in use', 'ERR_EMAIL_ALREADY_EXISTS')
}

function assertQueuesInCompany(db: DB, companyId: number, queueIds: number[]) {
  const unique = [...new Set(queueIds)]
  if (unique.length === 0) return unique
  const found = db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), inArray(queues.id, unique)))
    .all()
  if (found.length !== unique.length) throw fieldError('queueIds', 'Unknown queue')
  return unique
}

/** The default connection must be one of the company's own. */
function assertConnection(db: DB, companyId: number, whatsappId: number | null | undefined) {
  if (whatsappId == null) return
  const found = db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.id, whatsappId), eq(whatsapps.companyId, companyId)))
    .get()
  if (!found) throw fieldError('whatsappId', 'Unknown connection')
}

function setUserQueues(tx: DB, userId: number, queueIds: number[]) {
  tx.delete(userQueues).where(eq(userQueues.userId, userId)).run()
  if (queueIds.length)
    tx.insert(userQueues)
      .values(queueIds.map((queueId) => ({ userId, queueId })))
      .run()
}

export function publishUser(deps: Deps, events: EventBuffer, user: UserDto, action: 'create' | 'update') {
  events.publish(rooms.company(user.companyId), channel(user.companyId, 'user'), { action, user })
  events.afterCommit(() => deps.hub.resubscribeUser(user.id, roomsOfUser(deps.db, user.id)))
}

/** Creates a user in a company; used by the users area and by company creation. */
export function insertUser(
  tx: DB,
  companyId: number,
  input: Omit<CreateUserInput, 'password'> & { passwordHash: string; super?: boolean },
  now: number,
): UserRow {
  const { queueIds = [], passwordHash, ...fields } = input
  const row = tx
    .insert(users)
    .values({ ...fields, companyId, passwordHash, createdAt: now, updatedAt: now })
    .returning()
    .get()
  setUserQueues(tx, row.id, queueIds)
  return row
}

export async function createUser(ctx: Ctx, input: CreateUserInput): Promise<UserDto> {
  assertConnection(ctx.db, ctx.actor.companyId, input.whatsappId)
  const passwordHash = await hashPassword(input.password)
  const { password: _password, ...fields } = input
  return transact(ctx, (tx, events) => {
    assertWithinPlanLimit(ctx, 'users', tx)
    assertEmailFree(tx, input.email)
    const queueIds = assertQueuesInCompany(tx, ctx.actor.companyId, input.queueIds ?? [])
    const row = insertUser(tx, ctx.actor.companyId, { ...fields, queueIds, passwordHash }, ctx.clock.now())
    const dto = userDto(tx, row)
    publishUser(ctx, events, dto, 'create')
    return dto
  })
}

/** Super users are the platform's administrators: only another super user may change or remove one. */
function assertMayManage(actor: UserActor, target: UserRow) {
  if (target.super && !actor.super)
    throw new AppError('ERR_NO_PERMISSION', 'Only a super user can change or delete a super user')
}

function assertAnotherSuper(db: DB, exceptUserId: number) {
  const other = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.super, true), eq(users.disabled, false), ne(users.id, exceptUserId)))
    .get()
  if (!other) throw new AppError('ERR_LAST_SUPER_USER', 'The platform needs at least one super user')
}

/**
 * Ends a user's sessions after their password changed, except the one that changed it: whoever knew the
 * old password is signed out everywhere else.
 */
export function endOtherSessions(ctx: Ctx, tx: DB, events: EventBuffer, userId: number, keep: string | null) {
  const open = and(
    eq(userSessions.userId, userId),
    isNull(userSessions.revokedAt),
    keep ? ne(userSessions.id, keep) : undefined,
  )
  const ended = tx.select({ id: userSessions.id }).from(userSessions).where(open).all()
  if (ended.length === 0) return
  tx.update(userSessions).set({ revokedAt: ctx.clock.now() }).where(open).run()
  events.afterCommit(() => {
    for (const { id } of ended) ctx.hub.disconnectSession(id, 'password changed')
  })
}

export async function updateUser(ctx: Ctx, userId: number, input: UpdateUserInput): Promise<UserDto> {
  const actor = userActor(ctx)
  const current = getUserRowInCompany(ctx.db, actor.companyId, userId)
  const admin = isAdmin(actor)
  const self = userId === actor.userId
  if (!admin) {
    if (!self) throw new AppError('ERR_NO_PERMISSION', 'You can only edit your own profile')
    const currentQueues = (queuesOfUsers(ctx.db, [userId]).get(userId) ?? []).map((q) => q.id).sort()
    for (const [key, value] of Object.entries(input)) {
      if (SELF_EDITABLE.has(key) || key === 'currentPassword' || value === undefined) continue
      const unchanged =
        key === 'queueIds'
          ? JSON.stringify([...(value as number[])].sort()) === JSON.stringify(currentQueues)
          : (current as Record<string, unknown>)[key] === value
      if (!unchanged) throw new AppError('ERR_NO_PERMISSION', `Only admins can change ${key}`, { field: key })
    }
  }
  assertMayManage(actor, current)
  const changesPassword = !!input.password
  if (self && (changesPassword || (input.email !== undefined && input.email !== current.email)))
    await assertCurrentPassword(ctx, actor, current, input.currentPassword)
  if (input.whatsappId !== undefined) assertConnection(ctx.db, actor.companyId, input.whatsappId)
  const passwordHash = changesPassword ? await hashPassword(input.password!) : undefined
  const { password: _password, currentPassword: _current, queueIds, ...fields } = input
  return transact(ctx, (tx, events) => {
    if (fields.email && fields.email !== current.email) assertEmailFree(tx, fields.email, userId)
    if (admin && current.profile === 'admin' && fields.profile === 'user') {
      if (current.super) assertAnotherSuper(tx, userId)
      assertAnotherAdmin(tx, actor.companyId, userId)
    }
    const patch = admin ? fields : pick(fields, SELF_EDITABLE)
    tx.update(users)
      .set({ ...patch, ...(passwordHash ? { passwordHash } : {}), updatedAt: ctx.clock.now() })
      .where(eq(users.id, userId))
      .run()
    if (admin && queueIds) setUserQueues(tx, userId, assertQueuesInCompany(tx, actor.companyId, queueIds))
    if (passwordHash) endOtherSessions(ctx, tx, events, userId, self ? actor.sessionId : null)
    const dto = userDto(tx, getUserRowInCompany(tx, actor.companyId, userId))
    publishUser(ctx, events, dto, 'update')
    return dto
  })
}

function assertAnotherAdmin(db: DB, companyId: number, exceptUserId: number) {
  const admins = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, 'admin')))
    .all()
  if (!admins.some((a) => a.id !== exceptUserId))
    throw new AppError('ERR_LAST_ADMIN', 'A company needs at least one admin')
}

export function deleteUser(ctx: Ctx, userId: number) {
  const actor = userActor(ctx)
  if (userId === actor.userId) throw new AppError('ERR_CANNOT_DELETE_SELF', 'You cannot delete yourself')
  transact(ctx, (tx, events) => {
    const row = getUserRowInCompany(tx, actor.companyId, userId)
    assertMayManage(actor, row)
    if (row.super) assertAnotherSuper(tx, userId)
    if (row.profile === 'admin') assertAnotherAdmin(tx, actor.companyId, userId)
    tx.delete(users).where(eq(users.id, userId)).run()
    events.publish(rooms.company(row.companyId), channel(row.companyId, 'user'), { action: 'delete', userId })
    events.afterCommit(() => ctx.hub.disconnectUser(userId, 'user deleted'))
  })
}

/** Sets a new password from the terminal and ends the user's sessions (and, on the running server, their sockets). */
export async function resetPassword(deps: Deps, email: string, password: string) {
  const passwordHash = await hashPassword(password)
  const user = deps.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get()
  if (!user) throw new AppError('ERR_NO_USER_FOUND', `No user with e-mail ${email}`)
  const now = deps.clock.now()
  transact(deps, (tx, events) => {
    tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id)).run()
    tx.update(userSessions).set({ revokedAt: now }).where(eq(userSessions.userId, user.id)).run()
    events.afterCommit(() => deps.hub.disconnectUser(user.id, 'password changed'))
  })
  return { id: user.id, email: user.email, companyId: user.companyId }
}

/**
 * Disables a user (`balcao user disable`) or enables them again. A disabled user cannot sign in (ERR_USER_DISABLED)
 * and their sessions and sockets end at once. The last enabled super user cannot be disabled.
 */
export function setUserDisabled(ctx: Ctx, userId: number, disabled: boolean): UserDto {
  const actor = userActor(ctx)
  if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION', 'Only admins can disable or enable users')
  return transact(ctx, (tx, events) => {
    const row = getUserRowInCompany(tx, actor.companyId, userId)
    assertMayManage(actor, row)
    if (disabled && row.super) assertAnotherSuper(tx, userId)
    const now = ctx.clock.now()
    tx.update(users).set({ disabled, updatedAt: now }).where(eq(users.id, userId)).run()
    if (disabled) {
      tx.update(userSessions)
        .set({ revokedAt: now })
        .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)))
        .run()
      events.afterCommit(() => ctx.hub.disconnectUser(userId, 'user disabled'))
    }
    const dto = userDto(tx, { ...row, disabled, updatedAt: now })
    publishUser(ctx, events, dto, 'update')
    return dto
  })
}

function pick<T extends Record<string, unknown>>(obj: T, keys: Set<string>): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.has(k))) as Partial<T>
}
