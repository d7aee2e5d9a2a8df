/**
 * Tags on tickets: `PUT /ticket-tags/{ticketId}/{tagId}` adds one, `DELETE /ticket-tags/{ticketId}` removes
 * all of them (the Kanban board moves a card by removing then adding). Whoever may see the ticket may tag it;
 * another company's ticket or tag is not found. The ticket's change is live, to the rooms that may see it.
 */

import type { Database } from 'bun:sqlite'
import type { TicketDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { numberVisibility } from '../../access/mask'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import type { EventBuffer } from '../../realtime/hub'
import { getTagRowInCompany } from '../tags/service'
import { actorScope, assertCanSeeTicket } from '../tickets/access'
import { loadTicketDtos, maskTicket } from '../tickets/dto'
import { publishTicket } from '../tickets/live'
import { ticketRowInCompany } from '../tickets/rows'

function ticketInScope(ctx: Ctx, sqlite: Database, ticketId: number) {
  const ticket = ticketRowInCompany(sqlite, ctx.actor.companyId, ticketId)
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
  assertCanSeeTicket(actorScope(ctx), ticket)
  return ticket
}

/** The ticket as it is now, published unmasked (both flavours) and answered masked for the reader. */
function publishAndAnswer(ctx: Ctx, sqlite: Database, events: EventBuffer, ticketId: number): TicketDto {
  const [ticket] = loadTicketDtos(sqlite, [ticketId])
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
  publishTicket(events, ticket)
  return maskTicket(ticket, numberVisibility(ctx))
}

export function addTicketTag(ctx: Ctx, ticketId: number, tagId: number): TicketDto {
  return transact(ctx, (sqlite, events) => {
    ticketInScope(ctx, sqlite, ticketId)
    getTagRowInCompany(sqlite, ctx.actor.companyId, tagId)
    const added = sqlite
      .query('INSERT OR IGNORE INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)')
      .run(ticketId, tagId)
    if (added.changes === 0) return maskTicket(loadTicketDtos(sqlite, [ticketId])[0]!, numberVisibility(ctx))
    return publishAndAnswer(ctx, sqlite, events, ticketId)
  })
}

export function removeTicketTags(ctx: Ctx, ticketId: number): TicketDto {
  return transact(ctx, (sqlite, events) => {
    ticketInScope(ctx, sqlite, ticketId)
    sqlite.query('DELETE FROM ticket_tags WHERE ticket_id = ?').run(ticketId)
    return publishAndAnswer(ctx, sqlite, events, ticketId)
  })
}
