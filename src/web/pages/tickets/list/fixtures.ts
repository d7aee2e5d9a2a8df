/** Ticket and message fixtures for the inbox's web tests. */
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { messageDto } from '../../../test/messages'

let nextUuid = 1

export function makeTicket(overrides: Partial<TicketDto> & { id: number }): TicketDto {
  const id = overrides.id
  return {
    uuid: `00000000-0000-4000-8000-${String(nextUuid++).padStart(12, '0')}`,
    status: 'open',
    contactId: 100 + id,
    contact: {
      id: 100 + id,
      name: `Cliente ${id}`,
      number: `55119999900${String(id).padStart(2, '0')}`,
      profilePicUrl: '',
      email: '',
      isGroup: false,
    },
    userId: null,
    user: null,
    queueId: null,
    queue: null,
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Loja' },
    channel: 'whatsapp',
    isGroup: false,
    chatbot: false,
    lastMessage: `Mensagem ${id}`,
    unreadMessages: 0,
    tags: [],
    companyId: 7,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  }
}

export function makeMessage(overrides: Partial<MessageDto> & { id: number; ticketId: number }): MessageDto {
  return messageDto({ body: 'Olá!', ...overrides })
}

export const queueRef = (id: number, name = `Fila ${id}`, color = '#3284FE') => ({ id, name, color })
