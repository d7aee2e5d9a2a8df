/**
 * Internal chat (spec 2): the shapes of `/api/chats` answers and of the `chat`, `chat-user` and `chat-{id}` live
 * events. Timestamps are ISO strings.
 */

/** Page size of `GET /chats` and of `GET /chats/{id}/messages`. */
export const CHATS_PAGE_SIZE = 20
export const CHAT_MESSAGES_PAGE_SIZE = 20
/** `GET /chats/unread` answers at most this many chats. */
export const UNREAD_CHATS_MAX = 50

export type ChatMemberDto = {
  userId: number
  /** This member's unread messages in the chat. */
  unreads: number
  user: { id: number; name: string }
}

export type ChatDto = {
  id: number
  uuid: string
  title: string
  /** Null once the user who created it was deleted. */
  ownerId: number | null
  lastMessage: string
  createdAt: string
  updatedAt: string
  users: ChatMemberDto[]
}

export type ChatMessageDto = {
  id: number
  chatId: number
  message: string
  /** Null once the sender was deleted (the message stays for the others). */
  senderId: number | null
  sender: { id: number; name: string } | null
  createdAt: string
}

/** `GET /chats`. */
export type ChatsPage = { records: ChatDto[]; hasMore: boolean }
/** `GET /chats/unread`. */
export type UnreadChats = { records: ChatDto[] }
/** `GET /chats/{id}/messages`: page 1 is the newest 20, oldest first within the page. */
export type ChatMessagesPage = { records: ChatMessageDto[]; count: number; hasMore: boolean }

/** A member's unread count in a chat (0 when not a member). */
export function unreadsOf(chat: Pick<ChatDto, 'users'>, userId: number): number {
  return chat.users.find((u) => u.userId === userId)?.unreads ?? 0
}
