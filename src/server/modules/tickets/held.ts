/**
 * The contact's active ticket as a refusal names it (409 ERR_OTHER_OPEN_TICKET), and the new-ticket rule that
 * raises it for everything that writes to a contact: opening a ticket, reopening one, forwarding a message,
 * scheduling one.
 *
 * What the refusal carries depends on the reader, by the one rule of access.ts: a user who may see the held
 * ticket gets it whole (the client opens it when it is theirs); anyone else gets only what the spec's dialog
 * shows (spec 1 §4, "the dialog shows the owning user and queue"): who holds it and in which queue. No last
 * message, unread count or contact.
 */
import type { Database } from 'bun:sqlite'
import type { HeldTicketDto, TicketDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import type { TicketRow } from '../../db/schema'
import { type ActorScope, canSeeTicket } from './access'
import { loadTicketDtos, maskTicket } from './dto'
import { activeTicketRow } from './rows'

/** Who holds a ticket and in which queue: all a user who may not see it learns of it. */
export function heldTicketOf(ticket: TicketDto): HeldTicketDto {
  return { userId: ticket.userId, user: ticket.user, queueId: ticket.queueId, queue: ticket.queue }
}

/**
 * 409 ERR_OTHER_OPEN_TICKET whose `error` is the JSON text of the contact's active ticket as this user may know
 * it (the spec's shape: the client reads `userId`, `user.name` and `queue.name` from it); `code` keeps the code
 * and `details.ticket` the same object.
 */
export function otherOpenTicket(sqlite: Database, scope: ActorScope, ticketId: number): AppError {
  const dto = loadTicketDtos(sqlite, [ticketId])[0]
  if (!dto) return new AppError('ERR_OTHER_OPEN_TICKET', 'There is already an open ticket for this contact')
  const ticket = canSeeTicket(scope, dto) ? maskTicket(dto, scope.isTricked) : heldTicketOf(dto)
  return new AppError(
    'ERR_OTHER_OPEN_TICKET',
    'There is already an open ticket for this contact',
    { ticket },
    undefined,
    { errorText: JSON.stringify(ticket) },
  )
}

/**
 * The new-ticket rule for writing to a contact outside a ticket the user opened (forward, schedules): the
 * contact's active (open or pending) ticket on that connection, when there is one, must be one the user may
 * see, which is what writing in a ticket takes (messages/service.ts); otherwise 409 naming its holder. Answers
 * that ticket, or undefined when the contact has none there.
 */
export function assertMayWriteToContact(
  sqlite: Database,
  scope: ActorScope,
  contactId: number,
  whatsappId: number,
): TicketRow | undefined {
  const active = activeTicketRow(sqlite, scope.companyId, contactId, whatsappId)
  if (active && !canSeeTicket(scope, active)) throw otherOpenTicket(sqlite, scope, active.id)
  return active
}
