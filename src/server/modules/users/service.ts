import type { Database } from 'bun:sqlite'
import type { Paged, UserDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { isAdmin } from '../../../shared/permissions'
import type { CreateUserInput, UpdateUserInput } from '../../../shared/schemas/users'
import { assertCurrentPassword } from '../../access/current-password'
import type { Ctx, Deps, UserActor } from '../../context'
import { transact, userActor } from '../../context'
import { type Assignment, assignments } from '../../db/columns'
import { type Connection, sqliteOf } from '../../db/connection'
import { listPage, pageWindow } from '../../db/paging'
import type { RawUserRow, UserRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { channel, fullRoom, rooms } from '../../realtime/rooms'
import { assertWithinPlanLimit } from '../plans/limits'
import { queuesOfUsers, toUserDto, USER_COLUMN, USER_COLUMNS, userRow } from './dto'

export const USERS_PAGE_SIZE = 20

/** Fields an attendant may change on their own profile; everything else needs an admin. */
const SELF_EDITABLE = new Set(['name', 'email', 'password', 'farewellMessage', 'defaultTheme', 'defaultMenu'])

export function hashPassword(password: string) {
  return Bun.password.hash(password, { algorithm: 'argon2id' })
}

/** The one way to load a user: another company's id is simply not found. */
export function getUserRowInCompany(db: Connection, companyId: number, userId: number): UserRow {
  const row = stmt<RawUserRow, [number, number]>(
    sqliteOf(db),
    `SELECT ${USER_COLUMNS} FROM users WHERE id = ? AND company_id = ?`,
  ).get(userId, companyId)
  if (!row) throw new AppError('ERR_NO_USER_FOUND', 'User not found')
  return userRow(row)
}

export function userDto(db: Connection, row: UserRow): UserDto {
  return toUserDto(row, queuesOfUsers(db, [row.id]).get(row.id) ?? [])
}

/**
 * The rooms a user's live sockets belong in: their company, their own, admins, each of their queues, and the
 * platform-wide `everyone` room (announcements). A user whose isTricked is 'enabled' sees phone numbers in full,
 * so gets the `#full` flavour of each room
 * (see `fullRoom`); publishUser resubscribes the user's sockets after every update, isTricked included.
 */
export function roomsOfUser(db: Connection, userId: number): string[] {
  const sqlite = sqliteOf(db)
  const user = stmt<
    Pick<RawUserRow, 'id' | 'companyId' | 'profile' | 'super' | 'allTicket' | 'isTricked'>,
    [number]
  >(
    sqlite,
    `SELECT id, company_id AS companyId, profile, super, all_ticket AS allTicket, is_tricked AS isTricked
       FROM users WHERE id = ?`,
  ).get(userId)
  if (!user) return []
  const admin = isAdmin({ profile: user.profile, super: user.super === 1 })
  const list = [rooms.company(user.companyId), rooms.user(user.companyId, user.id), rooms.everyone]
  if (admin) list.push(rooms.admins(user.companyId))
  const queueIds = stmt<{ id: number }, [number]>(
    sqlite,
    'SELECT queue_id AS id FROM user_queues WHERE user_id = ?',
  ).all(userId)
  for (const { id } of queueIds) list.push(rooms.queue(user.companyId, id))
  // Tickets without a queue reach admins through their room, and the attendants allowed to see them here.
  if (!admin && user.allTicket === 'enable') list.push(rooms.noQueue(user.companyId))
  return user.isTricked === 'enabled' ? list.map(fullRoom) : list
}

export function listUsers(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'users', UserDto> {
  const at = pageWindow(query.pageNumber, USERS_PAGE_SIZE)
  // Name or e-mail contains the term, case-insensitive and literal (no wildcards); a null term matches all.
  const page = listPage<RawUserRow, { companyId: number; term: string | null }>(
    ctx.sqlite,
    {
      columns: USER_COLUMNS,
      from: 'users',
      where: `company_id = $companyId AND ($term IS NULL OR instr(lower(name), lower($term)) > 0
              OR instr(lower(email), lower($term)) > 0)`,
      order: 'ORDER BY name, id',
    },
    { companyId: ctx.actor.companyId, term: query.searchParam?.trim() || null },
    at,
  )
  return { users: withQueues(ctx.sqlite, page.rows), count: page.count, hasMore: page.hasMore }
}

export function listAllUsers(ctx: Ctx): UserDto[] {
  const rows = stmt<RawUserRow, [number]>(
    ctx.sqlite,
    `SELECT ${USER_COLUMNS} FROM users WHERE company_id = ? ORDER BY name`,
  ).all(ctx.actor.companyId)
  return withQueues(ctx.sqlite, rows)
}

/** The answers of a list of rows, their queues read in one query. */
function withQueues(sqlite: Database, rows: RawUserRow[]): UserDto[] {
  const queueRefs = queuesOfUsers(
    sqlite,
    rows.map((r) => r.id),
  )
  return rows.map((r) => toUserDto(userRow(r), queueRefs.get(r.id) ?? []))
}

export function getUser(ctx: Ctx, userId: number): UserDto {
  const actor = userActor(ctx)
  if (!isAdmin(actor) && userId !== actor.userId)
    throw new AppError('ERR_NO_PERMISSION', 'Only admins can see other users')
  return userDto(ctx.sqlite, getUserRowInCompany(ctx.sqlite, ctx.actor.companyId, userId))
}

function assertEmailFree(db: Connection, email: string, exceptUserId?: number) {
  const other = stmt<{ id: number }, [string]>(sqliteOf(db), 'SELECT id FROM users WHERE email = ?').get(
    email,
  )
  if (other && other.id !== exceptUserId)
    throw fieldError('email', 'This e-mail is already in use', 'ERR_EMAIL_ALREADY_EXISTS')
}

function assertQueuesInCompany(db: Connection, companyId: number, queueIds: number[]) {
  const unique = [...new Set(queueIds)]
  if (unique.length === 0) return unique
  const found = stmt<{ n: number }, [number, string]>(
    sqliteOf(db),
    'SELECT count(*) AS n FROM queues WHERE company_id = ? AND id IN (SELECT value FROM json_each(?))',
  ).get(companyId, JSON.stringify(unique))
  if (found?.n !== unique.length) throw fieldError('queueIds', 'Unknown queue')
  return unique
}

/** The default connection must be one of the company's own. */
function assertConnection(db: Connection, companyId: number, whatsappId: number | null | undefined) {
  if (whatsappId == null) return
  const found = stmt<{ id: number }, [number, number]>(
    sqliteOf(db),
    'SELECT id FROM whatsapps WHERE id = ? AND company_id = ?',
  ).get(whatsappId, companyId)
  if (!found) throw fieldError('whatsappId', 'Unknown connection')
}

function setUserQueues(sqlite: Database, userId: number, queueIds: number[]) {
  stmt<unknown, [number]>(sqlite, 'DELETE FROM user_queues WHERE user_id = ?').run(userId)
  if (queueIds.length)
    stmt<unknown, [number, string]>(
      sqlite,
      'INSERT INTO user_queues (user_id, queue_id) SELECT ?, value FROM json_each(?)',
    ).run(userId, JSON.stringify(queueIds))
}

export function publishUser(deps: Deps, events: EventBuffer, user: UserDto, action: 'create' | 'update') {
  events.publish(rooms.company(user.companyId), channel(user.companyId, 'user'), { action, user })
  events.afterCommit(() => deps.hub.resubscribeUser(user.id, roomsOfUser(deps.sqlite, user.id)))
}

/** Creates a user in a company; used by the users area and by company creation. */
export function insertUser(
  tx: Connection,
  companyId: number,
  input: Omit<CreateUserInput, 'password'> & { passwordHash: string; super?: boolean },
  now: number,
): UserRow {
  const sqlite = sqliteOf(tx)
  const { queueIds = [], passwordHash, ...fields } = input
  const set = assignments(USER_COLUMN, { ...fields, companyId, passwordHash, createdAt: now, updatedAt: now })
  const row = userRow(
    stmt<RawUserRow, Assignment['value'][]>(
      sqlite,
      `INSERT INTO users (${set.map((a) => a.column).join(', ')}) VALUES (${set.map(() => '?').join(', ')})
       RETURNING ${USER_COLUMNS}`,
    ).get(...set.map((a) => a.value)) as RawUserRow,
  )
  setUserQueues(sqlite, row.id, queueIds)
  return row
}

export async function createUser(ctx: Ctx, input: CreateUserInput): Promise<UserDto> {
  assertConnection(ctx.sqlite, ctx.actor.companyId, input.whatsappId)
  const passwordHash = await hashPassword(input.password)
  const { password: _password, ...fields } = input
  return transact(ctx, (sqlite, events) => {
    assertWithinPlanLimit(ctx, 'users', sqlite)
    assertEmailFree(sqlite, input.email)
    const queueIds = assertQueuesInCompany(sqlite, ctx.actor.companyId, input.queueIds ?? [])
    const row = insertUser(
      sqlite,
      ctx.actor.companyId,
      { ...fields, queueIds, passwordHash },
      ctx.clock.now(),
    )
    const dto = userDto(sqlite, row)
    publishUser(ctx, events, dto, 'create')
    return dto
  })
}

/** Super users are the platform's administrators: only another super user may change or remove one. */
function assertMayManage(actor: UserActor, target: UserRow) {
  if (target.super && !actor.super)
    throw new AppError('ERR_NO_PERMISSION', 'Only a super user can change or delete a super user')
}

function assertAnotherSuper(db: Connection, exceptUserId: number) {
  const other = stmt<{ id: number }, [number]>(
    sqliteOf(db),
    'SELECT id FROM users WHERE super = 1 AND disabled = 0 AND id <> ?',
  ).get(exceptUserId)
  if (!other) throw new AppError('ERR_LAST_SUPER_USER', 'The platform needs at least one super user')
}

/**
 * Ends a user's sessions after their password changed, except the one that changed it: whoever knew the
 * old password is signed out everywhere else.
 */
export function endOtherSessions(
  ctx: Ctx,
  tx: Connection,
  events: EventBuffer,
  userId: number,
  keep: string | null,
) {
  const sqlite = sqliteOf(tx)
  // Without a session to keep, `id IS NOT NULL` holds for every one (ids are never null).
  const open = 'user_id = ? AND revoked_at IS NULL AND id IS NOT ?'
  const kept = keep || null
  const ended = stmt<{ id: string }, [number, string | null]>(
    sqlite,
    `SELECT id FROM user_sessions WHERE ${open}`,
  ).all(userId, kept)
  if (ended.length === 0) return
  stmt<unknown, [number, number, string | null]>(
    sqlite,
    `UPDATE user_sessions SET revoked_at = ? WHERE ${open}`,
  ).run(ctx.clock.now(), userId, kept)
  events.afterCommit(() => {
    for (const { id } of ended) ctx.hub.disconnectSession(id, 'password changed')
  })
}

export async function updateUser(ctx: Ctx, userId: number, input: UpdateUserInput): Promise<UserDto> {
  const actor = userActor(ctx)
  const current = getUserRowInCompany(ctx.sqlite, actor.companyId, userId)
  const admin = isAdmin(actor)
  const self = userId === actor.userId
  if (!admin) {
    if (!self) throw new AppError('ERR_NO_PERMISSION', 'You can only edit your own profile')
    const currentQueues = (queuesOfUsers(ctx.sqlite, [userId]).get(userId) ?? []).map((q) => q.id).sort()
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
  if (input.whatsappId !== undefined) assertConnection(ctx.sqlite, actor.companyId, input.whatsappId)
  const passwordHash = changesPassword ? await hashPassword(input.password!) : undefined
  const { password: _password, currentPassword: _current, queueIds, ...fields } = input
  return transact(ctx, (sqlite, events) => {
    if (fields.email && fields.email !== current.email) assertEmailFree(sqlite, fields.email, userId)
    if (admin && current.profile === 'admin' && fields.profile === 'user') {
      if (current.super) assertAnotherSuper(sqlite, userId)
      assertAnotherAdmin(sqlite, actor.companyId, userId)
    }
    const patch = admin ? fields : pick(fields, SELF_EDITABLE)
    const set = assignments(USER_COLUMN, {
      ...patch,
      ...(passwordHash ? { passwordHash } : {}),
      updatedAt: ctx.clock.now(),
    })
    stmt<unknown, Assignment['value'][]>(
      sqlite,
      `UPDATE users SET ${set.map((a) => `${a.column} = ?`).join(', ')} WHERE id = ?`,
    ).run(...set.map((a) => a.value), userId)
    if (admin && queueIds)
      setUserQueues(sqlite, userId, assertQueuesInCompany(sqlite, actor.companyId, queueIds))
    if (passwordHash) endOtherSessions(ctx, sqlite, events, userId, self ? actor.sessionId : null)
    const dto = userDto(sqlite, getUserRowInCompany(sqlite, actor.companyId, userId))
    publishUser(ctx, events, dto, 'update')
    return dto
  })
}

function assertAnotherAdmin(db: Connection, companyId: number, exceptUserId: number) {
  const admins = stmt<{ id: number }, [number]>(
    sqliteOf(db),
    "SELECT id FROM users WHERE company_id = ? AND profile = 'admin'",
  ).all(companyId)
  if (!admins.some((a) => a.id !== exceptUserId))
    throw new AppError('ERR_LAST_ADMIN', 'A company needs at least one admin')
}

export function deleteUser(ctx: Ctx, userId: number) {
  const actor = userActor(ctx)
  if (userId === actor.userId) throw new AppError('ERR_CANNOT_DELETE_SELF', 'You cannot delete yourself')
  transact(ctx, (sqlite, events) => {
    const row = getUserRowInCompany(sqlite, actor.companyId, userId)
    assertMayManage(actor, row)
    if (row.super) assertAnotherSuper(sqlite, userId)
    if (row.profile === 'admin') assertAnotherAdmin(sqlite, actor.companyId, userId)
    stmt<unknown, [number]>(sqlite, 'DELETE FROM users WHERE id = ?').run(userId)
    events.publish(rooms.company(row.companyId), channel(row.companyId, 'user'), { action: 'delete', userId })
    events.afterCommit(() => ctx.hub.disconnectUser(userId, 'user deleted'))
  })
}

/** Sets a new password from the terminal and ends the user's sessions (and, on the running server, their sockets). */
export async function resetPassword(deps: Deps, email: string, password: string) {
  const passwordHash = await hashPassword(password)
  const user = stmt<Pick<UserRow, 'id' | 'email' | 'companyId'>, [string]>(
    deps.sqlite,
    'SELECT id, email, company_id AS companyId FROM users WHERE email = ?',
  ).get(email.trim().toLowerCase())
  if (!user) throw new AppError('ERR_NO_USER_FOUND', `No user with e-mail ${email}`)
  const now = deps.clock.now()
  transact(deps, (sqlite, events) => {
    stmt<unknown, [string, number, number]>(
      sqlite,
      'UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?',
    ).run(passwordHash, now, user.id)
    stmt<unknown, [number, number]>(sqlite, 'UPDATE user_sessions SET revoked_at = ? WHERE user_id = ?').run(
      now,
      user.id,
    )
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
  return transact(ctx, (sqlite, events) => {
    const row = getUserRowInCompany(sqlite, actor.companyId, userId)
    assertMayManage(actor, row)
    if (disabled && row.super) assertAnotherSuper(sqlite, userId)
    const now = ctx.clock.now()
    stmt<unknown, [number, number, number]>(
      sqlite,
      'UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?',
    ).run(Number(disabled), now, userId)
    if (disabled) {
      stmt<unknown, [number, number]>(
        sqlite,
        'UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL',
      ).run(now, userId)
      events.afterCommit(() => ctx.hub.disconnectUser(userId, 'user disabled'))
    }
    const dto = userDto(sqlite, { ...row, disabled, updatedAt: now })
    publishUser(ctx, events, dto, 'update')
    return dto
  })
}

function pick<T extends Record<string, unknown>>(obj: T, keys: Set<string>): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.has(k))) as Partial<T>
}
