import type { TicketDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { CreateTicketInput, UpdateTicketInput } from '../../../shared/schemas/tickets'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import type { TicketRow } from '../../db/schema'
import type { TicketEventType, TicketStatus } from '../../db/schema/tickets'
import { stmt } from '../../db/statements'
import { companyTimeZone, settingValue } from '../settings/service'
import { type ActorScope, actorScope, assertCanSeeTicket } from './access'
import { loadTicketDtos, maskTicket } from './dto'
import { recordTicketEvent, type TicketState } from './events'
import { otherOpenTicket } from './held'
import { publishTicket, publishTicketDeleted, type TicketPlace } from './live'
import { acceptGreeting, fillTemplate, transferNotice } from './notices'
import { activeTicketRow, insertTicket, ticketRowByUuid, ticketRowInCompany } from './rows'
import type { TicketNotices, TicketTransitionListener } from './transitions'

/** The ticket in the actor's company, or 404 ERR_NO_TICKET_FOUND (another company's id is not found). */
export function getTicketRow(ctx: Ctx, id: number): TicketRow {
  const row = ticketRowInCompany(ctx.sqlite, ctx.actor.companyId, id)
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
  return row
}

/**
 * A ticket the acting user may see: 404 for another company's (or no) ticket, 403 'Acesso não permitido' for
 * one outside their queues. The messages area loads tickets through this.
 */
export function getVisibleTicket(ctx: Ctx, id: number): { ticket: TicketRow; scope: ActorScope } {
  const ticket = getTicketRow(ctx, id)
  const scope = actorScope(ctx)
  assertCanSeeTicket(scope, ticket)
  return { ticket, scope }
}

/** The ticket as the acting user gets it (numbers masked unless their isTricked is 'enabled'). */
export function ticketDtoFor(ctx: Ctx, scope: ActorScope, id: number): TicketDto {
  const dto = loadTicketDtos(ctx.sqlite, [id])[0]
  if (!dto) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
  return maskTicket(dto, scope.isTricked)
}

export function getTicket(ctx: Ctx, id: number): TicketDto {
  const { scope } = getVisibleTicket(ctx, id)
  return ticketDtoFor(ctx, scope, id)
}

export function getTicketByUuid(ctx: Ctx, uuid: string): TicketDto {
  const row = ticketRowByUuid(ctx.sqlite, ctx.actor.companyId, uuid)
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
  const scope = actorScope(ctx)
  assertCanSeeTicket(scope, row)
  return ticketDtoFor(ctx, scope, row.id)
}

/* ---------- references in bodies ---------- */

function assertUserInCompany(ctx: Ctx, userId: number): string {
  const row = stmt<{ name: string }, [number, number]>(
    ctx.sqlite,
    'SELECT name FROM users WHERE id = ? AND company_id = ?',
  ).get(userId, ctx.actor.companyId)
  if (!row) throw fieldError('userId', 'Unknown user', 'ERR_NO_USER_FOUND')
  return row.name
}

function assertQueueInCompany(ctx: Ctx, queueId: number): string {
  const row = stmt<{ name: string }, [number, number]>(
    ctx.sqlite,
    'SELECT name FROM queues WHERE id = ? AND company_id = ?',
  ).get(queueId, ctx.actor.companyId)
  if (!row) throw fieldError('queueId', 'Unknown queue', 'ERR_NO_QUEUE_FOUND')
  return row.name
}

function assertWhatsappInCompany(ctx: Ctx, whatsappId: number) {
  const row = stmt<{ id: number }, [number, number]>(
    ctx.sqlite,
    'SELECT id FROM whatsapps WHERE id = ? AND company_id = ?',
  ).get(whatsappId, ctx.actor.companyId)
  if (!row) throw fieldError('whatsappId', 'Unknown connection', 'ERR_NO_WAPP_FOUND')
}

function assertNoOtherActive(
  ctx: Ctx,
  scope: ActorScope,
  contactId: number,
  whatsappId: number,
  exceptId = 0,
) {
  const other = activeTicketRow(ctx.sqlite, ctx.actor.companyId, contactId, whatsappId)
  if (other && other.id !== exceptId) throw otherOpenTicket(ctx.sqlite, scope, other.id)
}

/* ---------- PUT /tickets/{id}: the transition table ---------- */

type Plan = {
  type: TicketEventType | null
  to: TicketState
  /** Text for the customer, written as an outbound message of the actor with the change. */
  notice: string | null
}

const stateOf = (t: TicketRow): TicketState => ({
  status: t.status,
  userId: t.userId,
  queueId: t.queueId,
  whatsappId: t.whatsappId,
})

const sameState = (a: TicketState, b: TicketState) =>
  a.status === b.status && a.userId === b.userId && a.queueId === b.queueId && a.whatsappId === b.whatsappId

function invalid(message: string) {
  return new AppError('ERR_TICKET_INVALID_TRANSITION', message)
}

function noPermission(message = 'Acesso não permitido') {
  return new AppError('ERR_NO_PERMISSION', message)
}

/**
 * Decides what a PUT asks for (spec 1 §4), or refuses it. `from` is where the ticket is, `me` the actor.
 *
 * | from    | asks                                   | result                                             |
 * |---------|----------------------------------------|----------------------------------------------------|
 * | pending | status open (userId absent or me)      | accepted: open, assigned to me                     |
 * | pending | status open, userId another user       | transferred: open, assigned to that user           |
 * | open    | status pending, same queue             | returned: pending, user cleared                    |
 * | open    | status pending with another queue      | transferred: pending in that queue, user cleared   |
 * | any but closed | userId another user (+ queue/connection) | transferred: open, assigned to that user  |
 * | any but closed | queueId/whatsappId only         | transferred: pending, user cleared ("only a queue")|
 * | open, pending | status closed                    | closed, userId me (farewell unless told not to)    |
 * | closed  | status open                            | reopened: open, assigned to me                     |
 * | closed  | anything else                          | 409 ERR_TICKET_INVALID_TRANSITION                  |
 *
 * Also: an open ticket someone else holds answers 409 ERR_TICKET_ALREADY_ACCEPTED to an accept (two
 * attendants racing for one ticket); an attendant may not close, return or transfer another user's open ticket
 * (403), nor close a pending one when their userClosePendingTicket is 'disabled' (403); a change that changes
 * nothing on a ticket the actor holds is answered with the ticket (a double click), any other one is 409.
 */
function planUpdate(scope: ActorScope, t: TicketRow, input: UpdateTicketInput): Plan {
  const me = scope.userId
  const from = stateOf(t)
  const heldByOther = t.status === 'open' && t.userId != null && t.userId !== me
  // A transfer names another queue, connection or user (an accept may repeat the ticket's own queue).
  const transferish =
    (input.queueId !== undefined && input.queueId !== t.queueId) ||
    (input.whatsappId !== undefined && input.whatsappId !== t.whatsappId) ||
    (input.userId != null && input.userId !== me)

  if (input.status === 'closed') {
    if (t.status === 'closed') throw invalid('The ticket is already closed')
    if (!scope.admin && heldByOther) throw noPermission('Only the attendant of this ticket can close it')
    if (!scope.admin && t.status === 'pending' && !scope.closePending)
      throw noPermission('You may not close a pending ticket')
    return { type: 'closed', to: { ...from, status: 'closed', userId: me }, notice: null }
  }

  if (t.status === 'closed') {
    if (input.status !== 'open') throw invalid('A closed ticket can only be reopened')
    const userId = input.userId ?? me
    if (userId !== me && !scope.admin)
      throw noPermission('A reopened ticket is assigned to whoever reopens it')
    return {
      type: 'reopened',
      to: {
        status: 'open',
        userId,
        queueId: input.queueId !== undefined ? input.queueId : t.queueId,
        whatsappId: input.whatsappId ?? t.whatsappId,
      },
      notice: null,
    }
  }

  // open or pending, staying open or pending
  if (input.status === 'pending' && input.userId != null)
    throw fieldError('userId', 'A pending ticket has no user: choose status open to assign one')
  let userId: number | null
  if (input.status === 'pending') userId = null
  else if (input.userId !== undefined) userId = input.userId
  // An accept names no user (or the actor); on a ticket someone holds it is an accept that came too late.
  else if (input.status === 'open' && (t.status === 'pending' || heldByOther)) userId = me
  else if (transferish) userId = null
  else userId = t.userId
  const status: TicketStatus = input.status ?? (userId == null ? 'pending' : 'open')
  if (status === 'open' && userId == null) throw fieldError('userId', 'An open ticket needs a user')
  const to: TicketState = {
    status,
    userId,
    queueId: input.queueId !== undefined ? input.queueId : t.queueId,
    whatsappId: input.whatsappId ?? t.whatsappId,
  }

  if (heldByOther && status === 'open' && userId === me && !transferish)
    throw new AppError('ERR_TICKET_ALREADY_ACCEPTED', 'Another attendant already accepted this ticket', {
      userId: t.userId,
    })
  if (sameState(from, to)) {
    if (t.status === 'open' && (t.userId === me || scope.admin)) return { type: null, to, notice: null }
    throw invalid(`The ticket is already ${t.status}`)
  }
  if (!scope.admin && heldByOther) throw noPermission('Only the attendant of this ticket can change it')

  let type: TicketEventType
  if (t.status === 'pending' && status === 'open' && userId === me) type = 'accepted'
  else if (t.status === 'open' && status === 'pending' && to.queueId === t.queueId && to.userId == null)
    type = 'returned'
  else type = 'transferred'
  return { type, to, notice: null }
}

/**
 * Applies a PUT /tickets/{id}; see `planUpdate` for the table. `listeners` and `notices` are the other areas' part
 * in the change (tickets/transitions.ts).
 */
export function updateTicket(
  ctx: Ctx,
  id: number,
  input: UpdateTicketInput,
  listeners: readonly TicketTransitionListener[],
  notices: TicketNotices,
): TicketDto {
  const { ticket: t, scope } = getVisibleTicket(ctx, id)
  const companyId = ctx.actor.companyId
  let userName: string | null = null
  let queueName: string | null = null
  if (input.userId != null) userName = assertUserInCompany(ctx, input.userId)
  if (input.queueId != null) queueName = assertQueueInCompany(ctx, input.queueId)
  if (input.whatsappId !== undefined) assertWhatsappInCompany(ctx, input.whatsappId)

  const plan = planUpdate(scope, t, input)
  if (plan.type === null) return ticketDtoFor(ctx, scope, id)

  if (plan.type === 'closed' && settingValue(ctx.sqlite, companyId, 'requiredTag') === 'enabled') {
    const tagged = stmt(ctx.sqlite, 'SELECT 1 FROM ticket_tags WHERE ticket_id = ? LIMIT 1').get(id)
    if (!tagged) throw new AppError('ERR_TICKET_TAG_REQUIRED', 'Add a tag to the ticket before closing it')
  }
  const whatsappChanges = plan.to.whatsappId !== t.whatsappId
  if ((plan.type === 'reopened' || whatsappChanges) && plan.to.whatsappId != null)
    assertNoOtherActive(ctx, scope, t.contactId, plan.to.whatsappId, t.id)

  // What the customer is told, decided before the change (the farewell is the closing user's). With NPS on,
  // the rating question replaces the farewell; the complation message follows the answer (chatbot/ratings.ts).
  const transition = { ticket: t, type: plan.type, userId: scope.userId }
  const steps = listeners.map((listen) => listen(ctx, transition)).filter((step) => step !== null)
  const replacing = steps.find((step) => step.notice)?.notice
  if (!t.isGroup) {
    if (replacing) {
      plan.notice = replacing
    } else if (plan.type === 'closed' && input.sendFarewellMessage !== false) {
      const farewell = scope.farewellMessage?.trim() || complationMessage(ctx, t.whatsappId)
      if (farewell) plan.notice = farewell
    } else if (
      plan.type === 'accepted' &&
      settingValue(ctx.sqlite, companyId, 'sendGreetingAccepted') === 'enabled'
    ) {
      plan.notice = acceptGreeting(scope.name)
    } else if (
      plan.type === 'transferred' &&
      settingValue(ctx.sqlite, companyId, 'sendMsgTransfTicket') === 'enabled'
    ) {
      if (plan.to.userId != null && userName == null && plan.to.userId !== t.userId)
        userName = assertUserInCompany(ctx, plan.to.userId)
      if (plan.to.queueId != null && queueName == null) queueName = assertQueueInCompany(ctx, plan.to.queueId)
      plan.notice = transferNotice({
        userName: plan.to.userId != null && plan.to.userId !== t.userId ? userName : null,
        queueName: plan.to.queueId != null ? queueName : null,
      })
    }
  }

  const type = plan.type
  const notice = plan.notice
  const noticeIds: number[] = []
  const dto = transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const { status, userId, queueId, whatsappId } = plan.to
    stmt(
      sqlite,
      `UPDATE tickets SET status = ?, user_id = ?, queue_id = ?, whatsapp_id = ?, updated_at = ?,
                closed_at = CASE WHEN ? = 'closed' THEN ? ELSE NULL END,
                unread_messages = CASE WHEN ? = 'closed' THEN 0 ELSE unread_messages END
          WHERE id = ?`,
    ).run(status, userId, queueId, whatsappId, now, status, now, status, id)
    recordTicketEvent(sqlite, {
      companyId,
      ticketId: id,
      type,
      actorUserId: scope.userId,
      from: stateOf(t),
      to: plan.to,
      at: now,
    })
    if (notice && whatsappId != null) {
      // Written in the same transaction as the change (the farewell lands on the ticket it closes), sent after.
      const contactName = contactNameOf(ctx, t)
      const timeZone = companyTimeZone(sqlite, companyId)
      const body = fillTemplate(notice, { id, createdAt: t.createdAt, contactName }, now, timeZone).trim()
      const target = { id, companyId, contactId: t.contactId, whatsappId, status }
      if (body) noticeIds.push(...notices.write(ctx, sqlite, events, target, body))
    }
    for (const step of steps) step.apply(sqlite, now)
    const fresh = loadTicketDtos(sqlite, [id])[0]!
    publishTicket(events, fresh, placeOf(t))
    return fresh
  })
  if (noticeIds.length) notices.afterCommit(ctx, noticeIds)
  return maskTicket(dto, scope.isTricked)
}

function contactNameOf(ctx: Ctx, t: TicketRow): string {
  return (
    stmt<{ name: string }, [number]>(ctx.sqlite, 'SELECT name FROM contacts WHERE id = ?').get(t.contactId)
      ?.name ?? ''
  )
}

function complationMessage(ctx: Ctx, whatsappId: number | null): string {
  if (whatsappId == null) return ''
  const row = stmt<{ text: string }, [number]>(
    ctx.sqlite,
    'SELECT complation_message AS text FROM whatsapps WHERE id = ?',
  ).get(whatsappId)
  return row?.text.trim() ?? ''
}

const placeOf = (t: TicketRow): TicketPlace => ({
  id: t.id,
  companyId: t.companyId,
  queueId: t.queueId,
  userId: t.userId,
})

/* ---------- POST /tickets ---------- */

/** The connection a new ticket uses: the one asked for, else the user's default, else the company's default. */
function connectionForNewTicket(ctx: Ctx, scope: ActorScope, asked: number | null | undefined): number {
  if (asked != null) {
    assertWhatsappInCompany(ctx, asked)
    return asked
  }
  const row = stmt<{ id: number }, [number, number, number]>(
    ctx.sqlite,
    `SELECT w.id FROM whatsapps w
        WHERE w.company_id = ? AND (w.id = (SELECT whatsapp_id FROM users WHERE id = ?) OR w.is_default = 1)
        ORDER BY w.id = (SELECT whatsapp_id FROM users WHERE id = ?) DESC LIMIT 1`,
  ).get(ctx.actor.companyId, scope.userId, scope.userId)
  if (!row) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 'Choose a connection: the company has no default one')
  return row.id
}

/**
 * A new open ticket for a contact, assigned to the actor (an admin may name another user). A queue is required
 * unless the actor is an admin ('Selecione uma fila'). When the contact already has an active ticket on that
 * connection: the actor's own open ticket is simply answered (`created: false`); any other answers 409
 * ERR_OTHER_OPEN_TICKET naming its holder (held.ts: the whole ticket only to a user who may see it).
 */
export function createTicket(ctx: Ctx, input: CreateTicketInput): { ticket: TicketDto; created: boolean } {
  const scope = actorScope(ctx)
  const companyId = ctx.actor.companyId
  const contact = stmt<{ isGroup: number }, [number, number]>(
    ctx.sqlite,
    'SELECT is_group AS isGroup FROM contacts WHERE id = ? AND company_id = ?',
  ).get(input.contactId, companyId)
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found')
  const queueId = input.queueId ?? null
  if (queueId == null && !scope.admin) throw fieldError('queueId', 'Selecione uma fila')
  if (queueId != null) assertQueueInCompany(ctx, queueId)
  const userId = input.userId ?? scope.userId
  if (userId !== scope.userId) {
    if (!scope.admin) throw noPermission('Only admins can open a ticket for another user')
    assertUserInCompany(ctx, userId)
  }
  const whatsappId = connectionForNewTicket(ctx, scope, input.whatsappId)

  const existing = activeTicketRow(ctx.sqlite, companyId, input.contactId, whatsappId)
  if (existing) {
    if (existing.status === 'open' && existing.userId === scope.userId)
      return { ticket: ticketDtoFor(ctx, scope, existing.id), created: false }
    throw otherOpenTicket(ctx.sqlite, scope, existing.id)
  }
  const dto = transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const row = insertTicket(sqlite, {
      companyId,
      contactId: input.contactId,
      whatsappId,
      queueId,
      userId,
      status: 'open',
      isGroup: !!contact.isGroup,
      now,
    })
    recordTicketEvent(sqlite, {
      companyId,
      ticketId: row.id,
      type: 'created',
      actorUserId: scope.userId,
      from: null,
      to: { status: 'open', userId, queueId, whatsappId },
      at: now,
    })
    const fresh = loadTicketDtos(sqlite, [row.id])[0]!
    publishTicket(events, fresh)
    return fresh
  })
  return { ticket: maskTicket(dto, scope.isTricked), created: true }
}

/* ---------- DELETE /tickets/{id} ---------- */

/** Deletes a ticket with its messages, tags and events (the route checks ticket-options:deleteTicket). */
export function deleteTicket(ctx: Ctx, id: number) {
  const t = getTicketRow(ctx, id)
  transact(ctx, (sqlite, events) => {
    // The message search index is contentless: drop the ticket's entries by rowid (ticket_id << 32 | id).
    const indexedUpto =
      stmt<{ n: number }, []>(
        sqlite,
        'SELECT messages_indexed_upto AS n FROM search_state WHERE id = 1',
      ).get()?.n ?? 0
    const ids = stmt<{ id: number }, [number, number]>(
      sqlite,
      'SELECT id FROM messages WHERE ticket_id = ? AND id <= ?',
    ).all(id, indexedUpto)
    const drop = stmt(sqlite, 'DELETE FROM messages_fts WHERE rowid = ?')
    for (const m of ids) drop.run(id * 2 ** 32 + m.id)
    stmt(sqlite, 'DELETE FROM tickets WHERE id = ?').run(id)
    publishTicketDeleted(events, placeOf(t))
  })
}
