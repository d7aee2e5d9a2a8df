/**
 * Scheduled messages (spec 2): a message to a contact at a chosen time, optionally opening a ticket. Every user
 * of the company lists and edits them (plan flag useSchedules, gated on the path). Changes are live
 * (`company-{id}-schedule`, to the whole company). Sending is the `ScheduleRunner`'s (runner.ts).
 *
 * Times: `sendAt` is an instant; a wall-clock time without offset is read in the company's `timezone` setting,
 * and repetition follows that zone (src/shared/scheduled-messages.ts).
 */

import type { Database } from 'bun:sqlite'
import { unlinkSync } from 'node:fs'
import { AppError, fieldError } from '../../../shared/errors'
import {
  repeatRuleOf,
  SCHEDULE_BODY_MIN,
  SCHEDULES_PAGE_SIZE,
  type ScheduleDto,
  type SchedulesPage,
} from '../../../shared/scheduled-messages'
import type { ListSchedulesQuery, ScheduleInput } from '../../../shared/schemas/scheduled-messages'
import { instantOf, parseWallTime } from '../../../shared/timezone'
import { numberVisibility } from '../../access/mask'
import type { Ctx } from '../../context'
import { transact, userActor } from '../../context'
import { pageCount, pageOf, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { cleanFileName, mediaFilePath, storeMedia } from '../../media/store'
import type { UploadedMedia } from '../../media/upload'
import { channel, rooms } from '../../realtime/rooms'
import { companyTimeZone } from '../settings/service'
import { actorScope } from '../tickets/access'
import { assertMayWriteToContact } from '../tickets/held'
import { scheduleConnection } from './connection'
import {
  type ListRow,
  publishSchedule,
  SCHEDULE_COLUMNS,
  type ScheduleRow,
  scheduleInCompany,
  toScheduleDto,
} from './rows'
import { followRetried } from './settle'

type ListParams = { companyId: number; term: string | null; contactId: number | null; full: number }

// A reader who may not see numbers does not search names made of digits alone: such a name may be the number.
const LIST_WHERE = `s.company_id = $companyId AND ($contactId IS NULL OR s.contact_id = $contactId)
  AND ($term IS NULL OR instr(lower(s.body), lower($term)) > 0
       OR (instr(lower(c.name), lower($term)) > 0 AND ($full = 1 OR c.name GLOB '*[^0-9 ()+.-]*')))`

/** `GET /schedules/`: 20 a page, the next to go first (by send time), searched by body or contact name. */
export function listSchedules(ctx: Ctx, query: ListSchedulesQuery): SchedulesPage {
  const visibility = numberVisibility(ctx)
  const at = pageWindow(query.pageNumber, SCHEDULES_PAGE_SIZE)
  const params: ListParams = {
    companyId: ctx.actor.companyId,
    term: query.searchParam?.trim() || null,
    contactId: query.contactId ?? null,
    full: visibility === 'enabled' ? 1 : 0,
  }
  const rows = stmt<ListRow, [ListParams & { limit: number; offset: number }]>(
    ctx.sqlite,
    `SELECT ${SCHEDULE_COLUMNS}, c.name AS contactName, c.number AS contactNumber FROM schedules s LEFT JOIN contacts c ON c.id = s.contact_id
      WHERE ${LIST_WHERE} ORDER BY s.send_at DESC, s.id DESC LIMIT $limit OFFSET $offset`,
  ).all({ ...params, limit: at.limit, offset: at.offset })
  const page = pageOf(rows, at)
  return {
    schedules: page.rows.map((r) => toScheduleDto(ctx, r, visibility)),
    count: pageCount(
      page,
      () =>
        stmt<{ n: number }, [ListParams]>(
          ctx.sqlite,
          `SELECT count(*) AS n FROM schedules s LEFT JOIN contacts c ON c.id = s.contact_id WHERE ${LIST_WHERE}`,
        ).get(params)?.n ?? 0,
    ),
    hasMore: page.hasMore,
  }
}

export function getSchedule(ctx: Ctx, id: number): ScheduleDto {
  return toScheduleDto(ctx, scheduleInCompany(ctx.sqlite, ctx.actor.companyId, id), numberVisibility(ctx))
}

const OFFSET_OR_Z = /(?:Z|[+-]\d{2}:?\d{2})$/i

/** `sendAt` as an instant: an ISO instant, or a wall-clock time read in the company's zone. */
export function sendAtOf(value: string, timeZone: string): number {
  const text = value.trim()
  // Both forms keep to the same years (1970 to 9999), whatever the zone adds or takes away.
  const inRange = (ms: number) => Number.isFinite(ms) && ms > 0 && ms < 253_402_300_800_000
  if (OFFSET_OR_Z.test(text) && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) {
    const ms = Date.parse(text)
    if (inRange(ms)) return ms
  } else {
    const wall = parseWallTime(text)
    const ms = wall ? instantOf(wall, timeZone) : Number.NaN
    if (inRange(ms)) return ms
  }
  throw fieldError('sendAt', 'must be a date and time such as 2026-11-21T15:00:00Z or 2026-11-21 12:00:00')
}

type Resolved = {
  body: string
  contactId: number
  sendAt: number
  openTicket: 'enabled' | 'disabled'
  ticketUserId: number | null
  queueId: number | null
  statusTicket: 'open' | 'closed'
  whatsappId: number | null
  repeat: string | null
}

function assertIn(sqlite: Database, table: 'users' | 'queues' | 'whatsapps', id: number, companyId: number) {
  return !!stmt<{ id: number }, [number, number]>(
    sqlite,
    `SELECT id FROM ${table} WHERE id = ? AND company_id = ?`,
  ).get(id, companyId)
}

/** Checks the input against the company's records; the contact of another company is not found (404). */
function resolveInput(ctx: Ctx, input: ScheduleInput): Resolved {
  const companyId = ctx.actor.companyId
  const body = input.body.trim()
  if ([...body].length < SCHEDULE_BODY_MIN) throw fieldError('body', 'Mensagem muito curta')
  const contact = stmt<{ id: number }, [number, number]>(
    ctx.sqlite,
    'SELECT id FROM contacts WHERE id = ? AND company_id = ?',
  ).get(input.contactId, companyId)
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found')
  const tz = companyTimeZone(ctx.sqlite, companyId)
  const sendAt = sendAtOf(input.sendAt, tz)
  const openTicket = input.openTicket ?? 'enabled'
  const whatsappId = input.whatsappId ?? input.whatsappIds?.[0] ?? null
  const ticketUserId = openTicket === 'enabled' ? (input.ticketUserId ?? null) : null
  const queueId = openTicket === 'enabled' ? (input.queueId ?? null) : null
  if (ticketUserId != null && !assertIn(ctx.sqlite, 'users', ticketUserId, companyId))
    throw fieldError('ticketUserId', 'must be a user of the company')
  if (queueId != null && !assertIn(ctx.sqlite, 'queues', queueId, companyId))
    throw fieldError('queueId', 'must be a queue of the company')
  if (whatsappId != null && !assertIn(ctx.sqlite, 'whatsapps', whatsappId, companyId))
    throw fieldError('whatsappId', 'must be a connection of the company')
  let repeat: string | null = null
  if (input.repeat) {
    const r = input.repeat
    if (r.freq === 'weekly' && !r.weekdays?.length)
      throw fieldError('repeat.weekdays', 'choose at least one day')
    const until = parseWallTime(`${r.until}T23:59:59`)
    if (!until) throw fieldError('repeat.until', 'must be a real date')
    const untilAt = instantOf(until, tz)
    if (untilAt < sendAt) throw fieldError('repeat.until', 'must not be before the first send date')
    if (untilAt - sendAt > 5 * 366 * 86_400_000)
      throw fieldError('repeat.until', 'must be at most 5 years after the first send date')
    repeat = JSON.stringify(repeatRuleOf(r, sendAt, tz))
  }
  return {
    body,
    contactId: contact.id,
    sendAt,
    openTicket,
    ticketUserId,
    queueId,
    statusTicket: openTicket === 'enabled' ? (input.statusTicket ?? 'closed') : 'closed',
    whatsappId,
    repeat,
  }
}

/**
 * The new-ticket rule (tickets/held.ts): a schedule may not write into the contact's active ticket on its
 * connection when that ticket is not the user's to write in: 409 ERR_OTHER_OPEN_TICKET naming its holder. The
 * runner checks again at send time.
 */
function assertMayScheduleFor(ctx: Ctx, r: Resolved) {
  const whatsappId = scheduleConnection(ctx.sqlite, {
    companyId: ctx.actor.companyId,
    whatsappId: r.whatsappId,
  })
  if (whatsappId != null) assertMayWriteToContact(ctx.sqlite, actorScope(ctx), r.contactId, whatsappId)
}

export function createSchedule(ctx: Ctx, input: ScheduleInput): ScheduleDto {
  const actor = userActor(ctx)
  const r = resolveInput(ctx, input)
  assertMayScheduleFor(ctx, r)
  const id = transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, (string | number | null)[]>(
      sqlite,
      `INSERT INTO schedules (company_id, body, contact_id, send_at, status, open_ticket, ticket_user_id, queue_id,
                              status_ticket, whatsapp_id, user_id, repeat, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'PENDENTE', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      actor.companyId,
      r.body,
      r.contactId,
      r.sendAt,
      r.openTicket,
      r.ticketUserId,
      r.queueId,
      r.statusTicket,
      r.whatsappId,
      actor.userId,
      r.repeat,
      now,
      now,
    )!
    if (r.repeat) sqlite.query('UPDATE schedules SET series_id = id WHERE id = ?').run(id)
    publishSchedule(ctx, events, actor.companyId, id, 'create')
    return id
  })
  ctx.jobs.wake('schedules')
  return getSchedule(ctx, id)
}

function assertEditable(row: ScheduleRow) {
  if (row.sentAt != null || row.status === 'ENVIADA')
    throw fieldError('sentAt', 'This message was already sent and can no longer be changed')
  if (row.status === 'ENVIANDO')
    throw fieldError('status', 'This message is being sent right now; try again in a moment')
}

/**
 * `PUT /schedules/{id}`: refused once sent (sentAt) or while being sent. A failed one edited goes back to
 * PENDENTE (a fresh attempt at its new time). Editing an occurrence of a series edits it and the ones after it
 * (the next is written from it); taking the repetition away ends the series there.
 */
export function updateSchedule(ctx: Ctx, id: number, input: ScheduleInput): ScheduleDto {
  const companyId = ctx.actor.companyId
  userActor(ctx)
  assertEditable(scheduleInCompany(ctx.sqlite, companyId, id))
  const r = resolveInput(ctx, input)
  assertMayScheduleFor(ctx, r)
  transact(ctx, (sqlite, events) => {
    const current = scheduleInCompany(sqlite, companyId, id)
    assertEditable(current)
    sqlite
      .query(
        `UPDATE schedules SET body = ?, contact_id = ?, send_at = ?, open_ticket = ?, ticket_user_id = ?, queue_id = ?,
                status_ticket = ?, whatsapp_id = ?, repeat = ?, series_id = CASE WHEN ? IS NULL THEN NULL ELSE COALESCE(series_id, id) END,
                status = 'PENDENTE', error = NULL, message_id = NULL, ticket_id = NULL, claimed_at = NULL,
                updated_at = ?
          WHERE id = ?`,
      )
      .run(
        r.body,
        r.contactId,
        r.sendAt,
        r.openTicket,
        r.ticketUserId,
        r.queueId,
        r.statusTicket,
        r.whatsappId,
        r.repeat,
        r.repeat,
        ctx.clock.now(),
        id,
      )
    publishSchedule(ctx, events, companyId, id, 'update')
  })
  ctx.jobs.wake('schedules')
  return getSchedule(ctx, id)
}

/** Deletes a stored attachment unless another schedule (an occurrence of the same series) still uses it. */
function dropMediaFile(ctx: Ctx, companyId: number, path: string | null) {
  if (!path) return
  const used = stmt<{ id: number }, [number, string]>(
    ctx.sqlite,
    'SELECT id FROM schedules WHERE company_id = ? AND media_path = ? LIMIT 1',
  ).get(companyId, path)
  if (used) return
  const file = mediaFilePath(ctx, companyId, path)
  try {
    if (file) unlinkSync(file)
  } catch {}
}

/**
 * `DELETE /schedules/{id}`: any record but one being sent right now. Deleting the waiting occurrence of a
 * series ends the series (the next one is only ever written from it).
 */
export function deleteSchedule(ctx: Ctx, id: number) {
  const companyId = ctx.actor.companyId
  const row = transact(ctx, (sqlite, events) => {
    const row = scheduleInCompany(sqlite, companyId, id)
    if (row.status === 'ENVIANDO')
      throw fieldError('status', 'This message is being sent right now; try again in a moment')
    sqlite.query('DELETE FROM schedules WHERE id = ?').run(id)
    events.publish(rooms.company(companyId), channel(companyId, 'schedule'), {
      action: 'delete',
      scheduleId: id,
    })
    return row
  })
  dropMediaFile(ctx, companyId, row.mediaPath)
}

/** png, jpg and jpeg only (the spec), recognised by their bytes. */
export function assertScheduleImage(upload: UploadedMedia) {
  if (upload.format.ext !== 'png' && upload.format.ext !== 'jpg')
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Only png, jpg and jpeg images can be attached', {
      name: upload.name,
    })
}

/** `POST /schedules/{id}/media-upload`: one image, replacing any earlier one. */
export function uploadScheduleMedia(ctx: Ctx, id: number, upload: UploadedMedia): ScheduleDto {
  const companyId = ctx.actor.companyId
  assertScheduleImage(upload)
  assertEditable(scheduleInCompany(ctx.sqlite, companyId, id))
  const stored = storeMedia(ctx, companyId, upload.bytes, {
    mime: upload.format.mime,
    ext: upload.format.ext,
  })
  let previous: string | null = null
  try {
    transact(ctx, (sqlite, events) => {
      const row = scheduleInCompany(sqlite, companyId, id)
      assertEditable(row)
      previous = row.mediaPath
      sqlite
        .query(
          'UPDATE schedules SET media_path = ?, media_name = ?, media_mime = ?, updated_at = ? WHERE id = ?',
        )
        .run(
          stored.path,
          cleanFileName(upload.name, `image.${upload.format.ext}`),
          upload.format.mime,
          ctx.clock.now(),
          id,
        )
      publishSchedule(ctx, events, companyId, id, 'update')
    })
  } catch (err) {
    dropMediaFile(ctx, companyId, stored.path)
    throw err
  }
  dropMediaFile(ctx, companyId, previous)
  return getSchedule(ctx, id)
}

/** `DELETE /schedules/{id}/media-upload`: takes the attachment away. */
export function deleteScheduleMedia(ctx: Ctx, id: number): ScheduleDto {
  const companyId = ctx.actor.companyId
  const previous = transact(ctx, (sqlite, events) => {
    const row = scheduleInCompany(sqlite, companyId, id)
    assertEditable(row)
    sqlite
      .query(
        'UPDATE schedules SET media_path = NULL, media_name = NULL, media_mime = NULL, updated_at = ? WHERE id = ?',
      )
      .run(ctx.clock.now(), id)
    publishSchedule(ctx, events, companyId, id, 'update')
    return row.mediaPath
  })
  dropMediaFile(ctx, companyId, previous)
  return getSchedule(ctx, id)
}

/**
 * `POST /schedules/{id}/retry` (our addition): a failed schedule goes again. When its message was written and
 * failed to send, that message goes back in line (the conversation keeps one message); otherwise the schedule
 * is claimed afresh now.
 */
export function retrySchedule(ctx: Ctx, id: number): ScheduleDto {
  const companyId = ctx.actor.companyId
  const requeued = transact(ctx, (sqlite, events) => {
    const row = scheduleInCompany(sqlite, companyId, id)
    if (row.status !== 'ERRO') throw fieldError('status', 'Only a schedule that failed can be sent again')
    const now = ctx.clock.now()
    let messageId: number | null = null
    if (row.messageId != null) {
      const moved = sqlite
        .query(
          `UPDATE messages SET send_state = 'queued', send_error = NULL, updated_at = ?
            WHERE id = ? AND company_id = ? AND send_state = 'failed' AND is_deleted = 0`,
        )
        .run(now, row.messageId, companyId)
      if (moved.changes === 1) messageId = row.messageId
    }
    if (messageId != null)
      sqlite
        .query(
          `UPDATE schedules SET status = 'ENVIANDO', error = NULL, claimed_at = ?, attempts = attempts + 1,
                  updated_at = ? WHERE id = ?`,
        )
        .run(now, now, id)
    else
      sqlite
        .query(
          `UPDATE schedules SET status = 'PENDENTE', error = NULL, message_id = NULL, ticket_id = NULL,
                  claimed_at = NULL, send_at = MIN(send_at, ?), updated_at = ? WHERE id = ?`,
        )
        .run(now, now, id)
    publishSchedule(ctx, events, companyId, id, 'update')
    return messageId
  })
  if (requeued != null) followRetried(ctx, id, requeued)
  else ctx.jobs.wake('schedules')
  return getSchedule(ctx, id)
}
