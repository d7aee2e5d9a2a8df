/**
 * Internal chat as the page keeps it: the chat list (`GET /chats`, live by `chat` and `chat-user`) and the open
 * chat's messages (`GET /chats/{id}/messages`, live by `chat-{id}`).
 */
import { useSignals } from '@preact/signals-react/runtime'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ChatDto, ChatMessageDto, ChatMessagesPage, ChatsPage } from '../../../shared/chats'
import { liveChannel } from '../../../shared/live'
import { api } from '../../api/client'
import { onReconnect, subscribe } from '../../api/live'
import { compareChats, withUnreads } from '../../components/layout/notifications/unreadChats'
import { defineLiveList, liveEvent } from '../../state/liveList'
import { currentUser } from '../../state/session'

export type ChatsParams = { search: string }

export function chatMatches(chat: ChatDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || chat.title.toLowerCase().includes(term)
}

/** GET /api/chats?searchParam=&pageNumber= → `{ records, hasMore }`, newest activity first. */
export const chatsList = defineLiveList<ChatDto, ChatsParams>({
  name: 'chats',
  id: (c) => c.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<ChatsPage>('/chats', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.records ?? [], hasMore: !!res.hasMore }
  },
  sort: compareChats,
  matches: (chat, { search }) => chatMatches(chat, search),
  paramsKey: ({ search }) => search.trim(),
  events: [
    liveEvent('chat', (data, list) => {
      if (data.action === 'delete') list.remove(data.id)
      else if (data.record) list.upsert(data.record)
    }),
    liveEvent('chat-user', (data, list) => {
      list.patch(data.chatId, (chat) => withUnreads(chat, data.userId, data.unreads))
    }),
  ],
})

/** Oldest first, each message once. */
export function mergeMessages(a: ChatMessageDto[], b: ChatMessageDto[]): ChatMessageDto[] {
  const byId = new Map<number, ChatMessageDto>()
  for (const m of a) byId.set(m.id, m)
  for (const m of b) byId.set(m.id, m)
  return [...byId.values()].sort((x, y) => x.id - y.id)
}

export type ChatMessagesState = {
  messages: ChatMessageDto[]
  hasMore: boolean
  loading: boolean
  loadingOlder: boolean
  error: unknown
}

const EMPTY: ChatMessagesState = {
  messages: [],
  hasMore: false,
  loading: true,
  loadingOlder: false,
  error: null,
}

/**
 * The messages of one chat: page 1 (the newest 20) on open, older pages on demand, new ones live; after a
 * reconnect page 1 is fetched again and merged. `add` puts in a message the user just sent.
 */
export function useChatMessages(chatId: number | null) {
  useSignals()
  const [state, setState] = useState<ChatMessagesState>(EMPTY)
  const pages = useRef(0)
  const busy = useRef(false)
  const companyId = currentUser.value?.companyId ?? null

  const loadFirst = useCallback(
    async (signal?: AbortSignal) => {
      if (chatId == null) return
      try {
        const res = await api.get<ChatMessagesPage>(`/chats/${chatId}/messages`, {
          query: { pageNumber: 1 },
          signal,
        })
        if (signal?.aborted) return
        const first = pages.current === 0
        pages.current = Math.max(1, pages.current)
        setState((s) => ({
          messages: mergeMessages(s.messages, res.records ?? []),
          hasMore: first ? !!res.hasMore : s.hasMore,
          loading: false,
          loadingOlder: false,
          error: null,
        }))
      } catch (err) {
        if (signal?.aborted || (err as Error)?.name === 'AbortError') return
        setState((s) => ({ ...s, loading: false, error: err }))
      }
    },
    [chatId],
  )

  useEffect(() => {
    setState(EMPTY)
    pages.current = 0
    busy.current = false
    if (chatId == null || companyId == null) return
    const ctrl = new AbortController()
    void loadFirst(ctrl.signal)
    const offs = [
      subscribe(liveChannel(companyId, `chat-${chatId}`), (data) => {
        if (data?.action === 'new-message' && data.message)
          setState((s) => ({ ...s, messages: mergeMessages(s.messages, [data.message]) }))
      }),
      onReconnect(() => void loadFirst()),
    ]
    return () => {
      ctrl.abort()
      for (const off of offs) off()
    }
  }, [chatId, companyId, loadFirst])

  const loadOlder = useCallback(async () => {
    if (chatId == null || busy.current || pages.current === 0) return
    busy.current = true
    setState((s) => ({ ...s, loadingOlder: true }))
    try {
      const next = pages.current + 1
      const res = await api.get<ChatMessagesPage>(`/chats/${chatId}/messages`, {
        query: { pageNumber: next },
      })
      pages.current = next
      setState((s) => ({
        ...s,
        messages: mergeMessages(res.records ?? [], s.messages),
        hasMore: !!res.hasMore,
        loadingOlder: false,
      }))
    } catch {
      // Spec: chat calls fail silently; scrolling up again retries.
      setState((s) => ({ ...s, loadingOlder: false }))
    } finally {
      busy.current = false
    }
  }, [chatId])

  const add = useCallback((message: ChatMessageDto) => {
    setState((s) => ({ ...s, messages: mergeMessages(s.messages, [message]) }))
  }, [])

  return { ...state, loadOlder, add, reload: () => void loadFirst() }
}

export type ChatMessagesView = ReturnType<typeof useChatMessages>
