/**
 * Quick messages as the web keeps them, live (`company-{id}-quickmessage`): the page's list (paged, searched)
 * and the message input's list (`/quick-messages/list`: the active ones this user may use).
 */
import type { Paged, QuickMessageDto } from '../../../shared/api'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type QuickMessagesParams = { search: string }

/** The server's order: shortcode (case-insensitive), then id. */
export function compareQuickMessages(a: QuickMessageDto, b: QuickMessageDto): number {
  const x = a.shortcode.toLowerCase()
  const y = b.shortcode.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a.id - b.id
}

/** Whether a quick message belongs to a search (the server looks in the shortcode and the text). */
export function quickMessageMatches(record: QuickMessageDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || record.shortcode.toLowerCase().includes(term) || record.message.toLowerCase().includes(term)
}

const applyEvent = liveEvent<QuickMessageDto, 'quickmessage'>('quickmessage', (data, list) => {
  if (data.action === 'delete') list.remove(data.id)
  else if (data.record) list.upsert(data.record)
})

/** GET /api/quick-messages?searchParam=&pageNumber= → `{ records, count, hasMore }`. */
export const quickMessagesList = defineLiveList<QuickMessageDto, QuickMessagesParams>({
  name: 'quick-messages',
  id: (q) => q.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'records', QuickMessageDto>>('/quick-messages', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.records ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareQuickMessages,
  matches: (record, { search }) => quickMessageMatches(record, search),
  paramsKey: ({ search }) => search.trim(),
  events: [applyEvent],
})

/** GET /api/quick-messages/list: what the message input offers after '/' (an inactive one leaves it). */
export const usableQuickMessagesList = defineLiveList<QuickMessageDto>({
  name: 'quick-messages-usable',
  id: (q) => q.id,
  fetchPage: async (_params, _page, signal) => ({
    items: (await api.get<QuickMessageDto[]>('/quick-messages/list', { signal })) ?? [],
    hasMore: false,
  }),
  sort: compareQuickMessages,
  matches: (record) => record.status,
  events: [applyEvent],
})
