/** The company's contacts, paged and searched, live: the contacts page. */
import type { ContactDto, ContactsPage } from '../../../shared/api'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type ContactsParams = { search: string }

/** The server's order: name (as SQLite compares text, code point by code point), then id. */
export function compareContacts(a: ContactDto, b: ContactDto): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id
}

/** Whether a contact belongs to a search (the server looks in the name, the number and the e-mail). */
export function contactMatches(contact: ContactDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  if (!term) return true
  const digits = term.replace(/\D/g, '')
  return (
    contact.name.toLowerCase().includes(term) ||
    (contact.email ?? '').toLowerCase().includes(term) ||
    (digits.length > 0 && contact.number.replace(/\D/g, '').includes(digits))
  )
}

/** GET /api/contacts/?searchParam=&pageNumber=, kept live by `company-{id}-contact`. */
export const contactsList = defineLiveList<ContactDto, ContactsParams>({
  name: 'contacts',
  id: (c) => c.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<ContactsPage>('/contacts/', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.contacts, hasMore: res.hasMore, count: res.count }
  },
  sort: compareContacts,
  matches: (c, { search }) => contactMatches(c, search),
  paramsKey: ({ search }) => search.trim(),
  events: [
    liveEvent('contact', (data, list) => {
      if (data.action === 'delete') list.remove(data.contactId)
      else if (data.contact) list.upsert(data.contact)
    }),
  ],
})

/** Contacts whose name or number holds `term` (GET /api/contacts?searchParam=): pickers (forward, new ticket). */
export async function searchContacts(term: string, signal?: AbortSignal): Promise<ContactDto[]> {
  const res = await api.get<ContactsPage | ContactDto[]>('/contacts', {
    query: { searchParam: term },
    signal,
  })
  return Array.isArray(res) ? res : (res?.contacts ?? [])
}
