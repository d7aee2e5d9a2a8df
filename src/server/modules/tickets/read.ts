import { type Deps, transact } from '../../context'
import { publishUnread, type TicketPlace } from './live'

/**
 * Someone read the ticket: its customer's messages become read and its unread count zero, and `updateUnread`
 * goes live to the rooms that may see it. Cheap when there is nothing to read (no write at all). Returns
 * whether anything changed. Called by `GET /messages/{ticketId}` after its access check, except in the admin's
 * read-only "spy" view (`?spy=true`), which marks nothing. (Written by the messages helper; the tickets area owns
 * it.)
 */
export function markTicketRead(
  deps: Pick<Deps, 'db' | 'sqlite' | 'hub' | 'clock'>,
  ticket: TicketPlace,
): boolean {
  return transact(deps as Deps, (sqlite, events) => {
    const marked = sqlite
      .query(
        'UPDATE messages SET read = 1 WHERE ticket_id = ? AND company_id = ? AND read = 0 AND from_me = 0',
      )
      .run(ticket.id, ticket.companyId).changes
    const zeroed = sqlite
      .query(
        'UPDATE tickets SET unread_messages = 0 WHERE id = ? AND company_id = ? AND unread_messages <> 0',
      )
      .run(ticket.id, ticket.companyId).changes
    if (!marked && !zeroed) return false
    publishUnread(events, ticket)
    return true
  })
}
