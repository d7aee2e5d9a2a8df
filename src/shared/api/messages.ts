/** A ticket's messages. */
import type { TicketDto } from './tickets'

export type MessageAck = 0 | 1 | 2 | 3 | 4

export type MessageReactionDto = { emoji: string; fromMe: boolean; senderName: string | null }

export type QuotedMessageDto = {
  id: number
  body: string
  fromMe: boolean
  mediaType: string
  isDeleted: boolean
  participantName: string | null
  contactName: string | null
}

export type MessageDto = {
  id: number
  /** The provider's message id; null while an outbound message waits to be sent. */
  wid: string | null
  ticketId: number
  contactId: number | null
  companyId: number
  body: string
  fromMe: boolean
  /** 0 pending, 1 sent, 2 delivered, 3 delivered to all, 4 read. */
  ack: MessageAck
  read: boolean
  mediaType: string
  /** A signed, expiring URL of the stored media; null when there is none (yet). */
  mediaUrl: string | null
  mediaName: string | null
  mediaMime: string | null
  mediaSize: number | null
  /** 'pending' while inbound media is fetched, 'failed' when it could not be (ERR_WAPP_DOWNLOAD_MEDIA). */
  mediaState: 'none' | 'stored' | 'pending' | 'failed'
  ptt: boolean
  isDeleted: boolean
  isEdited: boolean
  isPrivate: boolean
  oldMessages: { body: string; createdAt: string }[]
  quotedMsgId: number | null
  quotedMsg: QuotedMessageDto | null
  reactions: MessageReactionDto[]
  /** In a group: who wrote it. */
  participantName: string | null
  /** Outbound: 'queued' | 'sending' | 'sent' | 'failed'; null for inbound. */
  sendState: 'queued' | 'sending' | 'sent' | 'failed' | null
  sendError: string | null
  userId: number | null
  /** A voice note's or audio's text once transcribed (POST /messages/{id}/transcribe); null otherwise. */
  transcription?: string | null
  createdAt: string
  updatedAt: string
}

export type MessagesPage = { messages: MessageDto[]; ticket: TicketDto; count: number; hasMore: boolean }

/** `GET /messages-allMe`: the spec's shape. */
export type MessagesAllMe = { count: [{ count: number }] }
