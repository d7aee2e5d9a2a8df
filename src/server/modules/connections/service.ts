import type { Database } from 'bun:sqlite'
import type { ConnectionHealth, WhatsappDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { effectiveSchedules, serializeSchedules } from '../../../shared/schedules'
import type { CreateConnectionInput, UpdateConnectionInput } from '../../../shared/schemas/whatsapp'
import {
  CONNECTION_COLUMNS,
  insertConnectionRow,
  type RawConnectionRow,
  toConnectionRow,
  updateConnectionRow,
} from '../../channels/connection-row'
import { healthOf } from '../../channels/health'
import { isoTime } from '../../clock'
import type { Ctx } from '../../context'
import { isAdminActor, transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import type { WhatsappRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
import { forgetAllFinished } from '../chatbot/finished'
import { assertWithinPlanLimit } from '../plans/limits'
import { promptExists } from '../prompts/service'
import { integrationExists } from '../queue-integrations/service'

/**
 * A connection's token for the external send API: 32 random bytes, base64url. Only the server makes one
 * (at creation, or on `POST /whatsapp/{id}/token`), so a client can never probe for another tenant's token.
 */
export function newApiToken() {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

type QueueRef = WhatsappDto['queues'][number]

function queuesOf(sqlite: Database, connectionIds: number[]) {
  const byConnection = new Map<number, WhatsappDto['queues']>()
  if (!connectionIds.length) return byConnection
  const rows = stmt<QueueRef & { whatsappId: number }, [string]>(
    sqlite,
    `SELECT wq.whatsapp_id AS whatsappId, q.id, q.name, q.color
       FROM whatsapp_queues wq JOIN queues q ON q.id = wq.queue_id
      WHERE wq.whatsapp_id IN (SELECT value FROM json_each(?))
      ORDER BY q.order_queue, q.name`,
  ).all(JSON.stringify(connectionIds))
  for (const { whatsappId, ...queue } of rows)
    byConnection.set(whatsappId, [...(byConnection.get(whatsappId) ?? []), queue])
  return byConnection
}

/**
 * Admins see everything (with the connection's health when given); attendants (who pick connections when
 * transferring) never see secrets.
 */
export function toConnectionDto(
  row: WhatsappRow,
  queueRefs: WhatsappDto['queues'],
  admin: boolean,
  simulated = false,
  health?: ConnectionHealth,
): WhatsappDto {
  const { createdAt, updatedAt, token, qrcode, pairingCode, schedules, ...rest } = row
  return {
    ...rest,
    ...(simulated ? { simulated: true as const } : {}),
    schedules: effectiveSchedules(schedules),
    token: admin ? token : null,
    qrcode: admin ? qrcode : '',
    pairingCode: admin ? pairingCode : null,
    queues: queueRefs,
    createdAt: isoTime(createdAt)!,
    updatedAt: isoTime(updatedAt)!,
    ...(admin && health ? { health } : {}),
  }
}

/** The one way to load a connection: another company's id is simply not found. */
export function getConnectionRowInCompany(
  db: Connection,
  companyId: number,
  connectionId: number,
): WhatsappRow {
  const raw = stmt<RawConnectionRow, [number, number]>(
    sqliteOf(db),
    `SELECT ${CONNECTION_COLUMNS} FROM whatsapps WHERE id = ? AND company_id = ?`,
  ).get(connectionId, companyId)
  if (!raw) throw new AppError('ERR_NO_WAPP_FOUND', 'Connection not found')
  return toConnectionRow(raw)
}

/** Real-WhatsApp connections of a server running against the simulator talk to the simulator, not WhatsApp. */
function simulated(ctx: Ctx, row: WhatsappRow) {
  return !!ctx.waSimulator && row.provider === 'beta'
}

export function connectionDto(ctx: Ctx, row: WhatsappRow) {
  const admin = isAdminActor(ctx.actor)
  return toConnectionDto(
    row,
    queuesOf(ctx.sqlite, [row.id]).get(row.id) ?? [],
    admin,
    simulated(ctx, row),
    admin ? healthOf(ctx.sqlite, [row.id]).get(row.id) : undefined,
  )
}

/** The company's connections by name, then id (the order of the index the search walks anyway). */
function connectionRowsOf(sqlite: Database, companyId: number) {
  return stmt<RawConnectionRow, [number]>(
    sqlite,
    `SELECT ${CONNECTION_COLUMNS} FROM whatsapps WHERE company_id = ? ORDER BY name, id`,
  )
    .all(companyId)
    .map(toConnectionRow)
}

export function listConnections(ctx: Ctx): WhatsappDto[] {
  const rows = connectionRowsOf(ctx.sqlite, ctx.actor.companyId)
  const ids = rows.map((r) => r.id)
  const refs = queuesOf(ctx.sqlite, ids)
  const admin = isAdminActor(ctx.actor)
  const health = admin ? healthOf(ctx.sqlite, ids) : undefined
  return rows.map((r) =>
    toConnectionDto(r, refs.get(r.id) ?? [], admin, simulated(ctx, r), health?.get(r.id)),
  )
}

export function getConnection(ctx: Ctx, connectionId: number): WhatsappDto {
  return connectionDto(ctx, getConnectionRowInCompany(ctx.sqlite, ctx.actor.companyId, connectionId))
}

type Rules = Partial<CreateConnectionInput> & { queueIds?: number[] }

/** The spec's rules across fields, checked on the connection as it will be after the change. */
function assertRules(sqlite: Database, companyId: number, next: Rules, exceptId?: number) {
  if (next.name) {
    const clash = stmt<{ id: number }, [number, string]>(
      sqlite,
      'SELECT id FROM whatsapps WHERE company_id = ? AND name = ?',
    ).get(companyId, next.name)
    if (clash && clash.id !== exceptId)
      throw fieldError('name', 'Another connection already has this name', 'ERR_WAPP_NAME_ALREADY_EXISTS')
  }
  const redirectTime = next.timeSendQueue ?? 0
  if (redirectTime > 0 && !next.sendIdQueue)
    throw fieldError('sendIdQueue', 'Choose the queue to redirect to')
  if (next.sendIdQueue && redirectTime <= 0)
    throw fieldError('timeSendQueue', 'Set the time before redirecting')
  const npsTime = next.expiresTicketNPS ?? 0
  const rating = next.ratingMessage?.trim() ?? ''
  if (npsTime > 0 && !rating) throw fieldError('ratingMessage', 'NPS needs a rating message')
  if (rating && npsTime <= 0) throw fieldError('expiresTicketNPS', 'NPS needs a time to wait for the rating')
  if ((next.queueIds?.length ?? 0) > 1 && !next.greetingMessage?.trim()) {
    throw fieldError(
      'greetingMessage',
      'A greeting is required when the connection has more than one queue',
      'ERR_WAPP_GREETING_REQUIRED',
    )
  }
  const queueIds = [...new Set([...(next.queueIds ?? []), ...(next.sendIdQueue ? [next.sendIdQueue] : [])])]
  if (queueIds.length) {
    const found = stmt<{ id: number }, [number, string]>(
      sqlite,
      'SELECT id FROM queues WHERE company_id = ? AND id IN (SELECT value FROM json_each(?))',
    ).all(companyId, JSON.stringify(queueIds))
    if (found.length !== queueIds.length)
      throw fieldError(next.queueIds?.length ? 'queueIds' : 'sendIdQueue', 'Unknown queue')
  }
  if (next.promptId != null && !promptExists(sqlite, companyId, next.promptId))
    throw fieldError('promptId', 'No such prompt in this company')
  if (next.integrationId != null && !integrationExists(sqlite, companyId, next.integrationId))
    throw fieldError('integrationId', 'No such integration in this company')
  if (
    next.collectiveVacationStart &&
    next.collectiveVacationEnd &&
    next.collectiveVacationEnd < next.collectiveVacationStart
  ) {
    throw fieldError('collectiveVacationEnd', 'The vacation must end after it starts')
  }
  if (next.enableLGPD && next.lgpdConsent && !next.lgpdMessage?.trim())
    throw fieldError('lgpdMessage', 'Write the consent message the contact answers')
}

/** The row's stored hours: a null list means the spec's default hours (stored as none). */
const storedSchedules = (schedules: UpdateConnectionInput['schedules']) =>
  schedules === undefined ? {} : { schedules: schedules ? serializeSchedules(schedules) : '[]' }

function setQueues(sqlite: Database, connectionId: number, queueIds: number[]) {
  stmt<unknown, [number]>(sqlite, 'DELETE FROM whatsapp_queues WHERE whatsapp_id = ?').run(connectionId)
  const insert = stmt<unknown, [number, number]>(
    sqlite,
    'INSERT INTO whatsapp_queues (whatsapp_id, queue_id) VALUES (?, ?)',
  )
  for (const queueId of new Set(queueIds)) insert.run(connectionId, queueId)
}

/** Published on the transaction's connection; `ctx` only says whether the server runs against the simulator. */
function publish(
  ctx: Ctx,
  sqlite: Database,
  events: EventBuffer,
  row: WhatsappRow,
  action: 'create' | 'update',
) {
  const whatsapp = toConnectionDto(
    row,
    queuesOf(sqlite, [row.id]).get(row.id) ?? [],
    true,
    simulated(ctx, row),
    healthOf(sqlite, [row.id]).get(row.id),
  )
  events.publish(rooms.admins(row.companyId), channel(row.companyId, 'whatsapp'), { action, whatsapp })
}

/** Only one default per company: making one the default takes the flag from the others. */
function clearOtherDefaults(sqlite: Database, companyId: number, exceptId: number) {
  stmt<unknown, [number, number]>(
    sqlite,
    'UPDATE whatsapps SET is_default = 0 WHERE company_id = ? AND id <> ? AND is_default = 1',
  ).run(companyId, exceptId)
}

export async function createConnection(ctx: Ctx, input: CreateConnectionInput): Promise<WhatsappDto> {
  const { companyId } = ctx.actor
  // A --sandbox server is for trying Balcão without a phone: its connections are simulated unless asked otherwise.
  const provider = input.provider ?? (ctx.sandbox ? 'sandbox' : 'beta')
  if (provider === 'sandbox' && !ctx.sandbox) {
    throw fieldError(
      'provider',
      'The sandbox is not enabled on this server (start it with --sandbox)',
      'ERR_SANDBOX_DISABLED',
    )
  }
  const { queueIds = [], schedules, ...fields } = input
  const row = transact(ctx, (sqlite, events) => {
    assertWithinPlanLimit(ctx, 'connections', sqlite)
    assertRules(sqlite, companyId, input)
    const first =
      stmt<{ n: number }, [number]>(sqlite, 'SELECT count(*) AS n FROM whatsapps WHERE company_id = ?').get(
        companyId,
      )!.n === 0
    if (input.isDefault) clearOtherDefaults(sqlite, companyId, 0)
    const now = ctx.clock.now()
    const created = insertConnectionRow(sqlite, {
      ...fields,
      ...storedSchedules(schedules),
      provider,
      companyId,
      isDefault: first || !!input.isDefault,
      token: newApiToken(),
      status: 'OPENING',
      createdAt: now,
      updatedAt: now,
    })
    setQueues(sqlite, created.id, queueIds)
    publish(ctx, sqlite, events, created, 'create')
    return created
  })
  // A new connection starts at once, so its QR code is ready when the dialog opens.
  await startSession(ctx, row.id).catch((err: Error) =>
    ctx.log.warn('session did not start', { id: row.id, error: err.message }),
  )
  return getConnection(ctx, row.id)
}

export function updateConnection(ctx: Ctx, connectionId: number, input: UpdateConnectionInput): WhatsappDto {
  const { companyId } = ctx.actor
  const row = transact(ctx, (sqlite, events) => {
    const current = getConnectionRowInCompany(sqlite, companyId, connectionId)
    const currentQueues = (queuesOf(sqlite, [connectionId]).get(connectionId) ?? []).map((q) => q.id)
    const next = { ...current, ...input, schedules: undefined, queueIds: input.queueIds ?? currentQueues }
    assertRules(sqlite, companyId, { ...next, name: input.name }, connectionId)
    if (current.isDefault && input.isDefault === false) {
      throw new AppError(
        'ERR_NO_OTHER_WHATSAPP',
        'A company needs a default connection: make another one the default instead',
      )
    }
    const { queueIds, schedules, ...fields } = input
    if (input.isDefault) clearOtherDefaults(sqlite, companyId, connectionId)
    const updated = updateConnectionRow(sqlite, connectionId, {
      ...fields,
      ...storedSchedules(schedules),
      updatedAt: ctx.clock.now(),
    })!
    if (queueIds) setQueues(sqlite, connectionId, queueIds)
    // A bot given to the connection takes its waiting tickets with their next message (chatbot/finished.ts).
    if (updated.integrationId !== current.integrationId || updated.promptId !== current.promptId)
      events.afterCommit(() => forgetAllFinished(ctx))
    publish(ctx, sqlite, events, updated, 'update')
    return updated
  })
  return connectionDto(ctx, row)
}

/** POST /whatsapp/{id}/token: a new API token; the old one stops working at once. */
export function renewConnectionToken(ctx: Ctx, connectionId: number): WhatsappDto {
  const row = transact(ctx, (sqlite, events) => {
    getConnectionRowInCompany(sqlite, ctx.actor.companyId, connectionId)
    const updated = updateConnectionRow(sqlite, connectionId, {
      token: newApiToken(),
      updatedAt: ctx.clock.now(),
    })!
    publish(ctx, sqlite, events, updated, 'update')
    return updated
  })
  return connectionDto(ctx, row)
}

export async function deleteConnection(ctx: Ctx, connectionId: number) {
  const { companyId } = ctx.actor
  getConnectionRowInCompany(ctx.sqlite, companyId, connectionId)
  await ctx.channels.logout(connectionId)
  transact(ctx, (sqlite, events) => {
    const row = getConnectionRowInCompany(sqlite, companyId, connectionId)
    stmt<unknown, [number]>(sqlite, 'DELETE FROM whatsapps WHERE id = ?').run(connectionId)
    // Users who had it as their default connection go back to none.
    stmt<unknown, [number]>(sqlite, 'UPDATE users SET whatsapp_id = NULL WHERE whatsapp_id = ?').run(
      connectionId,
    )
    if (row.isDefault) {
      const heir = stmt<{ id: number }, [number]>(
        sqlite,
        'SELECT id FROM whatsapps WHERE company_id = ? ORDER BY id LIMIT 1',
      ).get(companyId)
      if (heir) {
        const promoted = updateConnectionRow(sqlite, heir.id, { isDefault: true })!
        publish(ctx, sqlite, events, promoted, 'update')
      }
    }
    events.publish(rooms.admins(companyId), channel(companyId, 'whatsapp'), {
      action: 'delete',
      whatsappId: connectionId,
    })
  })
}

/** POST /whatsappsession/{id}: starts (or resumes) the session; a phone asks for a pairing code. */
export async function startSession(ctx: Ctx, connectionId: number, options: { phone?: string } = {}) {
  const row = getConnectionRowInCompany(ctx.sqlite, ctx.actor.companyId, connectionId)
  if (options.phone) await ctx.channels.stop(connectionId)
  await ctx.channels.start(row, { pairingPhone: options.phone })
  return getConnection(ctx, connectionId)
}

/** PUT /whatsappsession/{id}: forgets the link and starts over with a new QR code. */
export async function renewQrCode(ctx: Ctx, connectionId: number) {
  const row = getConnectionRowInCompany(ctx.sqlite, ctx.actor.companyId, connectionId)
  await ctx.channels.logout(connectionId)
  await ctx.channels.start(row)
  return getConnection(ctx, connectionId)
}

/** DELETE /whatsappsession/{id}: unlinks the number; the connection stays, DISCONNECTED. */
export async function disconnectSession(ctx: Ctx, connectionId: number) {
  getConnectionRowInCompany(ctx.sqlite, ctx.actor.companyId, connectionId)
  await ctx.channels.logout(connectionId)
  return getConnection(ctx, connectionId)
}

/** POST /whatsapp-restart/: restarts every connection of the company that has a session. */
export async function restartCompanySessions(ctx: Ctx) {
  const rows = connectionRowsOf(ctx.sqlite, ctx.actor.companyId)
  for (const row of rows) {
    if (row.status === 'DISCONNECTED' && !ctx.channels.session(row.id)) continue
    await ctx.channels
      .restart(row)
      .catch((err: Error) => ctx.log.warn('restart failed', { id: row.id, error: err.message }))
  }
  return { restarted: rows.length }
}
