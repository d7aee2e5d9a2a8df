import { unlinkSync } from 'node:fs'
import type { QueueDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { defaultSchedules, effectiveSchedules, serializeSchedules } from '../../../shared/schedules'
import type { QueueInput } from '../../../shared/schemas/queues'
import { isoTime } from '../../clock'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import type { QueueRow } from '../../db/schema'
import { stmt } from '../../db/statements'
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
const QUEUE_COLUMNS = `id, company_id AS companyId, name, color, order_queue AS orderQueue,
  greeting_message AS greetingMessage, out_of_hours_message AS outOfHoursMessage, schedules,
  integration_id AS integrationId, prompt_id AS promptId, file_list_id AS fileListId, created_at AS createdAt,
  updated_at AS updatedAt`

export function getQueueRowInCompany(db: Connection, companyId: number, queueId: number): QueueRow {
  const row = stmt<QueueRow, [number, number]>(
    sqliteOf(db),
    `SELECT ${QUEUE_COLUMNS} FROM queues WHERE id = ? AND company_id = ?`,
  ).get(queueId, companyId)
  if (!row) throw new AppError('ERR_NO_QUEUE_FOUND', 'Queue not found')
  return row
}

export function listQueues(ctx: Ctx): QueueDto[] {
  return stmt<QueueRow, [number]>(
    ctx.sqlite,
    `SELECT ${QUEUE_COLUMNS} FROM queues WHERE company_id = ? ORDER BY order_queue, name`,
  )
    .all(ctx.actor.companyId)
    .map(toQueueDto)
}

export function getQueue(ctx: Ctx, queueId: number): QueueDto {
  return toQueueDto(getQueueRowInCompany(ctx.sqlite, ctx.actor.companyId, queueId))
}

function assertUnique(db: Connection, companyId: number, input: QueueInput, exceptId?: number) {
  const same = stmt<Pick<QueueRow, 'id' | 'name' | 'color'>, [number]>(
    sqliteOf(db),
    'SELECT id, name, color FROM queues WHERE company_id = ?',
  ).all(companyId)
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
function assertReferences(db: Connection, companyId: number, input: QueueInput) {
  if (input.integrationId != null && !integrationExists(sqliteOf(db), companyId, input.integrationId))
    throw fieldError('integrationId', 'No such integration in this company')
  if (input.promptId != null && !promptExists(sqliteOf(db), companyId, input.promptId))
    throw fieldError('promptId', 'No such prompt in this company')
  if (input.fileListId != null) {
    const list = stmt<{ id: number }, [number, number]>(
      sqliteOf(db),
      'SELECT id FROM files WHERE id = ? AND company_id = ?',
    ).get(input.fileListId, companyId)
    if (!list) throw fieldError('fileListId', 'No such file list in this company')
  }
}

/**
 * The row's columns from the input. On create, absent fields take their defaults (schedules: the spec's hours);
 * on update, absent schedules, integrationId, promptId and fileListId keep what the queue has. A null schedules list
 * means the spec's defaults.
 */
function columns(db: Connection, companyId: number, input: QueueInput, creating: boolean) {
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

/** The given columns as SQL names and bound values. */
function assignments(values: Record<string, string | number | null | undefined>) {
  return Object.entries(values).flatMap(([field, value]) =>
    value === undefined ? [] : [{ column: field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value }],
  )
}

export function createQueue(ctx: Ctx, input: QueueInput): QueueDto {
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite, events) => {
    assertWithinPlanLimit(ctx, 'queues', sqlite)
    assertUnique(sqlite, companyId, input)
    const now = ctx.clock.now()
    const set = assignments({
      ...columns(sqlite, companyId, input, true),
      companyId,
      createdAt: now,
      updatedAt: now,
    })
    const row = stmt<QueueRow, (string | number | null)[]>(
      sqlite,
      `INSERT INTO queues (${set.map((a) => a.column).join(', ')}) VALUES (${set.map(() => '?').join(', ')})
       RETURNING ${QUEUE_COLUMNS}`,
    ).get(...set.map((a) => a.value)) as QueueRow
    const queue = toQueueDto(row)
    events.publish(rooms.company(companyId), channel(companyId, 'queue'), { action: 'create', queue })
    return queue
  })
}

export function updateQueue(ctx: Ctx, queueId: number, input: QueueInput): QueueDto {
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite, events) => {
    const before = getQueueRowInCompany(sqlite, companyId, queueId)
    assertUnique(sqlite, companyId, input, queueId)
    const set = assignments({ ...columns(sqlite, companyId, input, false), updatedAt: ctx.clock.now() })
    const row = stmt<QueueRow, (string | number | null)[]>(
      sqlite,
      `UPDATE queues SET ${set.map((a) => `${a.column} = ?`).join(', ')} WHERE id = ? RETURNING ${QUEUE_COLUMNS}`,
    ).get(...set.map((a) => a.value), queueId) as QueueRow
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
  transact(ctx, (sqlite, events) => {
    getQueueRowInCompany(sqlite, companyId, queueId)
    const members = stmt<{ userId: number }, [number]>(
      sqlite,
      'SELECT user_id AS userId FROM user_queues WHERE queue_id = ?',
    ).all(queueId)
    // The queue's chatbot options go with it (foreign key cascade); their files are removed after commit.
    const files = stmt<{ path: string | null }, [number]>(
      sqlite,
      'SELECT media_path AS path FROM queue_options WHERE queue_id = ? AND media_path IS NOT NULL',
    ).all(queueId)
    stmt<unknown, [number]>(sqlite, 'DELETE FROM queues WHERE id = ?').run(queueId)
    events.publish(rooms.company(companyId), channel(companyId, 'queue'), { action: 'delete', queueId })
    events.afterCommit(() => {
      for (const { userId } of members) ctx.hub.resubscribeUser(userId, roomsOfUser(ctx.sqlite, userId))
      for (const { path } of files) {
        const file = path ? mediaFilePath(ctx, companyId, path) : null
        try {
          if (file) unlinkSync(file)
        } catch {}
      }
    })
  })
}
