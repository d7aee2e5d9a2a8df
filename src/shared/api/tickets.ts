/** Tickets. */
import type { Paged } from './common'
import type { ContactDto } from './contacts'
import type { QueueRef } from './queues'
import type { TagRef } from './tags'

export type TicketStatusName = 'open' | 'pending' | 'closed'

/** A ticket as the lists and the conversation header show it. */
export type TicketDto = {
  id: number
  uuid: string
  status: TicketStatusName
  contactId: number
  contact: Pick<ContactDto, 'id' | 'name' | 'number' | 'profilePicUrl' | 'email' | 'isGroup'>
  userId: number | null
  user: { id: number; name: string } | null
  queueId: number | null
  queue: QueueRef | null
  whatsappId: number | null
  whatsapp: { id: number; name: string } | null
  channel: string
  isGroup: boolean
  chatbot: boolean
  lastMessage: string
  unreadMessages: number
  tags: TagRef[]
  companyId: number
  createdAt: string
  updatedAt: string
}

/**
 * What ERR_OTHER_OPEN_TICKET tells a user who may not see the contact's active ticket: who holds it and in which
 * queue (the spec's new-ticket dialog); a user who may see it gets the whole TicketDto.
 */
export type HeldTicketDto = Pick<TicketDto, 'userId' | 'user' | 'queueId' | 'queue'>

/**
 * GET /tickets. `count` is exact for the unfiltered tabs; a list filtered by search, tags, dates or unread
 * counts at most 1,000 and then says `countCapped: true`.
 */
export type TicketsPage = Paged<'tickets', TicketDto> & { countCapped?: boolean }

/** GET /tickets/counts (our addition): the badges of the open and groups tabs' assigned and pending sub-tabs. */
export type TicketCountsDto = {
  open: { assigned: number; pending: number }
  groups: { assigned: number; pending: number }
}
