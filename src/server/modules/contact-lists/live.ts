/**
 * A contact-list item as stored and as its live event carries it: the service and the WhatsApp validity checker
 * (checker.ts) both publish items, so the shape lives below both.
 */
import type { ContactListItemDto } from '../../../shared/contact-lists'
import { maskName, maskNumber, type NumberVisibility } from '../../access/mask'
import { isoString } from '../../clock'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

export type RawItem = {
  id: number
  name: string
  number: string
  email: string
  isWhatsappValid: number | null
  companyId: number
  contactListId: number
  createdAt: number
  updatedAt: number
}

export function toItemDto(r: RawItem, visibility: NumberVisibility = 'enabled'): ContactListItemDto {
  return {
    id: r.id,
    name: maskName(r.name, r.number, visibility),
    number: maskNumber(r.number, visibility),
    email: r.email,
    isWhatsappValid: r.isWhatsappValid == null ? null : r.isWhatsappValid === 1,
    companyId: r.companyId,
    contactListId: r.contactListId,
    createdAt: isoString(r.createdAt),
    updatedAt: isoString(r.updatedAt),
  }
}

/** An item event: masked to the admins' room, whole to its `#full` flavour. */
export function publishItem(events: EventBuffer, item: RawItem, action: 'create' | 'update') {
  events.publish(
    rooms.admins(item.companyId),
    channel(item.companyId, 'ContactListItem'),
    { action, record: toItemDto(item, 'disabled') },
    { action, record: toItemDto(item) },
  )
}
