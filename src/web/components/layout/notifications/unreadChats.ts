/**
 * The signed-in user's internal chats with unread messages (spec 2: the menu dot and the notification popover
 * for unread chats): `GET /chats/unread`, then kept live by `chat` (a chat whose record shows unread messages
 * for me joins, one that shows none leaves, a deleted one goes) and `chat-user` (my unread count in a chat).
 */
import { type ChatDto, type UnreadChats, unreadsOf } from '../../../../shared/chats'
import type { CompanyEvents } from '../../../../shared/live'
import { api } from '../../../api/client'
import { defineLiveList, type LiveListOps, liveEvent } from '../../../state/liveList'
import { currentUser } from '../../../state/session'

/** Newest activity first, as the server orders them. */
export function compareChats(a: ChatDto, b: ChatDto): number {
  return b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id
}

/** The chat with one member's unread count changed. */
export function withUnreads(chat: ChatDto, userId: number, unreads: number): ChatDto {
  if (!chat.users.some((u) => u.userId === userId)) return chat
  return { ...chat, users: chat.users.map((u) => (u.userId === userId ? { ...u, unreads } : u)) }
}

export function applyUnreadChatEvent(
  data: CompanyEvents['chat'],
  me: number | null,
  ops: LiveListOps<ChatDto>,
) {
  if (data.action === 'delete') ops.remove(data.id)
  else if (data.record && me != null) {
    if (unreadsOf(data.record, me) > 0) ops.upsert(data.record)
    else ops.remove(data.record.id)
  }
}

export function applyUnreadCountEvent(
  data: CompanyEvents['chat-user'],
  me: number | null,
  ops: LiveListOps<ChatDto>,
) {
  if (me == null || data.userId !== me) return
  if (data.unreads <= 0) ops.remove(data.chatId)
  else ops.patch(data.chatId, (chat) => withUnreads(chat, me, data.unreads))
}

const me = () => currentUser.peek()?.id ?? null

export const unreadChatsList = defineLiveList<ChatDto>({
  name: 'unread-chats',
  id: (c) => c.id,
  fetchPage: async (_params, _page, signal) => {
    const res = await api.get<UnreadChats>('/chats/unread', { signal })
    return { items: res.records ?? [], hasMore: false }
  },
  sort: compareChats,
  events: [
    liveEvent('chat', (data, ops) => applyUnreadChatEvent(data, me(), ops)),
    liveEvent('chat-user', (data, ops) => applyUnreadCountEvent(data, me(), ops)),
  ],
})
