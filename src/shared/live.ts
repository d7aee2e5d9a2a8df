/**
 * The live socket's protocol, shared by the server (which publishes) and the web (which subscribes).
 *
 * Server to client: every frame is `{ event, data }`. Company events travel under the spec's channel names,
 * `company-{companyId}-{name}`; `CompanyEvents` maps each `name` to what `data` holds. To add an event, add
 * one line to `CompanyEvents`: `Hub.publish`, `EventBuffer.publish` and the web's `subscribe` then accept
 * exactly that payload under that name.
 *
 * Client to server: the few frames of `ClientEvents`; anything else is ignored by the server.
 */
import type { AnnouncementDto } from './announcements'
import type {
  CampaignDto,
  ContactDto,
  MessageDto,
  QueueDto,
  QuickMessageDto,
  SessionUpdate,
  SettingItem,
  TagDto,
  TicketDto,
  UserDto,
  WhatsappDto,
} from './api'
import type { CampaignSettingItem } from './campaign-settings'
import type { ChatDto, ChatMessageDto } from './chats'
import type { ContactListDto, ContactListItemDto, SpreadsheetImportDto } from './contact-lists'
import type { FileListDto } from './files'
import type { InvoiceDto } from './invoices'
import type { PromptDto } from './prompts'
import type { QueueIntegrationDto } from './queue-integrations'
import type { ScheduleDto } from './scheduled-messages'

/** Payloads of the events published per company, by channel name (the part after `company-{id}-`). */
export interface CompanyEvents {
  /** A new sign-in of this user; other sessions of theirs end ("signed in elsewhere"). Room: the user. */
  auth: { action: 'update'; user: { id: number }; sessionId: string }
  user: { action: 'create' | 'update'; user: UserDto } | { action: 'delete'; userId: number }
  queue: { action: 'create' | 'update'; queue: QueueDto } | { action: 'delete'; queueId: number }
  settings: { action: 'update'; setting: SettingItem }
  /** Room: the company's admins (the rows carry the connection token). */
  whatsapp: { action: 'create' | 'update'; whatsapp: WhatsappDto } | { action: 'delete'; whatsappId: number }
  /** Room: the company's admins, and the terminal operator. */
  whatsappSession: { action: 'update'; session: SessionUpdate }
  /**
   * Rooms: the ticket's queue (or the company's "no queue" room), its user, and the admins; never a user who
   * may not see the ticket. `updateUnread` zeroes the unread count; `delete` removes it from every list.
   */
  ticket:
    | { action: 'update'; ticket: TicketDto }
    | { action: 'updateUnread'; ticketId: number }
    | { action: 'delete'; ticketId: number }
  /**
   * Same rooms as the ticket's (whoever has the conversation open may see the ticket, so is in one of them;
   * the ticket's own room, joined with joinChatBox, is not needed for these).
   */
  appMessage:
    | { action: 'create'; message: MessageDto; ticket: TicketDto; contact: TicketDto['contact'] }
    | { action: 'update'; message: MessageDto }
  /**
   * Room: the company, in two flavours: the number masked (last four digits as asterisks) in the room, in full
   * in its `#full` flavour, where users whose isTricked is 'enabled' listen (see the server's hub). 'update'
   * also announces a new contact; after a merge of two contacts of one person, the gone one gets 'delete'.
   */
  contact: { action: 'update'; contact: ContactDto } | { action: 'delete'; contactId: number }
  tag: { action: 'create' | 'update'; tag: TagDto } | { action: 'delete'; tagId: number }
  /** Room: the company's admins. Contact lists (spec 2: ContactList). */
  ContactList: { action: 'create' | 'update'; record: ContactListDto } | { action: 'delete'; id: number }
  /** Room: the company's admins (masked; `#full` in full). `reload`: an import changed many items of the list. */
  ContactListItem:
    | { action: 'create' | 'update'; record: ContactListItemDto }
    | { action: 'delete'; id: number; contactListId: number }
    | { action: 'reload'; contactListId: number }
  /** Room: the user who started it. Progress of a spreadsheet import (contact list or contacts). */
  spreadsheetImport: { action: 'update'; job: SpreadsheetImportDto }
  /** Room: the company. Scheduled messages created, edited, sent or failed, and deleted. */
  schedule: { action: 'create' | 'update'; schedule: ScheduleDto } | { action: 'delete'; scheduleId: number }
  /** Room: the company for geral ones; a personal one only to its owner's room. */
  quickmessage: { action: 'create' | 'update'; record: QuickMessageDto } | { action: 'delete'; id: number }
  /** Room: the company's admins. The whole settings after a save. */
  campaignSettings: { action: 'update'; settings: CampaignSettingItem[] }
  /** Room: the company. File lists (spec 3) created, edited (options and attachments too) and deleted. */
  file: { action: 'create' | 'update'; fileList: FileListDto } | { action: 'delete'; fileId: number }
  /** Room: the company's admins. Queue integrations (spec 3) created, edited and deleted. */
  queueIntegration:
    | { action: 'create' | 'update'; queueIntegration: QueueIntegrationDto }
    | { action: 'delete'; integrationId: number }
  /** Room: the company's admins. AI prompts (spec 3) created, edited and deleted (keys masked). */
  prompt: { action: 'create' | 'update'; prompt: PromptDto } | { action: 'delete'; promptId: number }
  /** Room: the company's admins. Campaigns created, edited, progressing (counts, status), and deleted. */
  campaign: { action: 'create' | 'update'; record: CampaignDto } | { action: 'delete'; id: number }
  /**
   * Room: each member's user room. Internal chats created, edited (title, members) or moved by a new message;
   * a member removed from a chat, or every member of a deleted one, gets 'delete'.
   */
  chat: { action: 'create' | 'update'; record: ChatDto } | { action: 'delete'; id: number }
  /** Room: that user's room only. Their unread count in a chat changed (a new message, or read). */
  'chat-user': { action: 'update'; chatId: number; userId: number; unreads: number }
  /** Room: each member's user room. A new message in chat {id}, with the chat as it is now. */
  [chat: `chat-${number}`]: { action: 'new-message'; message: ChatMessageDto; chat: ChatDto }
  /**
   * Room: the company. A payment was confirmed (payment webhook or the super user): the due date moved to
   * `company.dueDate` (spec 3: payment, action CONCLUIDA).
   */
  payment: { action: 'CONCLUIDA'; company: { id: number; dueDate: string } }
  /** Room: the company's admins. An invoice was issued (the invoice job) or paid. */
  invoice: { action: 'create' | 'update'; record: InvoiceDto }
}

/** Events that belong to no company. */
export interface GlobalEvents {
  /** Sent to every socket every 18 s so clients can tell a silent socket from a dead one. */
  ping: { t: number }
  /**
   * Room: everyone (every user socket of every company). Announcements from the platform operator, created,
   * edited (an inactive one included: the bell drops it) and deleted.
   */
  announcement: { action: 'create' | 'update'; record: AnnouncementDto } | { action: 'delete'; id: number }
}

export type CompanyEventName = keyof CompanyEvents

/** The wire name of a company event, e.g. `company-7-user`. */
export type CompanyChannel<N extends CompanyEventName = CompanyEventName> = `company-${number}-${N}`

/** Every event name a frame may carry. */
export type LiveEventName = CompanyChannel | keyof GlobalEvents

/** What `data` holds for a wire event name; `never` for a name outside the maps. */
export type LivePayload<E extends string> = E extends keyof GlobalEvents
  ? GlobalEvents[E]
  : E extends `company-${number}-${infer N extends CompanyEventName}`
    ? CompanyEvents[N]
    : never

/** A frame from the server. */
export type LiveFrame<E extends LiveEventName = LiveEventName> = { event: E; data: LivePayload<E> }

/** `company-{companyId}-{name}`, typed so the payload follows from the name. */
export function liveChannel<N extends CompanyEventName>(companyId: number, name: N): CompanyChannel<N> {
  return `company-${companyId}-${name}`
}

/** Frames a client may send: event name to `data` (undefined: the frame has no data). */
export interface ClientEvents {
  /** "I am here": sent on connect and every 5 minutes. */
  userStatus: undefined
  /** Follow a ticket's room (its messages); the server checks the user may see the ticket. */
  joinChatBox: number
  leaveChatBox: number
}

export type ClientEventName = keyof ClientEvents

export type ClientFrame = {
  [E in ClientEventName]: ClientEvents[E] extends undefined
    ? { event: E }
    : { event: E; data: ClientEvents[E] }
}[ClientEventName]

/** Close codes the server uses, so a client can tell why its socket ended. */
export const LIVE_CLOSE = {
  /** The server is stopping; reconnect later. */
  shutdown: 1001,
  /** The client broke the protocol's limits (a flood of frames). */
  policyViolation: 1008,
  /** A frame larger than the server accepts (Bun closes the socket itself). */
  tooBig: 1009,
  /** The server failed while setting the socket up; reconnecting may work. */
  internalError: 1011,
  /** The session ended: signed out, signed in elsewhere, or the user was deleted. */
  sessionEnded: 4001,
  /** The company was deactivated, expired or deleted. */
  companyUnavailable: 4003,
  /** The user already holds the most live sockets allowed; the new one is refused. */
  tooManySockets: 4008,
} as const
