/**
 * The company's scheduled messages, paged and searched, live (`company-{id}-schedule`): the schedules page, and
 * one contact's (`contactId`) in the conversation's contact drawer.
 */
import type { ScheduleDto, SchedulesPage } from '../../../shared/scheduled-messages'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type SchedulesParams = { search: string; contactId?: number | null }

/** The server's order: latest send time first, then id. */
export function compareSchedules(a: ScheduleDto, b: ScheduleDto): number {
  return b.sendAt.localeCompare(a.sendAt) || b.id - a.id
}

/** Whether a schedule belongs to a search (the server looks in the body and the contact's name). */
export function scheduleMatches(s: ScheduleDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || s.body.toLowerCase().includes(term) || s.contact.name.toLowerCase().includes(term)
}

/** GET /api/schedules/?searchParam=&pageNumber=&contactId= */
export const schedulesList = defineLiveList<ScheduleDto, SchedulesParams>({
  name: 'schedules',
  id: (s) => s.id,
  fetchPage: async ({ search, contactId }, pageNumber, signal) => {
    const res = await api.get<SchedulesPage>('/schedules/', {
      query: { searchParam: search || undefined, pageNumber, contactId: contactId ?? undefined },
      signal,
    })
    return { items: res.schedules ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareSchedules,
  matches: (s, { search, contactId }) =>
    (contactId == null || s.contactId === contactId) && scheduleMatches(s, search),
  paramsKey: ({ search, contactId }) => `${contactId ?? ''}|${search.trim()}`,
  events: [
    liveEvent('schedule', (data, list) => {
      if (data.action === 'delete') list.remove(data.scheduleId)
      else if (data.schedule) list.upsert(data.schedule)
    }),
  ],
})
