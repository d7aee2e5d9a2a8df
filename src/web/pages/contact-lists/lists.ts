/**
 * Contact lists and their items as the web keeps them, live (`company-{id}-ContactList`,
 * `company-{id}-ContactListItem`): the lists page (paged, searched) and one list's items.
 */
import type { Paged } from '../../../shared/api'
import type { ContactListDto, ContactListItemDto } from '../../../shared/contact-lists'
import { api, getToken } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

const byName = <T extends { id: number; name: string }>(a: T, b: T) => {
  const x = a.name.toLowerCase()
  const y = b.name.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a.id - b.id
}

/** GET /api/contact-lists/?searchParam=&pageNumber= → `{ records, count, hasMore }`. */
export const contactListsList = defineLiveList<ContactListDto, { search: string }>({
  name: 'contact-lists',
  id: (l) => l.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'records', ContactListDto>>('/contact-lists', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.records ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: byName,
  matches: (l, { search }) => !search.trim() || l.name.toLowerCase().includes(search.trim().toLowerCase()),
  paramsKey: ({ search }) => search.trim(),
  events: [
    liveEvent<ContactListDto, 'ContactList'>('ContactList', (data, list) => {
      if (data.action === 'delete') list.remove(data.id)
      else list.upsert(data.record)
    }),
  ],
})

export type ItemsParams = { contactListId: number; search: string }

/** GET /api/contact-list-items?contactListId=&searchParam=&pageNumber= → `{ contacts, count, hasMore }`. */
export const contactListItemsList = defineLiveList<ContactListItemDto, ItemsParams>({
  name: 'contact-list-items',
  id: (i) => i.id,
  fetchPage: async ({ contactListId, search }, pageNumber, signal) => {
    const res = await api.get<Paged<'contacts', ContactListItemDto>>('/contact-list-items', {
      query: { contactListId, searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.contacts ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: byName,
  matches: (i, { contactListId, search }) => {
    const term = search.trim().toLowerCase()
    return (
      i.contactListId === contactListId &&
      (!term || i.name.toLowerCase().includes(term) || i.number.includes(term) || i.email.includes(term))
    )
  },
  paramsKey: ({ contactListId, search }) => `${contactListId}:${search.trim()}`,
  events: [
    liveEvent<ContactListItemDto, 'ContactListItem', ItemsParams>('ContactListItem', (data, list, params) => {
      // 'reload' (an import finished) is the page's to follow: it fetches the list again.
      if (data.action === 'reload') return
      if (data.action === 'delete') {
        if (data.contactListId === params.contactListId) list.remove(data.id)
      } else if (data.record.contactListId === params.contactListId) list.upsert(data.record)
    }),
  ],
})

/** Downloads a file the API answers (with the bearer token), under the name the server gives. */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const token = getToken()
  const res = await fetch(`/api${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'same-origin',
  })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName
  const url = URL.createObjectURL(await res.blob())
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
