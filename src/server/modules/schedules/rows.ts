/**
 * A schedule row, its answer shape and its live event: what the service, the runner and the settling share, in a
 * file of its own so neither the runner nor the service needs the other.
 */
import type { Database } from 'bun:sqlite'
import { AppError } from '../../../shared/errors'
import { nextOccurrence, type RepeatRule, type ScheduleDto } from '../../../shared/scheduled-messages'
import { maskName, type NumberVisibility } from '../../access/mask'
import { isoString } from '../../clock'
import type { Deps } from '../../context'
import type { ScheduleRow } from '../../db/schema/schedules'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
import { companyTimeZone } from '../settings/service'

/** A schedule row as the service reads it: the table's own row type. */
export type { ScheduleRow }

export const SCHEDULE_COLUMNS = `s.id, s.company_id AS companyId, s.body, s.contact_id AS contactId, s.send_at AS sendAt,
  s.sent_at AS sentAt, s.status, s.open_ticket AS openTicket, s.ticket_user_id AS ticketUserId,
  s.queue_id AS queueId, s.status_ticket AS statusTicket, s.whatsapp_id AS whatsappId, s.user_id AS userId,
  s.media_path AS mediaPath, s.media_name AS mediaName, s.media_mime AS mediaMime, s.error, s.attempts,
  s.claimed_at AS claimedAt, s.message_id AS messageId, s.ticket_id AS ticketId, s.repeat,
  s.series_id AS seriesId, s.created_at AS createdAt, s.updated_at AS updatedAt`

export type ListRow = ScheduleRow & { contactName: string | null; contactNumber: string | null }

export function parseRepeat(text: string | null): RepeatRule | null {
  if (!text) return null
  try {
    const rule = JSON.parse(text) as RepeatRule
    return rule && typeof rule === 'object' && typeof rule.freq === 'string' ? rule : null
  } catch {
    return null
  }
}

/** A schedule as a reader gets it: a contact name that is the number is masked unless they see numbers. */
export function toScheduleDto(
  deps: Pick<Deps, 'secrets' | 'clock'>,
  row: ListRow,
  visibility: NumberVisibility = 'disabled',
): ScheduleDto {
  return {
    id: row.id,
    companyId: row.companyId,
    body: row.body,
    contactId: row.contactId,
    contact: { id: row.contactId, name: maskName(row.contactName ?? '', row.contactNumber, visibility) },
    sendAt: isoString(row.sendAt),
    sentAt: row.sentAt == null ? null : isoString(row.sentAt),
    status: row.status,
    openTicket: row.openTicket,
    ticketUserId: row.ticketUserId,
    queueId: row.queueId,
    statusTicket: row.statusTicket,
    whatsappId: row.whatsappId,
    userId: row.userId,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? signedMediaUrl(deps, row.companyId, row.mediaPath) : null,
    error: row.error,
    attempts: row.attempts,
    ticketId: row.ticketId,
    repeat: parseRepeat(row.repeat),
    seriesId: row.seriesId,
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

const ONE_SQL = `SELECT ${SCHEDULE_COLUMNS}, c.name AS contactName, c.number AS contactNumber FROM schedules s
  LEFT JOIN contacts c ON c.id = s.contact_id WHERE s.id = ? AND s.company_id = ?`

/** The one way to load a schedule: another company's id is simply not found. */
export function scheduleInCompany(sqlite: Database, companyId: number, id: number): ListRow {
  const row = stmt<ListRow, [number, number]>(sqlite, ONE_SQL).get(id, companyId)
  if (!row) throw new AppError('ERR_NO_SCHEDULE_FOUND', 'Schedule not found')
  return row
}

/** Publishes a schedule's current state to the company (inside the caller's transaction). */
export function publishSchedule(
  deps: Deps,
  events: EventBuffer,
  companyId: number,
  id: number,
  action: 'create' | 'update',
) {
  const row = stmt<ListRow, [number, number]>(deps.sqlite, ONE_SQL).get(id, companyId)
  if (!row) return
  events.publish(rooms.company(companyId), channel(companyId, 'schedule'), {
    action,
    schedule: toScheduleDto(deps, row),
  })
}

/** The next occurrence of a series after `row` (written when `row` is claimed), or null. */
export function nextOccurrenceOf(deps: Deps, row: ScheduleRow, now: number): number | null {
  const rule = parseRepeat(row.repeat)
  if (!rule) return null
  return nextOccurrence(rule, Math.max(row.sendAt, now), companyTimeZone(deps.sqlite, row.companyId))
}
