import type { QueueRef, UserDto } from '../../../shared/api'
import { isoTime } from '../../clock'
import { type ColumnsOf, selectList } from '../../db/columns'
import { type Connection, sqliteOf } from '../../db/connection'
import type { RawUserRow, UserRow } from '../../db/schema'
import { stmt } from '../../db/statements'

/** The users table's columns by `UserRow`'s names, in the table's order (the order the builder read them in). */
export const USER_COLUMN: ColumnsOf<UserRow> = {
  id: 'id',
  companyId: 'company_id',
  name: 'name',
  email: 'email',
  passwordHash: 'password_hash',
  profile: 'profile',
  super: 'super',
  online: 'online',
  lastSeenAt: 'last_seen_at',
  whatsappId: 'whatsapp_id',
  startWork: 'start_work',
  endWork: 'end_work',
  farewellMessage: 'farewell_message',
  allTicket: 'all_ticket',
  allowGroup: 'allow_group',
  defaultMenu: 'default_menu',
  defaultTheme: 'default_theme',
  allHistoric: 'all_historic',
  allUserChat: 'all_user_chat',
  userClosePendingTicket: 'user_close_pending_ticket',
  showDashboard: 'show_dashboard',
  isTricked: 'is_tricked',
  disabled: 'disabled',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
}

/** A whole users row, read as `RawUserRow`. */
export const USER_COLUMNS = selectList(USER_COLUMN)

/** The row as the answers and the rules expect it: the 0/1 columns as booleans. */
export function userRow(raw: RawUserRow): UserRow {
  return {
    ...raw,
    super: raw.super === 1,
    online: raw.online === 1,
    allowGroup: raw.allowGroup === 1,
    disabled: raw.disabled === 1,
  }
}

/** Queue references of many users in one query. */
export function queuesOfUsers(db: Connection, userIds: number[]): Map<number, QueueRef[]> {
  const byUser = new Map<number, QueueRef[]>()
  if (userIds.length === 0) return byUser
  const rows = stmt<QueueRef & { userId: number }, [string]>(
    sqliteOf(db),
    `SELECT uq.user_id AS userId, q.id, q.name, q.color
       FROM user_queues uq INNER JOIN queues q ON q.id = uq.queue_id
      WHERE uq.user_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(userIds))
  for (const { userId, ...queue } of rows) {
    const list = byUser.get(userId) ?? []
    list.push(queue)
    byUser.set(userId, list)
  }
  return byUser
}

export function toUserDto(row: UserRow, queueRefs: QueueRef[]): UserDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    companyId: row.companyId,
    super: row.super,
    online: row.online,
    queues: queueRefs.sort((a, b) => a.name.localeCompare(b.name)),
    whatsappId: row.whatsappId,
    startWork: row.startWork,
    endWork: row.endWork,
    farewellMessage: row.farewellMessage,
    allTicket: row.allTicket,
    allowGroup: row.allowGroup,
    defaultMenu: row.defaultMenu,
    defaultTheme: row.defaultTheme,
    allHistoric: row.allHistoric,
    allUserChat: row.allUserChat,
    userClosePendingTicket: row.userClosePendingTicket,
    showDashboard: row.showDashboard,
    isTricked: row.isTricked,
    disabled: row.disabled,
    createdAt: isoTime(row.createdAt)!,
    updatedAt: isoTime(row.updatedAt)!,
  }
}
