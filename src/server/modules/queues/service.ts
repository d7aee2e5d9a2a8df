import { unlinkSync } from 'node:fs'
import { and, asc, eq, isNotNull } from 'drizzle-orm'
import type { QueueDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { defaultSchedules, effectiveSchedules, serializeSchedules } from '../../../shared/schedules'
import type { QueueInput } from '../../../shared/schemas/queues'
import { isoTime } from '../../clock'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import type { DB } from '../../db/client'
import { sqliteOf } from '../../db/connection'
import { files, type QueueRow, queueOptions, queues, userQueues } from '../../db/schema'
import { mediaFilePath } from '../../media/store'
import { channel, rooms } from '../../realtime/rooms'
import { forgetAllFinished } from '../chatbot/finished'
import { assertWithinPlanLimit } from '../plans/limits'
import { promptExists } from '../prompts/service'
import { integrationExists } from '../queue-integrations/service'
import { roomsOfUser } from '../users/service'

export function toQueueDto(row: QueueRow): QueueDto {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    orderQueue: row.orderQueue,
    greetingMessage: row.greetingMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    schedules: effectiveSchedules(row.schedules),
    integrationId: row.integrationId,
    promptId: row.promptId,
    fileListId: row.fileListId,
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

/**
 * The queue's integration, prompt and file list must be the company's own: another company's id (or one that
 * does not exist) is a 400 naming the field, never kept dangling.
 */
function assertReferences(db: DB, companyId: number, input: QueueInput) {
  if (input.integrationId != null && !integrationExists(sqliteOf(db), companyId, input.integrationId))
    throw fieldError('integrationId', 'No such integration in this company')
  if (input.promptId != null && !promptExists(sqliteOf(db), companyId, input.promptId))
    throw fieldError('promptId', 'No such prompt in this company')
  if (input.fileListId != null) {
    const list = db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, input.fileListId), eq(files.companyId, companyId)))
      .get()
    if (!list) throw fieldError('fileListId', 'No such file list in this company')
  }
}

/**
 * The row's columns from the input. On create, absent fields take their defaults (schedules: the spec's hours);
 * on update, absent schedules, integrationId, promptId and fileListId keep what the queue has. A null schedules list
 * means the spec's defaults.
 */
function columns(db: DB, companyId: number, input: QueueInput, creating: boolean) {
  assertReferences(db, companyId, input)
  const base = {
    name: input.name,
    color: input.color,
    orderQueue: input.orderQueue ?? 0,
    greetingMessage: input.greetingMessage ?? '',
    outOfHoursMessage: input.outOfHoursMessage ?? '',
  }
  const schedules =
    input.schedules === undefined && !creating
      ? {}
      : { schedules: serializeSchedules(input.schedules ?? defaultSchedules()) }
  const integration =
    input.integrationId === undefined && !creating ? {} : { integrationId: input.integrationId ?? null }
  const prompt = input.promptId === undefined && !creating ? {} : { promptId: input.promptId ?? null }
  const fileList = input.fileListId === undefined && !creating ? {} : { fileListId: input.fileListId ?? null }
  return { ...base, ...schedules, ...integration, ...prompt, ...fileList }
}

export function createQueue(ctx: Ctx, input: QueueInput): QueueDto {
  const { companyId } = ctx.actor
  return transact(ctx, (tx, events) => {
    assertWithinPlanLimit(ctx, 'queues', tx)
    assertUnique(tx, companyId, input)
    const now = ctx.clock.now()
    const row = tx
      .insert(queues)
      .values({ ...columns(tx, companyId, input, true), companyId, createdAt: now, updatedAt: now })
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
    const before = getQueueRowInCompany(tx, companyId, queueId)
    assertUnique(tx, companyId, input, queueId)
    const row = tx
      .update(queues)
      .set({ ...columns(tx, companyId, input, false), updatedAt: ctx.clock.now() })
      .where(eq(queues.id, queueId))
      .returning()
      .get()
    // A bot given to the queue takes the tickets already waiting in it with their next message.
    if (row.integrationId !== before.integrationId || row.promptId !== before.promptId)
      events.afterCommit(() => forgetAllFinished(ctx))
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
    // The queue's chatbot options go with it (foreign key cascade); their files are removed after commit.
    const files = tx
      .select({ path: queueOptions.mediaPath })
      .from(queueOptions)
      .where(and(eq(queueOptions.queueId, queueId), isNotNull(queueOptions.mediaPath)))
      .all()
    tx.delete(queues).where(eq(queues.id, queueId)).run()
    events.publish(rooms.company(companyId), channel(companyId, 'queue'), { action: 'delete', queueId })
    events.afterCommit(() => {
      for (const { userId } of members) ctx.hub.resubscribeUser(userId, roomsOfUser(ctx.db, userId))
      for (const { path } of files) {
        const file = path ? mediaFilePath(ctx, companyId, path) : null
        try {
          if (file) unlinkSync(file)
        } catch {}
      }
    })
  })
}
