import { and, asc, count, eq, inArray, or } from 'drizzle-orm'
import type { Paged, UserDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { isAdmin } from '../../../shared/permissions'
import type { CreateUserInput, UpdateUserInput } from '../../../shared/schemas/users'
import type { Ctx, Deps } from '../../context'
import { transact } from '../../context'
import type { DB } from '../../db/client'
import {
  companies,
  plans,
  queues,
  type UserRow,
  userQueues,
  userSessions,
  users,
  whatsapps,
} from '../../db/schema'
import { contains } from '../../db/search'
import { fieldError } from '../../http/validate'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
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

/** The rooms a user's live sockets belong in: their company, their own, admins, and each of their queues. */
export function roomsOfUser(db: DB, userId: number): string[] {
  const user = db.select().from(users).where(eq(users.id, userId)).get()
  if (!user) return []
  const list = [rooms.company(user.companyId), rooms.user(user.companyId, user.id)]
  if (isAdmin(user)) list.push(rooms.admins(user.companyId))
  const queueIds = db
    .select({ id: userQueues.queueId })
    .from(userQueues)
    .where(eq(userQueues.userId, userId))
    .all()
  for (const { id } of queueIds) list.push(rooms.queue(user.companyId, id))
  return list
}

export function listUsers(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'users', UserDto> {
  const page = query.pageNumber ?? 1
  const term = query.searchParam?.trim().toLowerCase()
  const where = and(
    eq(users.companyId, ctx.actor.companyId),
    term ? or(contains(users.name, term), contains(users.email, term)) : undefined,
  )
  const total = ctx.db.select({ n: count() }).from(users).where(where).get()?.n ?? 0
  const rows = ctx.db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(USERS_PAGE_SIZE)
    .offset((page - 1) * USERS_PAGE_SIZE)
    .all()
  const queueRefs = queuesOfUsers(
    ctx.db,
    rows.map((r) => r.id),
  )
  return {
    users: rows.map((r) => toUserDto(r, queueRefs.get(r.id) ?? [])),
    count: total,
    hasMore: page * USERS_PAGE_SIZE < total,
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
  if (!isAdmin(ctx.actor) && userId !== ctx.actor.userId)
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

function assertWithinUserLimit(db: DB, companyId: number) {
  const limit = db
    .select({ users: plans.users })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .get()?.users
  if (!limit) return
  const current = db.select({ n: count() }).from(users).where(eq(users.companyId, companyId)).get()?.n ?? 0
  if (current >= limit) {
    throw new AppError('ERR_USER_LIMIT_REACHED', `The company's plan allows ${limit} users`, { limit })
  }
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
    assertWithinUserLimit(tx, ctx.actor.companyId)
    assertEmailFree(tx, input.email)
    const queueIds = assertQueuesInCompany(tx, ctx.actor.companyId, input.queueIds ?? [])
    const row = insertUser(tx, ctx.actor.companyId, { ...fields, queueIds, passwordHash }, ctx.clock.now())
    const dto = userDto(tx, row)
    publishUser(ctx, events, dto, 'create')
    return dto
  })
}

export async function updateUser(ctx: Ctx, userId: number, input: UpdateUserInput): Promise<UserDto> {
  const current = getUserRowInCompany(ctx.db, ctx.actor.companyId, userId)
  const admin = isAdmin(ctx.actor)
  if (!admin) {
    if (userId !== ctx.actor.userId)
      throw new AppError('ERR_NO_PERMISSION', 'You can only edit your own profile')
    const currentQueues = (queuesOfUsers(ctx.db, [userId]).get(userId) ?? []).map((q) => q.id).sort()
    for (const [key, value] of Object.entries(input)) {
      if (SELF_EDITABLE.has(key) || value === undefined) continue
      const unchanged =
        key === 'queueIds'
          ? JSON.stringify([...(value as number[])].sort()) === JSON.stringify(currentQueues)
          : (current as Record<string, unknown>)[key] === value
      if (!unchanged) throw new AppError('ERR_NO_PERMISSION', `Only admins can change ${key}`, { field: key })
    }
  }
  if (input.whatsappId !== undefined) assertConnection(ctx.db, ctx.actor.companyId, input.whatsappId)
  const passwordHash = input.password ? await hashPassword(input.password) : undefined
  const { password: _password, queueIds, ...fields } = input
  return transact(ctx, (tx, events) => {
    if (fields.email && fields.email !== current.email) assertEmailFree(tx, fields.email, userId)
    if (admin && current.profile === 'admin' && fields.profile === 'user')
      assertAnotherAdmin(tx, ctx.actor.companyId, userId)
    const patch = admin ? fields : pick(fields, SELF_EDITABLE)
    tx.update(users)
      .set({ ...patch, ...(passwordHash ? { passwordHash } : {}), updatedAt: ctx.clock.now() })
      .where(eq(users.id, userId))
      .run()
    if (admin && queueIds) setUserQueues(tx, userId, assertQueuesInCompany(tx, ctx.actor.companyId, queueIds))
    const dto = userDto(tx, getUserRowInCompany(tx, ctx.actor.companyId, userId))
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
  if (userId === ctx.actor.userId) throw new AppError('ERR_CANNOT_DELETE_SELF', 'You cannot delete yourself')
  transact(ctx, (tx, events) => {
    const row = getUserRowInCompany(tx, ctx.actor.companyId, userId)
    if (row.profile === 'admin') assertAnotherAdmin(tx, ctx.actor.companyId, userId)
    tx.delete(users).where(eq(users.id, userId)).run()
    events.publish(rooms.company(row.companyId), channel(row.companyId, 'user'), { action: 'delete', userId })
    events.afterCommit(() => ctx.hub.disconnectUser(userId, 'user deleted'))
  })
}

/** Sets a new password from the terminal and ends the user's sessions. */
export async function resetPassword(deps: Deps, email: string, password: string) {
  const passwordHash = await hashPassword(password)
  const user = deps.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get()
  if (!user) throw new AppError('ERR_NO_USER_FOUND', `No user with e-mail ${email}`)
  const now = deps.clock.now()
  transact(deps, (tx) => {
    tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id)).run()
    tx.update(userSessions).set({ revokedAt: now }).where(eq(userSessions.userId, user.id)).run()
  })
  return { id: user.id, email: user.email, companyId: user.companyId }
}

function pick<T extends Record<string, unknown>>(obj: T, keys: Set<string>): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.has(k))) as Partial<T>
}
