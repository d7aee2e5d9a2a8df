import { eq, inArray } from 'drizzle-orm'
import type { QueueRef, UserDto } from '../../../shared/api'
import { isoTime } from '../../clock'
import type { DB } from '../../db/client'
import { queues, type UserRow, userQueues } from '../../db/schema'

/** Queue references of many users in one query. */
export function queuesOfUsers(db: DB, userIds: number[]): Map<number, QueueRef[]> {
  const byUser = new Map<number, QueueRef[]>()
  if (userIds.length === 0) return byUser
  const rows = db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(inArray(userQueues.userId, userIds))
    .all()
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
