/**
 * Announcements as the web keeps them: the bell's feed (`GET /announcements/feed`, the active ones, newest first)
 * and the live event that keeps every list of them current. Announcements belong to no company, so their event is
 * the global `announcement` (src/shared/live.ts), not a company channel: `useAnnouncementEvents` applies it to a
 * live list's rows.
 */
import { useEffect } from 'react'
import type { AnnouncementDto, AnnouncementsFeedPage } from '../../../../shared/announcements'
import { api } from '../../../api/client'
import { subscribe } from '../../../api/live'
import { defineLiveList } from '../../../state/liveList'

/** The server's order: newest first, then the higher id. */
export function compareAnnouncements(a: AnnouncementDto, b: AnnouncementDto): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return b.id - a.id
}

/** GET /api/announcements/feed?pageNumber= → `{ records, hasMore }`: what every user's bell shows. */
export const announcementsFeed = defineLiveList<AnnouncementDto>({
  name: 'announcements-feed',
  id: (a) => a.id,
  fetchPage: async (_params, pageNumber, signal) => {
    const res = await api.get<AnnouncementsFeedPage>('/announcements/feed', { query: { pageNumber }, signal })
    return { items: res.records ?? [], hasMore: !!res.hasMore }
  },
  sort: compareAnnouncements,
  // An announcement made inactive leaves the bell.
  matches: (a) => a.status,
  events: [],
})

type Rows = { upsert: (a: AnnouncementDto) => void; remove: (id: number) => void }

/**
 * Applies the global `announcement` event to a list while the component is mounted: create and update upsert (the
 * list's `matches` drops what does not belong, an inactive one from the bell), delete removes.
 */
export function useAnnouncementEvents({ upsert, remove }: Rows) {
  useEffect(
    () =>
      subscribe('announcement', (data) => {
        if (!data || typeof data !== 'object') return
        if (data.action === 'delete') remove(data.id)
        else if (data.record) upsert(data.record)
      }),
    [upsert, remove],
  )
}

/** Where the time the user last opened the bell is kept, per user. */
export const seenKey = (userId: number) => `announcementsSeen:${userId}`

/** Epoch ms of the newest announcement the user has seen in the bell (0: never opened it). */
export function readSeen(userId: number): number {
  try {
    const n = Number(localStorage.getItem(seenKey(userId)))
    return Number.isFinite(n) ? n : 0
  } catch {
    return 0
  }
}

export function writeSeen(userId: number, at: number) {
  try {
    localStorage.setItem(seenKey(userId), String(at))
  } catch {}
}

/** The announcements created after `seen`. */
export function unseen(items: AnnouncementDto[], seen: number): AnnouncementDto[] {
  return items.filter((a) => Date.parse(a.createdAt) > seen)
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The spec's times: HH:mm today, otherwise dd/MM/yyyy. */
export function shortDate(iso: string, now = new Date()): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const today =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()
  return today
    ? `${pad(d.getHours())}:${pad(d.getMinutes())}`
    : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`
}

/** dd/MM/yyyy HH:mm, for the detail and the management table. */
export function fullDate(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
