import type { Deps } from '../../context'
import type { Connection } from '../../db/connection'
import type { EventBuffer } from '../../realtime/hub'
import { loadTicketDtos } from '../tickets/dto'
import { publishMessage } from '../tickets/live'
import { loadMessageDtos } from './dto'

/**
 * Publishes messages of one ticket (`appMessage` create or update) to the rooms allowed to see the ticket,
 * after the transaction commits. Call inside `transact`, after the writes.
 */
export function publishMessageUpdates(
  deps: Pick<Deps, 'sqlite' | 'secrets' | 'clock'>,
  tx: Connection,
  events: EventBuffer,
  ticketId: number,
  messageIds: number[],
  action: 'create' | 'update' = 'update',
) {
  if (!messageIds.length) return
  const ticket = loadTicketDtos(tx, [ticketId])[0]
  if (!ticket) return
  for (const message of loadMessageDtos(deps, messageIds)) publishMessage(events, ticket, message, action)
}
