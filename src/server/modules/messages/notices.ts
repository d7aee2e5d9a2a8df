/**
 * The messages area's part in a ticket change (tickets/transitions.ts): the change's notice to the customer is an
 * outbound message of the actor, written in the change's transaction and sent after commit.
 */
import type { TicketNotices } from '../tickets/transitions'
import { outboundSender, writeOutboundMessages } from './outbound'

export const ticketNotices: TicketNotices = {
  write: (ctx, tx, events, ticket, body) => writeOutboundMessages(ctx, tx, events, ticket, { body }),
  afterCommit: (deps, ids) => void outboundSender(deps).kick(ids),
}
