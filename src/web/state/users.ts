/** The company's users, paged and searched, live: the users page. */
import type { Paged, UserDto } from '../../shared/api'
import { api } from '../api/client'
import { defineLiveList, liveEvent } from './liveList'

export type UsersParams = { search: string }

/** The server's order: name, then id. */
export function compareUsers(a: UserDto, b: UserDto): number {
  return a.name.localeCompare(b.name) || a.id - b.id
}

/** Whether a user belongs to a search (the server looks in the name and the e-mail). */
export function userMatches(user: UserDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || user.name.toLowerCase().includes(term) || user.email.toLowerCase().includes(term)
}

/** GET /api/users?searchParam=&pageNumber=, kept live by `company-{id}-user`. */
export const usersList = defineLiveList<UserDto, UsersParams>({
  name: 'users',
  id: (u) => u.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'users', UserDto>>('/users', {
      query: { searchParam: search, pageNumber },
      signal,
    })
    return { items: res.users, hasMore: res.hasMore, count: res.count }
  },
  sort: compareUsers,
  matches: (u, { search }) => userMatches(u, search),
  paramsKey: ({ search }) => search.trim(),
  events: [
    liveEvent('user', (data, list) => {
      if (data.action === 'delete') list.remove(data.userId)
      else if (data.user) list.upsert(data.user)
    }),
  ],
})
