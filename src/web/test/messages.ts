import type { MessageDto } from '../../shared/api'

/**
 * A plain text message with every field at its empty value: the one shape the web tests build messages from.
 * Each test area layers its own defaults (ids, body, times) over it.
 */
export function messageDto(fields: Pick<MessageDto, 'id' | 'ticketId'> & Partial<MessageDto>): MessageDto {
  return {
    wid: `W${fields.id}`,
    contactId: null,
    companyId: 7,
    body: '',
    fromMe: false,
    ack: 0,
    read: false,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    mediaMime: null,
    mediaSize: null,
    mediaState: 'none',
    ptt: false,
    isDeleted: false,
    isEdited: false,
    isPrivate: false,
    oldMessages: [],
    quotedMsgId: null,
    quotedMsg: null,
    reactions: [],
    participantName: null,
    sendState: null,
    sendError: null,
    userId: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...fields,
  }
}
