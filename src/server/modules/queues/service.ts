import { and, asc, eq } from 'drizzle-orm'
import type { QueueDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { QueueInput } from '../../../shared/schemas/queues'
import { isoTime } from '../../clock'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import type { DB } from '../../db/client'
import { type QueueRow, queues, userQueues } from '../../db/schema'
import { channel, rooms } from '../../realtime/rooms'
import { assertWithinPlanLimit } from '../plans/limits'
import { roomsOfUser } from '../users/service'

export function toQueueDto(row: QueueRow): QueueDto {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    orderQueue: row.orderQueue,
    greetingMessage: row.greetingMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    companyId: row.companyId,
    createdAt: isoTime(row.createdAt)!,
    updatedAt: isoTime(row.updatedAt)!,
  }
}

/** The one way to load a queue: another company's id is simply not found. */
export function getQueueRowInCompany(db: DB, companyId: number, queueId: number): QueueRow {
  const row = db
    .select()
    .from(queues)
    .where(and(eq(queues.id, queueId), eq(queues.companyId, companyId)))
    .get()
  if (!row) throw new AppError('ERR_NO_QUEUE_FOUND', 'Queue not found')
  return row
}

export function listQueues(ctx: Ctx): QueueDto[] {
  return ctx.db
    .select()
    .from(queues)
    .where(eq(queues.companyId, ctx.actor.companyId))
    .orderBy(asc(queues.orderQueue), asc(queues.name))
    .all()
    .map(toQueueDto)
}

export function getQueue(ctx: Ctx, queueId: number): QueueDto {
  return toQueueDto(getQueueRowInCompany(ctx.db, ctx.actor.companyId, queueId))
}

function assertUnique(db: DB, companyId: number, input: QueueInput, exceptId?: number) {
  const same = db.select().from(queues).where(eq(queues.companyId, companyId)).all()
  const color = input.color.toLowerCase()
  if (same.some((q) => q.id !== exceptId && q.color.toLowerCase() === color)) {
    throw fieldError('color', 'Another queue already uses this colour', 'ERR_QUEUE_COLOR_ALREADY_EXISTS')
  }
  const name = input.name.toLowerCase()
  if (same.some((q) => q.id !== exceptId && q.name.toLowerCase() === name)) {
    throw fieldError('name', 'Another queue already has this name', 'ERR_QUEUE_NAME_ALREADY_EXISTS')
  }
}

function columns(input: QueueInput) {
  return {
    name: input.name,
    color: input.color,
    orderQueue: input.orderQueue ?? 0,
    greetingMessage: input.greetingMessage ?? '',
    outOfHoursMessage: input.outOfHoursMessage ?? '',
  }
}

export function createQueue(ctx: Ctx, input: QueueInput): QueueDto {
  const { companyId } = ctx.actor
  return transact(ctx, (tx, events) => {
    assertWithinPlanLimit(ctx, 'queues', tx)
    assertUnique(tx, companyId, input)
    const now = ctx.clock.now()
    const row = tx
      .insert(queues)
      .values({ ...columns(input), companyId, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const queue = toQueueDto(row)
    events.publish(rooms.company(companyId), channel(companyId, 'queue'), { action: 'create', queue })
    return queue
  })
}

export function updateQueue(ctx: Ctx, queueId: number, input: QueueInput): QueueDto {
  const { companyId } = ctx.actor
  return transact(ctx, (tx, events) => {
    getQueueRowInCompany(tx, companyId, queueId)
    assertUnique(tx, companyId, input, queueId)
    const row = tx
      .update(queues)
      .set({ ...columns(input), updatedAt: ctx.clock.now() })
      .where(eq(queues.id, queueId))
      .returning()
      .get()
    const queue = toQueueDto(row)
    events.publish(rooms.company(companyId), channel(companyId, 'queue'), { action: 'update', queue })
    return queue
  })
}

export function deleteQueue(ctx: Ctx, queueId: number) {
  const { companyId } = ctx.actor
  transact(ctx, (tx, events) => {
    getQueueRowInCompany(tx, companyId, queueId)
    const members = tx
      .select({ userId: userQueues.userId })
      .from(userQueues)
      .where(eq(userQueues.queueId, queueId))
      .all()
    tx.delete(queues).where(eq(queues.id, queueId)).run()
    events.publish(rooms.company(companyId), channel(companyId, 'queue'), { action: 'delete', queueId })
    events.afterCommit(() => {
      for (const { userId } of members) ctx.hub.resubscribeUser(userId, roomsOfUser(ctx.db, userId))
    })
  })
}
