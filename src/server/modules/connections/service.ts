import { and, asc, count, eq, inArray, ne } from 'drizzle-orm'
import type { WhatsappDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { effectiveSchedules, serializeSchedules } from '../../../shared/schedules'
import type { CreateConnectionInput, UpdateConnectionInput } from '../../../shared/schemas/whatsapp'
import { isoTime } from '../../clock'
import type { Ctx } from '../../context'
import { isAdminActor, transact } from '../../context'
import type { DB } from '../../db/client'
import { sqliteOf } from '../../db/connection'
import { queues, users, type WhatsappRow, whatsappQueues, whatsapps } from '../../db/schema'
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

function queuesOf(db: DB, connectionIds: number[]) {
  const byConnection = new Map<number, WhatsappDto['queues']>()
  if (!connectionIds.length) return byConnection
  const rows = db
    .select({ whatsappId: whatsappQueues.whatsappId, id: queues.id, name: queues.name, color: queues.color })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(inArray(whatsappQueues.whatsappId, connectionIds))
    .orderBy(asc(queues.orderQueue), asc(queues.name))
    .all()
  for (const { whatsappId, ...queue } of rows)
    byConnection.set(whatsappId, [...(byConnection.get(whatsappId) ?? []), queue])
  return byConnection
}

/** Admins see everything; attendants (who pick connections when transferring) never see secrets. */
export function toConnectionDto(
  row: WhatsappRow,
  queueRefs: WhatsappDto['queues'],
  admin: boolean,
  simulated = false,
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
  }
}

/** The one way to load a connection: another company's id is simply not found. */
export function getConnectionRowInCompany(db: DB, companyId: number, connectionId: number): WhatsappRow {
  const row = db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.id, connectionId), eq(whatsapps.companyId, companyId)))
    .get()
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND', 'Connection not found')
  return row
}

/** Real-WhatsApp connections of a server running against the simulator talk to the simulator, not WhatsApp. */
function simulated(ctx: Ctx, row: WhatsappRow) {
  return !!ctx.waSimulator && row.provider === 'beta'
}

export function connectionDto(ctx: Ctx, row: WhatsappRow) {
  return toConnectionDto(
    row,
    queuesOf(ctx.db, [row.id]).get(row.id) ?? [],
    isAdminActor(ctx.actor),
    simulated(ctx, row),
  )
}

export function listConnections(ctx: Ctx): WhatsappDto[] {
  const rows = ctx.db
    .select()
    .from(whatsapps)
    .where(eq(whatsapps.companyId, ctx.actor.companyId))
    .orderBy(asc(whatsapps.name), asc(whatsapps.id))
    .all()
  const refs = queuesOf(
    ctx.db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => toConnectionDto(r, refs.get(r.id) ?? [], isAdminActor(ctx.actor), simulated(ctx, r)))
}

export function getConnection(ctx: Ctx, connectionId: number): WhatsappDto {
  return connectionDto(ctx, getConnectionRowInCompany(ctx.db, ctx.actor.companyId, connectionId))
}

type Rules = Partial<CreateConnectionInput> & { queueIds?: number[] }

/** The spec's rules across fields, checked on the connection as it will be after the change. */
function assertRules(db: DB, companyId: number, next: Rules, exceptId?: number) {
  if (next.name) {
    const clash = db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.name, next.name)))
      .get()
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
    const found = db
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), inArray(queues.id, queueIds)))
      .all()
    if (found.length !== queueIds.length)
      throw fieldError(next.queueIds?.length ? 'queueIds' : 'sendIdQueue', 'Unknown queue')
  }
  if (next.promptId != null && !promptExists(sqliteOf(db), companyId, next.promptId))
    throw fieldError('promptId', 'No such prompt in this company')
  if (next.integrationId != null && !integrationExists(sqliteOf(db), companyId, next.integrationId))
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

function setQueues(tx: DB, connectionId: number, queueIds: number[]) {
  tx.delete(whatsappQueues).where(eq(whatsappQueues.whatsappId, connectionId)).run()
  const unique = [...new Set(queueIds)]
  if (unique.length)
    tx.insert(whatsappQueues)
      .values(unique.map((queueId) => ({ whatsappId: connectionId, queueId })))
      .run()
}

function publish(ctx: Ctx, events: EventBuffer, row: WhatsappRow, action: 'create' | 'update') {
  const whatsapp = toConnectionDto(
    row,
    queuesOf(ctx.db, [row.id]).get(row.id) ?? [],
    true,
    simulated(ctx, row),
  )
  events.publish(rooms.admins(row.companyId), channel(row.companyId, 'whatsapp'), { action, whatsapp })
}

/** Only one default per company: making one the default takes the flag from the others. */
function clearOtherDefaults(tx: DB, companyId: number, exceptId: number) {
  tx.update(whatsapps)
    .set({ isDefault: false })
    .where(and(eq(whatsapps.companyId, companyId), ne(whatsapps.id, exceptId), eq(whatsapps.isDefault, true)))
    .run()
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
  const row = transact(ctx, (tx, events) => {
    assertWithinPlanLimit(ctx, 'connections', tx)
    assertRules(tx, companyId, input)
    const first =
      (tx.select({ n: count() }).from(whatsapps).where(eq(whatsapps.companyId, companyId)).get()?.n ?? 0) ===
      0
    if (input.isDefault) clearOtherDefaults(tx, companyId, 0)
    const now = ctx.clock.now()
    const created = tx
      .insert(whatsapps)
      .values({
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
      .returning()
      .get()
    setQueues(tx, created.id, queueIds)
    publish(ctx, events, created, 'create')
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
  const row = transact(ctx, (tx, events) => {
    const current = getConnectionRowInCompany(tx, companyId, connectionId)
    const currentQueues = (queuesOf(tx, [connectionId]).get(connectionId) ?? []).map((q) => q.id)
    const next = { ...current, ...input, schedules: undefined, queueIds: input.queueIds ?? currentQueues }
    assertRules(tx, companyId, { ...next, name: input.name }, connectionId)
    if (current.isDefault && input.isDefault === false) {
      throw new AppError(
        'ERR_NO_OTHER_WHATSAPP',
        'A company needs a default connection: make another one the default instead',
      )
    }
    const { queueIds, schedules, ...fields } = input
    if (input.isDefault) clearOtherDefaults(tx, companyId, connectionId)
    const updated = tx
      .update(whatsapps)
      .set({ ...fields, ...storedSchedules(schedules), updatedAt: ctx.clock.now() })
      .where(eq(whatsapps.id, connectionId))
      .returning()
      .get()
    if (queueIds) setQueues(tx, connectionId, queueIds)
    // A bot given to the connection takes its waiting tickets with their next message (chatbot/finished.ts).
    if (updated.integrationId !== current.integrationId || updated.promptId !== current.promptId)
      events.afterCommit(() => forgetAllFinished(ctx))
    publish(ctx, events, updated, 'update')
    return updated
  })
  return connectionDto(ctx, row)
}

/** POST /whatsapp/{id}/token: a new API token; the old one stops working at once. */
export function renewConnectionToken(ctx: Ctx, connectionId: number): WhatsappDto {
  const row = transact(ctx, (tx, events) => {
    getConnectionRowInCompany(tx, ctx.actor.companyId, connectionId)
    const updated = tx
      .update(whatsapps)
      .set({ token: newApiToken(), updatedAt: ctx.clock.now() })
      .where(eq(whatsapps.id, connectionId))
      .returning()
      .get()
    publish(ctx, events, updated, 'update')
    return updated
  })
  return connectionDto(ctx, row)
}

export async function deleteConnection(ctx: Ctx, connectionId: number) {
  const { companyId } = ctx.actor
  getConnectionRowInCompany(ctx.db, companyId, connectionId)
  await ctx.channels.logout(connectionId)
  transact(ctx, (tx, events) => {
    const row = getConnectionRowInCompany(tx, companyId, connectionId)
    tx.delete(whatsapps).where(eq(whatsapps.id, connectionId)).run()
    // Users who had it as their default connection go back to none.
    tx.update(users).set({ whatsappId: null }).where(eq(users.whatsappId, connectionId)).run()
    if (row.isDefault) {
      const heir = tx
        .select()
        .from(whatsapps)
        .where(eq(whatsapps.companyId, companyId))
        .orderBy(asc(whatsapps.id))
        .get()
      if (heir) {
        const promoted = tx
          .update(whatsapps)
          .set({ isDefault: true })
          .where(eq(whatsapps.id, heir.id))
          .returning()
          .get()
        publish(ctx, events, promoted, 'update')
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
  const row = getConnectionRowInCompany(ctx.db, ctx.actor.companyId, connectionId)
  if (options.phone) await ctx.channels.stop(connectionId)
  await ctx.channels.start(row, { pairingPhone: options.phone })
  return getConnection(ctx, connectionId)
}

/** PUT /whatsappsession/{id}: forgets the link and starts over with a new QR code. */
export async function renewQrCode(ctx: Ctx, connectionId: number) {
  const row = getConnectionRowInCompany(ctx.db, ctx.actor.companyId, connectionId)
  await ctx.channels.logout(connectionId)
  await ctx.channels.start(row)
  return getConnection(ctx, connectionId)
}

/** DELETE /whatsappsession/{id}: unlinks the number; the connection stays, DISCONNECTED. */
export async function disconnectSession(ctx: Ctx, connectionId: number) {
  getConnectionRowInCompany(ctx.db, ctx.actor.companyId, connectionId)
  await ctx.channels.logout(connectionId)
  return getConnection(ctx, connectionId)
}

/** POST /whatsapp-restart/: restarts every connection of the company that has a session. */
export async function restartCompanySessions(ctx: Ctx) {
  const rows = ctx.db.select().from(whatsapps).where(eq(whatsapps.companyId, ctx.actor.companyId)).all()
  for (const row of rows) {
    if (row.status === 'DISCONNECTED' && !ctx.channels.session(row.id)) continue
    await ctx.channels
      .restart(row)
      .catch((err: Error) => ctx.log.warn('restart failed', { id: row.id, error: err.message }))
  }
  return { restarted: rows.length }
}
