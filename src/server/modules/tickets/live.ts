/**
 * A ticket's live events go only to the rooms of the users allowed to see it (access.ts): the company's
 * admins, the ticket's queue (or the company's "no queue" room, whose members are the attendants with
 * allTicket 'enable'), and its assigned user. These rooms cover exactly the users `canSeeTicket` allows, so an
 * attendant of another queue never hears of the ticket, and a conversation needs no room of its own: whoever
 * has it open is in one of them.
 *
 * Events that carry a contact's number go out in two flavours: masked to each room and in full to its `#full`
 * flavour (users whose isTricked is 'enabled', see hub.ts). A user in several of the rooms (an admin who is also
 * in the queue, the assignee in their queue) receives the event once per room: clients apply these events by id
 * (upsert, delete), so a repeat changes nothing.
 */
import type { MessageDto, TicketDto } from '../../../shared/api'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
import { maskTicket } from './dto'

export type TicketPlace = { id: number; companyId: number; queueId: number | null; userId: number | null }

/** The rooms allowed to hear about this ticket. */
export function ticketRooms(ticket: TicketPlace): string[] {
  const { companyId } = ticket
  const list = [rooms.admins(companyId)]
  list.push(ticket.queueId != null ? rooms.queue(companyId, ticket.queueId) : rooms.noQueue(companyId))
  if (ticket.userId != null) list.push(rooms.user(companyId, ticket.userId))
  return list
}

/**
 * The ticket changed (or appeared): `update` to its rooms. With `previous` (where it was before a transfer,
 * a return to the queue or a reassignment), the rooms that may no longer see it get `delete` first, so the
 * ticket leaves the lists of users who lost it; a user in both an old and a new room removes then re-adds it.
 */
export function publishTicket(events: EventBuffer, ticket: TicketDto, previous?: TicketPlace) {
  const name = channel(ticket.companyId, 'ticket')
  const now = ticketRooms(ticket)
  if (previous) {
    const gone = ticketRooms(previous).filter((room) => !now.includes(room))
    for (const room of gone) events.publish(room, name, { action: 'delete', ticketId: ticket.id })
  }
  const masked = { action: 'update' as const, ticket: maskTicket(ticket, 'disabled') }
  const full = { action: 'update' as const, ticket }
  for (const room of now) events.publish(room, name, masked, full)
}

/** The ticket is gone: `delete` to the rooms that could see it. */
export function publishTicketDeleted(events: EventBuffer, ticket: TicketPlace) {
  const name = channel(ticket.companyId, 'ticket')
  for (const room of ticketRooms(ticket))
    events.publish(room, name, { action: 'delete', ticketId: ticket.id })
}

/** The ticket's unread count went to zero (someone read it). */
export function publishUnread(events: EventBuffer, ticket: TicketPlace) {
  const name = channel(ticket.companyId, 'ticket')
  for (const room of ticketRooms(ticket))
    events.publish(room, name, { action: 'updateUnread', ticketId: ticket.id })
}

/** A message of the ticket was created (with the ticket, for the lists) or updated (ack, edit, reaction...). */
export function publishMessage(
  events: EventBuffer,
  ticket: TicketDto,
  message: MessageDto,
  action: 'create' | 'update',
) {
  const name = channel(ticket.companyId, 'appMessage')
  const roomList = ticketRooms(ticket)
  if (action === 'update') {
    for (const room of roomList) events.publish(room, name, { action: 'update', message })
    return
  }
  const maskedTicket = maskTicket(ticket, 'disabled')
  const masked = { action: 'create' as const, message, ticket: maskedTicket, contact: maskedTicket.contact }
  const full = { action: 'create' as const, message, ticket, contact: ticket.contact }
  for (const room of roomList) events.publish(room, name, masked, full)
}
