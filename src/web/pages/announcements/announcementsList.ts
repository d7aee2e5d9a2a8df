/**
 * The announcements management page's list (super users): `GET /announcements/?searchParam=&pageNumber=`, newest
 * first, live through the global `announcement` event (see `useAnnouncementEvents`).
 */
import type { AnnouncementDto, AnnouncementsPage } from '../../../shared/announcements'
import { api } from '../../api/client'
import { compareAnnouncements } from '../../components/layout/notifications/announcements'
import { defineLiveList } from '../../state/liveList'

export type AnnouncementsParams = { search: string }

/** Whether an announcement belongs to a search (the server looks in the title and the text). */
export function announcementMatches(record: AnnouncementDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || record.title.toLowerCase().includes(term) || record.text.toLowerCase().includes(term)
}

export const announcementsList = defineLiveList<AnnouncementDto, AnnouncementsParams>({
  name: 'announcements',
  id: (a) => a.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<AnnouncementsPage>('/announcements/', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.records ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareAnnouncements,
  matches: (record, { search }) => announcementMatches(record, search),
  paramsKey: ({ search }) => search.trim(),
  events: [],
})
