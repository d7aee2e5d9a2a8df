/**
 * Who may see a ticket. One rule, used by the lists' SQL, by opening a ticket, by the live rooms a ticket's
 * events go to (live.ts) and by joinChatBox, so that what a user can list, open and hear about never differs:
 *
 * - an admin (profile admin, or a super user) sees every ticket of the company;
 * - an attendant sees the tickets of their queues, the tickets assigned to them (whatever the queue, e.g. after
 *   a transfer to them), and the tickets without a queue only when their allTicket is 'enable';
 * - nobody sees another company's tickets (they are not found: 404).
 *
 * The lists narrow this further (list.ts): the open list shows only the user's own tickets unless show-all is
 * on, and an attendant without allHistoric sees only their own closed tickets there.
 */
import type { Database } from 'bun:sqlite'
import { AppError } from '../../../shared/errors'
import type { Ctx, UserActor } from '../../context'
import { stmt } from '../../db/statements'

export type Flag = 'enabled' | 'disabled'

/** A signed-in user with what decides what they see: their queues and their flags, read with the request. */
export type ActorScope = UserActor & {
  admin: boolean
  queueIds: ReadonlySet<number>
  /** 'enable': also sees tickets without a queue. */
  allTicket: boolean
  /** 'enabled': sees every closed ticket of their scope in the lists, not only their own. */
  allHistoric: boolean
  /** 'enabled': may switch show-all on (other users' open tickets of their queues). */
  allUserChat: boolean
  /** 'enabled' (the default): may close a pending ticket without accepting it first. */
  closePending: boolean
  isTricked: Flag
  name: string
  farewellMessage: string | null
}

type ScopeRow = {
  profile: 'admin' | 'user'
  super: number
  name: string
  allTicket: string
  allHistoric: string
  allUserChat: string
  closePending: string
  isTricked: Flag
  farewellMessage: string | null
  queues: string | null
}

const SCOPE_SQL = `SELECT u.profile, u.super, u.name, u.all_ticket AS allTicket, u.all_historic AS allHistoric,
       u.all_user_chat AS allUserChat, u.user_close_pending_ticket AS closePending, u.is_tricked AS isTricked,
       u.farewell_message AS farewellMessage,
       (SELECT group_concat(queue_id) FROM user_queues WHERE user_id = u.id) AS queues
  FROM users u WHERE u.id = ? AND u.company_id = ?`

/** The actor's scope (one indexed query). A user deleted since the request began sees nothing. */
export function loadActorScope(sqlite: Database, actor: UserActor): ActorScope {
  const row = stmt<ScopeRow, [number, number]>(sqlite, SCOPE_SQL).get(actor.userId, actor.companyId)
  if (!row) throw new AppError('ERR_NO_PERMISSION', 'Acesso não permitido')
  const admin = row.profile === 'admin' || !!row.super
  return {
    ...actor,
    profile: row.profile,
    super: !!row.super,
    admin,
    queueIds: new Set(row.queues ? row.queues.split(',').map(Number) : []),
    allTicket: row.allTicket === 'enable',
    allHistoric: row.allHistoric === 'enabled',
    allUserChat: row.allUserChat === 'enabled',
    closePending: row.closePending === 'enabled',
    isTricked: row.isTricked,
    name: row.name,
    farewellMessage: row.farewellMessage,
  }
}

/**
 * The scope of a user on whose behalf a job acts (a scheduled message's author), or null when that user no
 * longer exists in the company.
 */
export function userScope(sqlite: Database, companyId: number, userId: number): ActorScope | null {
  const actor: UserActor = { kind: 'user', userId, companyId, profile: 'user', super: false, sessionId: '' }
  try {
    return loadActorScope(sqlite, actor)
  } catch {
    return null
  }
}

/** The scope of the acting user; 403 for a token or the system, which have no queues. */
export function actorScope(ctx: Ctx): ActorScope {
  if (ctx.actor.kind !== 'user') throw new AppError('ERR_NO_PERMISSION', 'Only a signed-in user can do this')
  return loadActorScope(ctx.sqlite, ctx.actor)
}

export type TicketAccessFields = { companyId: number; queueId: number | null; userId: number | null }

/** Whether this user may see (list, open, hear live events of) the ticket. See the rule at the top. */
export function canSeeTicket(actor: ActorScope, ticket: TicketAccessFields): boolean {
  if (ticket.companyId !== actor.companyId) return false
  if (actor.admin) return true
  if (ticket.userId != null && ticket.userId === actor.userId) return true
  if (ticket.queueId == null) return actor.allTicket
  return actor.queueIds.has(ticket.queueId)
}

/** 403 'Acesso não permitido' (the spec's text) when the user may not see the ticket. */
export function assertCanSeeTicket(actor: ActorScope, ticket: TicketAccessFields) {
  if (!canSeeTicket(actor, ticket)) throw new AppError('ERR_NO_PERMISSION', 'Acesso não permitido')
}

/**
 * The live socket's `ticketAccess` (joinChatBox): the ticket exists in the user's company and the user may
 * see it. Wired in serve.ts through api-entry.ts and in the live test server.
 */
export function ticketAccess(sqlite: Database) {
  return (actor: UserActor, ticketId: number): boolean => {
    const ticket = stmt<TicketAccessFields, [number, number]>(
      sqlite,
      `SELECT company_id AS companyId, queue_id AS queueId, user_id AS userId
           FROM tickets WHERE id = ? AND company_id = ?`,
    ).get(ticketId, actor.companyId)
    if (!ticket) return false
    try {
      return canSeeTicket(loadActorScope(sqlite, actor), ticket)
    } catch {
      return false
    }
  }
}
