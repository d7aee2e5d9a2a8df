/**
 * The ticket lists of the tickets screen, live. One live list (state/liveList.ts) per tab and sub-tab, kept
 * live by `company-{id}-ticket`, `-appMessage` and `-contact`, and fetched again after the socket reconnects.
 *
 * The spec's "Ticket list live behaviour" (spec 1, section 4), rule by rule, in the pure functions below:
 * - ticket `update`: replaces the ticket, or adds it at the top when new, only when it belongs to the user
 *   (assigned to them or to nobody) or show-all is on, and only when its queue is among the selected ones (a
 *   ticket without a queue always passes the queue filter); an update for a non-selected queue removes it. An
 *   update that no longer fits the list (another status, another user's with show-all off, a group in a normal
 *   list) removes it too: the lists are per status and per kind, so the row must leave.
 * - ticket `delete` removes it; ticket `updateUnread` zeroes its unread count.
 * - appMessage `create` moves the ticket to the top (adding it when it is not loaded) when the list would show
 *   it, and only when the profile is not 'user' or the ticket's queue is one of the user's queues (a profile
 *   'user' only sees tickets of their own queues in the live feed).
 * - contact `update` refreshes the contact on its tickets.
 * - loaded tickets with unread messages move to the top (each page puts its unread tickets above the rows).
 * - tickets with isGroup true appear only in the groups tab, the others only in the normal lists; the closed
 *   and search tabs show every ticket (show-all forced on, groups and others).
 * - the search tab never gains rows from live events (a live ticket cannot be checked against a text search of
 *   its messages): its rows are refreshed in place and removed when deleted.
 */
import { useEffect, useState } from 'react'
import type { ContactDto, TicketCountsDto, TicketDto, TicketsPage } from '../../shared/api'
import type { CompanyEvents } from '../../shared/live'
import { isAdmin, type PermissionSubject } from '../../shared/permissions'
import { api } from '../api/client'
import { liveChannel, onReconnect, subscribe } from '../api/live'
import { defineLiveList, type LiveListOps, liveEvent } from './liveList'
import { currentUser } from './session'

/** Which list: a status, or the search tab (any status). */
export type TicketListKind = 'open' | 'pending' | 'closed' | 'search'

export type TicketListParams = {
  kind: TicketListKind
  /** true: the groups tab; false: the normal open/pending lists; null: every ticket (closed, search). */
  groups: boolean | null
  showAll: boolean
  /** The selected queues (sorted). A ticket without a queue always passes. */
  queueIds: number[]
  /** The search tab's text (debounced); '' elsewhere. */
  search: string
}

/** Who is looking: the live rules depend on the user, their profile and their queues. */
export type TicketViewer = PermissionSubject & {
  id: number
  queueIds: readonly number[]
  /** 'enabled': sees every closed ticket of their queues, not only their own (the server's rule too). */
  allHistoric?: string
}

export function viewerOf(
  user: {
    id: number
    profile: string
    super?: boolean
    allHistoric?: string
    queues: { id: number }[]
  } | null,
): TicketViewer | null {
  if (!user) return null
  return {
    id: user.id,
    profile: user.profile,
    super: user.super,
    allHistoric: user.allHistoric,
    queueIds: (user.queues ?? []).map((q) => q.id),
  }
}

/** The params of a list, normalised so two views of the same list share one store. */
export function ticketListParams(p: {
  kind: TicketListKind
  groups?: boolean | null
  showAll: boolean
  queueIds: readonly number[]
  search?: string
}): TicketListParams {
  const everything = p.kind === 'closed' || p.kind === 'search'
  return {
    kind: p.kind,
    groups: everything ? null : (p.groups ?? false),
    // Spec: the closed and search tabs always show all tickets.
    showAll: everything ? true : p.showAll,
    queueIds: [...new Set(p.queueIds)].sort((a, b) => a - b),
    search: p.kind === 'search' ? (p.search ?? '').trim() : '',
  }
}

/** The query of GET /api/tickets for a list and page (lists travel as JSON text). */
export function ticketsQuery(params: TicketListParams, pageNumber: number) {
  return {
    pageNumber,
    status: params.kind === 'search' ? undefined : params.kind,
    searchParam: params.search || undefined,
    showAll: params.showAll ? 'true' : 'false',
    queueIds: JSON.stringify(params.queueIds),
    isGroup: params.groups == null ? undefined : String(params.groups),
  }
}

/** A ticket's queue is among the selected ones (a ticket without a queue always is). */
export function queueSelected(
  ticket: Pick<TicketDto, 'queueId'>,
  params: Pick<TicketListParams, 'queueIds'>,
) {
  return ticket.queueId == null || params.queueIds.includes(ticket.queueId)
}

/** The ticket is the user's, or nobody's (a pending ticket waits for anyone). */
export function belongsToViewer(ticket: Pick<TicketDto, 'userId'>, viewer: Pick<TicketViewer, 'id'>) {
  return ticket.userId == null || ticket.userId === viewer.id
}

/** Whether a ticket, as a live event shows it, belongs in a (non-search) list. */
export function ticketFitsList(ticket: TicketDto, params: TicketListParams, viewer: TicketViewer): boolean {
  if (params.kind === 'search') return false
  if (ticket.status !== params.kind) return false
  if (params.groups != null && !!ticket.isGroup !== params.groups) return false
  if (!params.showAll && !belongsToViewer(ticket, viewer)) return false
  // As the server lists it: an attendant without allHistoric sees only their own closed tickets.
  if (
    params.kind === 'closed' &&
    !isAdmin(viewer) &&
    viewer.allHistoric !== 'enabled' &&
    ticket.userId !== viewer.id
  )
    return false
  return queueSelected(ticket, params)
}

/** Spec: a profile 'user' only hears new messages of tickets in their own queues. */
export function messageFeedAllows(ticket: Pick<TicketDto, 'queueId'>, viewer: TicketViewer): boolean {
  if (isAdmin(viewer)) return true
  return ticket.queueId != null && viewer.queueIds.includes(ticket.queueId)
}

/** Replaces the row, or puts it at the top (a live row is news: it goes first). */
function moveToTop(ticket: TicketDto, ops: LiveListOps<TicketDto>) {
  ops.remove(ticket.id)
  ops.upsert(ticket)
}

export function applyTicketEvent(
  data: CompanyEvents['ticket'],
  params: TicketListParams,
  viewer: TicketViewer | null,
  ops: LiveListOps<TicketDto>,
): void {
  switch (data.action) {
    case 'delete':
      ops.remove(data.ticketId)
      return
    case 'updateUnread':
      ops.patch(data.ticketId, (t) => (t.unreadMessages === 0 ? t : { ...t, unreadMessages: 0 }))
      return
    case 'update': {
      const ticket = data.ticket
      if (!ticket || !viewer) return
      if (params.kind === 'search') ops.patch(ticket.id, () => ticket)
      else if (ticketFitsList(ticket, params, viewer)) ops.upsert(ticket)
      else ops.remove(ticket.id)
      return
    }
  }
}

export function applyMessageEvent(
  data: CompanyEvents['appMessage'],
  params: TicketListParams,
  viewer: TicketViewer | null,
  ops: LiveListOps<TicketDto>,
): void {
  if (data.action !== 'create' || !data.ticket || !viewer) return
  const ticket = data.contact
    ? { ...data.ticket, contact: { ...data.ticket.contact, ...data.contact } }
    : data.ticket
  if (!messageFeedAllows(ticket, viewer)) return
  if (params.kind === 'search') ops.patch(ticket.id, () => ticket)
  else if (ticketFitsList(ticket, params, viewer)) moveToTop(ticket, ops)
}

/** The contact's new name, number and picture on a ticket of theirs (the same row when it is not theirs). */
export function withContact(ticket: TicketDto, contact: ContactDto): TicketDto {
  if (ticket.contactId !== contact.id) return ticket
  return {
    ...ticket,
    contact: {
      ...ticket.contact,
      id: contact.id,
      name: contact.name,
      number: contact.number,
      profilePicUrl: contact.profilePicUrl,
      email: contact.email,
      isGroup: contact.isGroup,
    },
  }
}

/** A tag renamed, recoloured or deleted: the tickets that carry it follow (the server does not republish them). */
export function withTagEvent(ticket: TicketDto, data: CompanyEvents['tag']): TicketDto {
  if (!ticket.tags?.length) return ticket
  if (data.action === 'delete') {
    if (!ticket.tags.some((t) => t.id === data.tagId)) return ticket
    return { ...ticket, tags: ticket.tags.filter((t) => t.id !== data.tagId) }
  }
  const tag = data.tag
  if (!tag || !ticket.tags.some((t) => t.id === tag.id)) return ticket
  return {
    ...ticket,
    tags: ticket.tags.map((t) => (t.id === tag.id ? { id: tag.id, name: tag.name, color: tag.color } : t)),
  }
}

export function applyTagEvent(data: CompanyEvents['tag'], ops: LiveListOps<TicketDto>): void {
  if (data.action === 'create') return
  ops.patchEach((t) => withTagEvent(t, data))
}

export function applyContactEvent(data: CompanyEvents['contact'], ops: LiveListOps<TicketDto>): void {
  if (data.action === 'update' && data.contact) {
    const contact = data.contact
    ops.patchEach((t) => withContact(t, contact))
  }
}

/**
 * Spec: loaded tickets with unread messages move to the top. A page's new tickets with unread messages go
 * above the rows already shown, the others below them; a ticket already shown is replaced where it is.
 */
export function mergeTicketPage(shown: TicketDto[], page: TicketDto[]): TicketDto[] {
  const fresh = new Map(page.map((t) => [t.id, t]))
  const kept = shown.map((t) => {
    const again = fresh.get(t.id)
    if (!again) return t
    fresh.delete(t.id)
    return again
  })
  const added = [...fresh.values()]
  return [
    ...added.filter((t) => t.unreadMessages > 0),
    ...kept,
    ...added.filter((t) => t.unreadMessages <= 0),
  ]
}

const viewer = () => viewerOf(currentUser.peek())

/** GET /api/tickets, one store per tab, sub-tab, show-all, queue selection and search. */
export const ticketsList = defineLiveList<TicketDto, TicketListParams>({
  name: 'tickets',
  id: (t) => t.id,
  fetchPage: async (params, pageNumber, signal) => {
    const res = await api.get<TicketsPage>('/tickets', { query: ticketsQuery(params, pageNumber), signal })
    return { items: res.tickets ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  mergePage: mergeTicketPage,
  events: [
    liveEvent('ticket', (data, ops, params: TicketListParams) =>
      applyTicketEvent(data, params, viewer(), ops),
    ),
    liveEvent('appMessage', (data, ops, params: TicketListParams) =>
      applyMessageEvent(data, params, viewer(), ops),
    ),
    liveEvent('contact', (data, ops) => applyContactEvent(data, ops)),
    liveEvent('tag', (data, ops) => applyTagEvent(data, ops)),
  ],
})

/** Spec: show-all starts on for admins, or when the user has allUserChat enabled. */
export function initialShowAll(
  user: (PermissionSubject & { allUserChat?: string | null }) | null | undefined,
): boolean {
  return isAdmin(user) || user?.allUserChat === 'enabled'
}

/** PUT /api/tickets/{id}: accept (open, assigned to the user). */
export function acceptTicket(ticket: Pick<TicketDto, 'id'>, userId: number): Promise<TicketDto> {
  return api.put<TicketDto>(`/tickets/${ticket.id}`, { status: 'open', userId })
}

/**
 * PUT /api/tickets/{id}: close a pending ticket without accepting it (from the list; the spec's client sends the
 * same body, so the connection's farewell follows the server's default).
 */
export function closePendingTicket(ticket: Pick<TicketDto, 'id'>, userId: number): Promise<TicketDto> {
  return api.put<TicketDto>(`/tickets/${ticket.id}`, { status: 'closed', userId })
}

/**
 * The queue multi-select is remembered per user in browser storage, as the queues the user chose NOT to see:
 * a queue created later shows by default.
 */
export const HIDDEN_QUEUES_KEY = 'ticketsHiddenQueues'

export function readHiddenQueues(userId: number): number[] {
  try {
    const raw = JSON.parse(localStorage.getItem(`${HIDDEN_QUEUES_KEY}:${userId}`) ?? '[]')
    return Array.isArray(raw) ? raw.filter((n): n is number => Number.isInteger(n)) : []
  } catch {
    return []
  }
}

export function writeHiddenQueues(userId: number, ids: readonly number[]): void {
  try {
    localStorage.setItem(
      `${HIDDEN_QUEUES_KEY}:${userId}`,
      JSON.stringify([...new Set(ids)].sort((a, b) => a - b)),
    )
  } catch {
    // storage unavailable: the choice lasts for this page
  }
}

/** The selected queues: the user's options minus the hidden ones. */
export function selectedQueueIds(options: readonly number[], hidden: readonly number[]): number[] {
  const off = new Set(hidden)
  return options.filter((id) => !off.has(id))
}

/** After a burst of live ticket events, the badges are fetched again once it calms down (at most this late). */
export const COUNTS_REFRESH_MS = 600

/**
 * The sub-tabs' badges (GET /api/tickets/counts, exact, summed by the server from its kept counts) for a
 * show-all and queue selection: fetched again shortly after ticket and message events, and after a reconnect.
 * Null until the first answer (the page shows the lists' own counts meanwhile).
 */
export function useTicketCounts(
  companyId: number | null | undefined,
  filter: { showAll: boolean; queueIds: readonly number[] },
  enabled = true,
): TicketCountsDto | null {
  const [counts, setCounts] = useState<TicketCountsDto | null>(null)
  const key = JSON.stringify([filter.showAll, [...filter.queueIds].sort((a, b) => a - b)])
  useEffect(() => {
    if (!companyId || !enabled) return
    const [showAll, queueIds] = JSON.parse(key) as [boolean, number[]]
    let ctrl: AbortController | null = null
    let timer: ReturnType<typeof setTimeout> | null = null
    let stopped = false
    const load = () => {
      timer = null
      ctrl?.abort()
      const mine = new AbortController()
      ctrl = mine
      api
        .get<TicketCountsDto>('/tickets/counts', {
          query: { showAll: String(showAll), queueIds: JSON.stringify(queueIds) },
          signal: mine.signal,
        })
        .then((answer) => {
          if (!stopped && !mine.signal.aborted && answer?.open && answer.groups) setCounts(answer)
        })
        .catch(() => {
          // the lists' own counts stay on the badges
        })
    }
    const soon = () => {
      if (!timer) timer = setTimeout(load, COUNTS_REFRESH_MS)
    }
    setCounts(null)
    load()
    const offs = [
      subscribe(liveChannel(companyId, 'ticket'), soon),
      subscribe(liveChannel(companyId, 'appMessage'), (data) => {
        if (data?.action === 'create') soon()
      }),
      onReconnect(load),
    ]
    return () => {
      stopped = true
      for (const off of offs) off()
      if (timer) clearTimeout(timer)
      ctrl?.abort()
    }
  }, [companyId, key, enabled])
  return counts
}
