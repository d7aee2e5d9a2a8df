/**
 * Contact events (`company-{id}-contact`) go to the company's room: masked there, in full to its `#full`
 * flavour, where the users whose isTricked is 'enabled' listen (hub.ts). The spec's clients merge the contact
 * into their lists and refresh it on its tickets.
 */
import type { ContactDto } from '../../../shared/api'
import { maskContact } from '../../access/mask'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

/** The contact was created or changed (unmasked DTO in; each flavour gets its own). */
export function publishContact(events: EventBuffer, contact: ContactDto) {
  events.publish(
    rooms.company(contact.companyId),
    channel(contact.companyId, 'contact'),
    { action: 'update', contact: maskContact(contact, 'disabled') },
    { action: 'update', contact },
  )
}

export function publishContactDeleted(events: EventBuffer, companyId: number, contactId: number) {
  events.publish(rooms.company(companyId), channel(companyId, 'contact'), { action: 'delete', contactId })
}
