/** Test fixtures: a ticket and its messages as the server sends them. */
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { messageDto } from '../../../test/messages'

export function makeTicket(overrides: Partial<TicketDto> = {}): TicketDto {
  return {
    id: 5,
    uuid: 'b7c1f1f0-0000-4000-8000-000000000005',
    status: 'open',
    contactId: 9,
    contact: {
      id: 9,
      name: 'Maria Souza',
      number: '5511999990001',
      profilePicUrl: '',
      email: 'maria@example.com',
      isGroup: false,
    },
    userId: 1,
    user: { id: 1, name: 'Ana Admin' },
    queueId: 2,
    queue: { id: 2, name: 'Vendas', color: '#1d6ce5' },
    whatsappId: 3,
    whatsapp: { id: 3, name: 'Loja' },
    channel: 'whatsapp',
    isGroup: false,
    chatbot: false,
    lastMessage: 'Olá',
    unreadMessages: 0,
    tags: [],
    companyId: 7,
    createdAt: '2026-03-02T12:00:00.000Z',
    updatedAt: '2026-03-02T12:00:00.000Z',
    ...overrides,
  }
}

let nextId = 100

export function makeMessage(overrides: Partial<MessageDto> = {}): MessageDto {
  const id = overrides.id ?? nextId++
  return messageDto({
    id,
    ticketId: 5,
    contactId: 9,
    body: 'Olá',
    read: true,
    createdAt: '2026-03-02T12:00:00.000Z',
    updatedAt: '2026-03-02T12:00:00.000Z',
    ...overrides,
  })
}
