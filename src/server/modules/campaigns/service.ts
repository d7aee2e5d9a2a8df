/**
 * Campaigns (spec 2): the calls under `/campaigns`. Rules, transactions and live events live here; the sending
 * itself is the runner's (runner.ts), woken after every change that may give it work.
 *
 * Status machine: INATIVA (saved without a schedule: a draft) or PROGRAMADA (saved with `scheduledAt`) ->
 * EM_ANDAMENTO when the runner reaches `scheduledAt` -> FINALIZADA when every contact is done. PROGRAMADA and
 * EM_ANDAMENTO may be cancelled (CANCELADA); a cancelled campaign restarts (EM_ANDAMENTO) and continues where it
 * stopped. A campaign paused by WhatsApp's restriction stays EM_ANDAMENTO with `pausedReason` until an admin
 * resumes it. Editable (PUT, media): INATIVA, PROGRAMADA with its start more than 1 hour ahead, or CANCELADA
 * (saving a cancelled campaign makes it INATIVA or PROGRAMADA again, for the people it has not reached yet).
 */

import type { Database } from 'bun:sqlite'
import type {
  CampaignCounts,
  CampaignDto,
  CampaignPausedReason,
  CampaignStatus,
  CampaignsPage,
  CampaignWaitingReason,
} from '../../../shared/api'
import { isCampaignEditable } from '../../../shared/campaign-editable'
import { AppError, fieldError } from '../../../shared/errors'
import type { CampaignInput } from '../../../shared/schemas/campaigns'
import { isoString } from '../../clock'
import { type Ctx, type Deps, transact, userActor } from '../../context'
import { pageCount, pageOf, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import { cleanFileName, removeStoredMedia, storeMedia } from '../../media/store'
import type { UploadedMedia } from '../../media/upload'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
import { doorOf } from '../outbound/door'
import { sendAtOf } from '../schedules/service'
import { companyTimeZone } from '../settings/service'

const PAGE_SIZE = 20

export type CampaignDbRow = {
  id: number
  companyId: number
  name: string
  message1: string
  message2: string
  message3: string
  message4: string
  message5: string
  confirmationMessage1: string
  confirmationMessage2: string
  confirmationMessage3: string
  confirmationMessage4: string
  confirmationMessage5: string
  status: CampaignStatus
  confirmation: number
  scheduledAt: number | null
  completedAt: number | null
  whatsappId: number | null
  contactListId: number | null
  tagListId: number | null
  fileListId: number | null
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  preparedAt: number | null
  pausedReason: CampaignPausedReason | null
  pausedDetail: string | null
  waitingReason: CampaignWaitingReason | null
  createdAt: number
  updatedAt: number
}

export const CAMPAIGN_COLUMNS = `c.id, c.company_id AS companyId, c.name, c.message1, c.message2, c.message3, c.message4,
  c.message5, c.confirmation_message1 AS confirmationMessage1, c.confirmation_message2 AS confirmationMessage2,
  c.confirmation_message3 AS confirmationMessage3, c.confirmation_message4 AS confirmationMessage4,
  c.confirmation_message5 AS confirmationMessage5, c.status, c.confirmation, c.scheduled_at AS scheduledAt,
  c.completed_at AS completedAt, c.whatsapp_id AS whatsappId, c.contact_list_id AS contactListId,
  c.tag_list_id AS tagListId, c.file_list_id AS fileListId, c.media_path AS mediaPath, c.media_name AS mediaName,
  c.media_mime AS mediaMime, c.prepared_at AS preparedAt, c.paused_reason AS pausedReason,
  c.paused_detail AS pausedDetail, c.waiting_reason AS waitingReason, c.created_at AS createdAt,
  c.updated_at AS updatedAt`

const ONE_SQL = `SELECT ${CAMPAIGN_COLUMNS} FROM campaigns c WHERE c.id = ? AND c.company_id = ?`

/**
 * Editable: INATIVA, CANCELADA, or PROGRAMADA with its start more than 1 hour after `now` (exactly 1 hour is
 * not).
 */
export function isEditable(row: Pick<CampaignDbRow, 'status' | 'scheduledAt'>, now: number): boolean {
  return isCampaignEditable(row, now)
}

/** States of a shipping row that still have work (or a wait) ahead. */
export const OPEN_STATES = [
  'pending',
  'confirmation_sending',
  'confirmation_requested',
  'confirmed',
  'sending',
]

export function campaignCounts(sqlite: Database, campaignId: number): CampaignCounts {
  const rows = stmt<{ state: string; n: number }, [number]>(
    sqlite,
    'SELECT state, count(*) AS n FROM campaign_shippings WHERE campaign_id = ? GROUP BY state',
  ).all(campaignId)
  const by = Object.fromEntries(rows.map((r) => [r.state, r.n])) as Record<string, number>
  const n = (s: string) => by[s] ?? 0
  const total = rows.reduce((sum, r) => sum + r.n, 0)
  const asked = stmt<{ requested: number | null; confirmed: number | null }, [number]>(
    sqlite,
    `SELECT sum(confirmation_requested_at IS NOT NULL) AS requested, sum(confirmed_at IS NOT NULL) AS confirmed
       FROM campaign_shippings WHERE campaign_id = ?`,
  ).get(campaignId)
  return {
    total,
    valid: total - n('invalid'),
    invalid: n('invalid'),
    delivered: n('delivered'),
    confirmationRequested: asked?.requested ?? 0,
    confirmed: asked?.confirmed ?? 0,
    pending: OPEN_STATES.reduce((sum, s) => sum + n(s), 0),
    failed: n('failed'),
  }
}

function nameOf(
  sqlite: Database,
  table: 'whatsapps' | 'contact_lists',
  id: number | null,
  companyId: number,
) {
  if (id == null) return null
  try {
    const row = stmt<{ id: number; name: string }, [number, number]>(
      sqlite,
      `SELECT id, name FROM ${table} WHERE id = ? AND company_id = ?`,
    ).get(id, companyId)
    return row ?? null
  } catch {
    return null
  }
}

export function toCampaignDto(
  deps: Pick<Deps, 'secrets' | 'clock' | 'sqlite'>,
  row: CampaignDbRow,
): CampaignDto {
  return {
    id: row.id,
    name: row.name,
    message1: row.message1,
    message2: row.message2,
    message3: row.message3,
    message4: row.message4,
    message5: row.message5,
    confirmationMessage1: row.confirmationMessage1,
    confirmationMessage2: row.confirmationMessage2,
    confirmationMessage3: row.confirmationMessage3,
    confirmationMessage4: row.confirmationMessage4,
    confirmationMessage5: row.confirmationMessage5,
    status: row.status,
    confirmation: !!row.confirmation,
    scheduledAt: row.scheduledAt == null ? null : isoString(row.scheduledAt),
    completedAt: row.completedAt == null ? null : isoString(row.completedAt),
    whatsappId: row.whatsappId,
    whatsapp: nameOf(deps.sqlite, 'whatsapps', row.whatsappId, row.companyId),
    contactListId: row.contactListId,
    contactList: nameOf(deps.sqlite, 'contact_lists', row.contactListId, row.companyId),
    tagListId: row.tagListId,
    fileListId: row.fileListId,
    companyId: row.companyId,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? signedMediaUrl(deps, row.companyId, row.mediaPath) : null,
    editable: isEditable(row, deps.clock.now()),
    pausedReason: row.pausedReason,
    pausedDetail: row.pausedDetail,
    waitingReason: row.status === 'EM_ANDAMENTO' ? row.waitingReason : null,
    counts: campaignCounts(deps.sqlite, row.id),
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

export function campaignRowOf(sqlite: Database, companyId: number, id: number): CampaignDbRow {
  const row = stmt<CampaignDbRow, [number, number]>(sqlite, ONE_SQL).get(id, companyId)
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND', 'Campaign not found')
  return row
}

/** Publishes the campaign's current state to the company's admins (inside the caller's transaction). */
export function publishCampaign(
  deps: Pick<Deps, 'secrets' | 'clock' | 'sqlite'>,
  events: EventBuffer,
  companyId: number,
  id: number,
  action: 'create' | 'update',
) {
  const row = stmt<CampaignDbRow, [number, number]>(deps.sqlite, ONE_SQL).get(id, companyId)
  if (!row) return
  events.publish(rooms.admins(companyId), channel(companyId, 'campaign'), {
    action,
    record: toCampaignDto(deps, row),
  })
}

/* ---------- list and read ---------- */

export function listCampaigns(ctx: Ctx, query: { searchParam?: string; pageNumber?: number }): CampaignsPage {
  const actor = userActor(ctx)
  const term = query.searchParam?.trim() || null
  const at = pageWindow(query.pageNumber, PAGE_SIZE)
  const where = `c.company_id = ?1 AND (?2 IS NULL OR instr(lower(c.name), lower(?2)) > 0)`
  const page = pageOf(
    stmt<CampaignDbRow, [number, string | null, number, number]>(
      ctx.sqlite,
      `SELECT ${CAMPAIGN_COLUMNS} FROM campaigns c WHERE ${where} ORDER BY c.id DESC LIMIT ?3 OFFSET ?4`,
    ).all(actor.companyId, term, at.limit, at.offset),
    at,
  )
  const count = pageCount(
    page,
    () =>
      stmt<{ n: number }, [number, string | null]>(
        ctx.sqlite,
        `SELECT count(*) AS n FROM campaigns c WHERE ${where}`,
      ).get(actor.companyId, term)!.n,
  )
  return { records: page.rows.map((r) => toCampaignDto(ctx, r)), count, hasMore: page.hasMore }
}

export function getCampaign(ctx: Ctx, id: number): CampaignDto {
  const actor = userActor(ctx)
  return toCampaignDto(ctx, campaignRowOf(ctx.sqlite, actor.companyId, id))
}

/* ---------- save ---------- */

type Resolved = {
  name: string
  confirmation: boolean
  scheduledAt: number | null
  whatsappId: number | null
  contactListId: number | null
  tagListId: number | null
  fileListId: number | null
  messages: string[]
  confirmationMessages: string[]
}

function exists(sqlite: Database, table: string, id: number, companyId: number): boolean {
  try {
    return !!stmt<{ id: number }, [number, number]>(
      sqlite,
      `SELECT id FROM ${table} WHERE id = ? AND company_id = ?`,
    ).get(id, companyId)
  } catch {
    // The table of another area is not there (yet): the id cannot be checked, so it is refused.
    return false
  }
}

function resolve(ctx: Ctx, companyId: number, input: CampaignInput): Resolved {
  const sqlite = ctx.sqlite
  const messages = [input.message1, input.message2, input.message3, input.message4, input.message5].map((m) =>
    (m ?? '').trim(),
  )
  const confirmationMessages = [
    input.confirmationMessage1,
    input.confirmationMessage2,
    input.confirmationMessage3,
    input.confirmationMessage4,
    input.confirmationMessage5,
  ].map((m) => (m ?? '').trim())
  const r: Resolved = {
    name: input.name,
    confirmation: !!input.confirmation,
    scheduledAt: input.scheduledAt
      ? sendAtOfField(input.scheduledAt, companyTimeZone(sqlite, companyId))
      : null,
    whatsappId: input.whatsappId ?? null,
    contactListId: input.contactListId ?? null,
    tagListId: input.tagListId ?? null,
    fileListId: input.fileListId ?? null,
    messages,
    confirmationMessages,
  }
  if (r.whatsappId != null && !exists(sqlite, 'whatsapps', r.whatsappId, companyId))
    throw fieldError('whatsappId', 'must be a connection of this company')
  if (r.contactListId != null && !exists(sqlite, 'contact_lists', r.contactListId, companyId))
    throw fieldError('contactListId', 'must be a contact list of this company')
  if (r.tagListId != null && !exists(sqlite, 'tags', r.tagListId, companyId))
    throw fieldError('tagListId', 'must be a tag of this company')
  if (r.fileListId != null && !exists(sqlite, 'files', r.fileListId, companyId))
    throw fieldError('fileListId', 'must be a file list of this company')
  if (r.scheduledAt != null) assertReady(r)
  return r
}

function sendAtOfField(value: string, timeZone: string): number {
  try {
    return sendAtOf(value, timeZone)
  } catch {
    throw fieldError(
      'scheduledAt',
      'must be a date and time such as 2026-11-21 12:00:00 or 2026-11-21T15:00:00Z',
    )
  }
}

/** What a campaign needs before it may be scheduled or started. */
function assertReady(
  r: Pick<
    Resolved,
    'whatsappId' | 'contactListId' | 'tagListId' | 'messages' | 'confirmation' | 'confirmationMessages'
  >,
) {
  if (r.whatsappId == null) throw fieldError('whatsappId', 'choose the connection that sends the campaign')
  if (r.contactListId == null && r.tagListId == null)
    throw fieldError('contactListId', 'choose a contact list or a tag list')
  if (!r.messages.some((m) => m)) throw fieldError('message1', 'write at least one message')
  if (r.confirmation && !r.confirmationMessages.some((m) => m))
    throw fieldError('confirmationMessage1', 'write at least one confirmation message')
}

function writeValues(r: Resolved) {
  return [
    r.name,
    ...r.messages,
    ...r.confirmationMessages,
    r.confirmation ? 1 : 0,
    r.scheduledAt,
    r.whatsappId,
    r.contactListId,
    r.tagListId,
    r.fileListId,
    r.scheduledAt != null ? 'PROGRAMADA' : 'INATIVA',
  ]
}

export function createCampaign(ctx: Ctx, input: CampaignInput): CampaignDto {
  const actor = userActor(ctx)
  const r = resolve(ctx, actor.companyId, input)
  const id = transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const row = stmt<{ id: number }, (string | number | null)[]>(
      sqlite,
      `INSERT INTO campaigns (name, message1, message2, message3, message4, message5, confirmation_message1,
         confirmation_message2, confirmation_message3, confirmation_message4, confirmation_message5, confirmation,
         scheduled_at, whatsapp_id, contact_list_id, tag_list_id, file_list_id, status, company_id, created_at,
         updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(...writeValues(r), actor.companyId, now, now)!
    publishCampaign(ctx, events, actor.companyId, row.id, 'create')
    return row.id
  })
  ctx.jobs.wake('campaigns')
  return getCampaign(ctx, id)
}

function assertEditable(ctx: Ctx, row: CampaignDbRow) {
  if (!isEditable(row, ctx.clock.now()))
    throw new AppError(
      'ERR_CAMPAIGN_NOT_EDITABLE',
      'Only an inactive or cancelled campaign, or a scheduled one more than 1 hour before its start, can be changed',
      { status: row.status },
    )
}

/**
 * A cancelled campaign being saved: its shipping rows not yet touched are dropped and it will be prepared again
 * when it starts, so the edited list and messages reach whoever it has not reached; rows already sent, refused
 * or waiting for a confirmation stay, and their numbers are not sent to twice (one row per campaign and number).
 */
function reopenCancelled(sqlite: Database, id: number) {
  stmt(sqlite, "DELETE FROM campaign_shippings WHERE campaign_id = ? AND state = 'pending'").run(id)
  stmt(sqlite, 'UPDATE campaigns SET prepared_at = NULL, completed_at = NULL WHERE id = ?').run(id)
}

export function updateCampaign(ctx: Ctx, id: number, input: CampaignInput): CampaignDto {
  const actor = userActor(ctx)
  assertEditable(ctx, campaignRowOf(ctx.sqlite, actor.companyId, id))
  const r = resolve(ctx, actor.companyId, input)
  transact(ctx, (sqlite, events) => {
    // Checked again inside the transaction: the runner may have started it meanwhile.
    const before = campaignRowOf(sqlite, actor.companyId, id)
    assertEditable(ctx, before)
    if (before.status === 'CANCELADA') reopenCancelled(sqlite, id)
    stmt(
      sqlite,
      `UPDATE campaigns SET name = ?, message1 = ?, message2 = ?, message3 = ?, message4 = ?, message5 = ?,
         confirmation_message1 = ?, confirmation_message2 = ?, confirmation_message3 = ?, confirmation_message4 = ?,
         confirmation_message5 = ?, confirmation = ?, scheduled_at = ?, whatsapp_id = ?, contact_list_id = ?,
         tag_list_id = ?, file_list_id = ?, status = ?, updated_at = ?
       WHERE id = ? AND company_id = ?`,
    ).run(...writeValues(r), ctx.clock.now(), id, actor.companyId)
    publishCampaign(ctx, events, actor.companyId, id, 'update')
  })
  ctx.jobs.wake('campaigns')
  return getCampaign(ctx, id)
}

export function deleteCampaign(ctx: Ctx, id: number) {
  const actor = userActor(ctx)
  const gone = transact(ctx, (sqlite, events) => {
    const row = campaignRowOf(sqlite, actor.companyId, id)
    stmt(sqlite, 'DELETE FROM campaigns WHERE id = ?').run(id)
    events.publish(rooms.admins(actor.companyId), channel(actor.companyId, 'campaign'), {
      action: 'delete',
      id,
    })
    return row
  })
  removeFile(ctx, actor.companyId, gone.mediaPath)
}

/* ---------- status changes ---------- */

function transition(
  ctx: Ctx,
  id: number,
  allowed: (row: CampaignDbRow) => boolean,
  sql: string,
  what: string,
): CampaignDto {
  const actor = userActor(ctx)
  transact(ctx, (sqlite, events) => {
    const row = campaignRowOf(sqlite, actor.companyId, id)
    if (!allowed(row))
      throw new AppError('ERR_CAMPAIGN_INVALID_TRANSITION', `A ${row.status} campaign cannot be ${what}`, {
        status: row.status,
      })
    if (what === 'restarted')
      assertReady({
        whatsappId: row.whatsappId,
        contactListId: row.contactListId,
        tagListId: row.tagListId,
        confirmation: !!row.confirmation,
        messages: [row.message1, row.message2, row.message3, row.message4, row.message5],
        confirmationMessages: [
          row.confirmationMessage1,
          row.confirmationMessage2,
          row.confirmationMessage3,
          row.confirmationMessage4,
          row.confirmationMessage5,
        ],
      })
    stmt(sqlite, sql).run(ctx.clock.now(), id)
    publishCampaign(ctx, events, actor.companyId, id, 'update')
  })
  ctx.jobs.wake('campaigns')
  return getCampaign(ctx, id)
}

/** `POST /campaigns/{id}/cancel`: a scheduled or running campaign stops; what was sent stays sent. */
export function cancelCampaign(ctx: Ctx, id: number): CampaignDto {
  return transition(
    ctx,
    id,
    (r) => r.status === 'EM_ANDAMENTO' || r.status === 'PROGRAMADA',
    `UPDATE campaigns SET status = 'CANCELADA', waiting_reason = NULL, updated_at = ?1 WHERE id = ?2`,
    'cancelled',
  )
}

/** `POST /campaigns/{id}/restart`: a cancelled campaign runs again, from where it stopped. */
export function restartCampaign(ctx: Ctx, id: number): CampaignDto {
  return transition(
    ctx,
    id,
    (r) => r.status === 'CANCELADA',
    `UPDATE campaigns SET status = 'EM_ANDAMENTO', completed_at = NULL, updated_at = ?1 WHERE id = ?2`,
    'restarted',
  )
}

/** `POST /campaigns/{id}/resume` (ours): an admin lifts the pause WhatsApp's restriction caused. */
export function resumeCampaign(ctx: Ctx, id: number): CampaignDto {
  const campaign = transition(
    ctx,
    id,
    (r) => r.status === 'EM_ANDAMENTO' && r.pausedReason != null,
    `UPDATE campaigns SET paused_reason = NULL, paused_detail = NULL, updated_at = ?1 WHERE id = ?2`,
    'resumed',
  )
  // The admin says the number may reach out again: its door forgets the restriction (before the senders look).
  if (campaign.whatsappId != null) doorOf(ctx, campaign.whatsappId).lift()
  return campaign
}

/* ---------- media ---------- */

function removeFile(ctx: Ctx, companyId: number, path: string | null) {
  removeStoredMedia(ctx, companyId, path, 'campaign media')
}

/** Checked before the upload is read: the campaign exists in the company and may be changed. */
export function assertMayAttach(ctx: Ctx, id: number) {
  const actor = userActor(ctx)
  assertEditable(ctx, campaignRowOf(ctx.sqlite, actor.companyId, id))
}

/** `POST /campaigns/{id}/media-upload`: the attachment sent with the campaign's message. */
export function attachCampaignMedia(ctx: Ctx, id: number, upload: UploadedMedia): CampaignDto {
  const actor = userActor(ctx)
  assertMayAttach(ctx, id)
  const stored = storeMedia(ctx, actor.companyId, upload.bytes, {
    mime: upload.format.mime,
    ext: upload.format.ext,
  })
  let previous: string | null = null
  try {
    transact(ctx, (sqlite, events) => {
      const current = campaignRowOf(sqlite, actor.companyId, id)
      assertEditable(ctx, current)
      previous = current.mediaPath
      stmt(
        sqlite,
        'UPDATE campaigns SET media_path = ?, media_name = ?, media_mime = ?, updated_at = ? WHERE id = ?',
      ).run(
        stored.path,
        cleanFileName(upload.name, `file.${upload.format.ext}`),
        upload.sendMime,
        ctx.clock.now(),
        id,
      )
      publishCampaign(ctx, events, actor.companyId, id, 'update')
    })
  } catch (err) {
    removeFile(ctx, actor.companyId, stored.path)
    throw err
  }
  removeFile(ctx, actor.companyId, previous)
  return getCampaign(ctx, id)
}

/** `DELETE /campaigns/{id}/media-upload`. */
export function removeCampaignMedia(ctx: Ctx, id: number): CampaignDto {
  const actor = userActor(ctx)
  let previous: string | null = null
  transact(ctx, (sqlite, events) => {
    const current = campaignRowOf(sqlite, actor.companyId, id)
    assertEditable(ctx, current)
    previous = current.mediaPath
    stmt(
      sqlite,
      'UPDATE campaigns SET media_path = NULL, media_name = NULL, media_mime = NULL, updated_at = ? WHERE id = ?',
    ).run(ctx.clock.now(), id)
    publishCampaign(ctx, events, actor.companyId, id, 'update')
  })
  removeFile(ctx, actor.companyId, previous)
  return getCampaign(ctx, id)
}
