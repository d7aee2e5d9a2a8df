/**
 * The Kanban board's state: its lanes (GET /tags/kanban) and its tickets (GET /ticket/kanban), both live, and the
 * pure rules that place a ticket in a lane and decide whether a live ticket belongs on the board.
 *
 * - A ticket's lane is its first lane tag (a tag with kanban 1, by name as the server sends them); a ticket
 *   without one is in 'Em aberto' (lane 0). Ordinary tags (kanban 0) do not move a ticket off 'Em aberto'.
 * - The board shows open and pending tickets under the ticket lists' rule: pending ones of everyone, open ones
 *   only the user's own unless show-all; with a queue selection, only those queues and tickets without a queue.
 * - Live: a ticket `update` puts the ticket on the board (or moves it between lanes) when it belongs there and
 *   takes it off otherwise (closed, transferred away); `delete` removes it; a new message refreshes the card;
 *   contact and tag changes follow as in the inbox. A lane created, renamed, recoloured or deleted shows at once.
 */
import type { KanbanLanesDto, KanbanTicketsDto, TagDto, TagRef, TicketDto } from '../../../shared/api'
import type { CompanyEvents } from '../../../shared/live'
import { api } from '../../api/client'
import { defineLiveList, type LiveListOps, liveEvent } from '../../state/liveList'
import { currentUser } from '../../state/session'
import {
  applyContactEvent,
  applyTagEvent,
  messageFeedAllows,
  queueSelected,
  type TicketViewer,
  viewerOf,
} from '../../state/tickets'
import { compareTags } from '../tags/tagsList'

/** 'Em aberto': the lane of tickets without a lane tag. */
export const OPEN_LANE = 0

export type BoardParams = {
  /** The queues to show (sorted), or null for every queue the user may see. */
  queueIds: number[] | null
  showAll: boolean
}

/** The lane a ticket is in: the id of its first lane tag, or OPEN_LANE. */
export function laneOf(ticket: Pick<TicketDto, 'tags'>, laneIds: ReadonlySet<number>): number {
  for (const tag of ticket.tags ?? []) if (laneIds.has(tag.id)) return tag.id
  return OPEN_LANE
}

/** The ticket after a move to `lane` (OPEN_LANE: none): its lane tags replaced, its other tags kept. */
export function movedTicket(ticket: TicketDto, lane: TagRef | null, laneIds: ReadonlySet<number>): TicketDto {
  const kept = (ticket.tags ?? []).filter((t) => !laneIds.has(t.id))
  const tags = lane ? [...kept, lane].sort((a, b) => a.name.localeCompare(b.name)) : kept
  return { ...ticket, tags }
}

/** Whether a ticket, as a live event shows it, belongs on the board. */
export function boardFits(ticket: TicketDto, params: BoardParams, viewer: Pick<TicketViewer, 'id'>): boolean {
  if (ticket.status !== 'open' && ticket.status !== 'pending') return false
  if (ticket.status === 'open' && !params.showAll && ticket.userId !== viewer.id) return false
  return params.queueIds == null || queueSelected(ticket, { queueIds: params.queueIds })
}

/** Newest first, as the server pages them. */
export function compareTickets(a: TicketDto, b: TicketDto): number {
  return b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id
}

export function applyBoardTicketEvent(
  data: CompanyEvents['ticket'],
  params: BoardParams,
  viewer: TicketViewer | null,
  ops: LiveListOps<TicketDto>,
): void {
  if (data.action === 'delete') ops.remove(data.ticketId)
  else if (data.action === 'updateUnread')
    ops.patch(data.ticketId, (t) => (t.unreadMessages === 0 ? t : { ...t, unreadMessages: 0 }))
  else if (data.ticket && viewer) {
    if (boardFits(data.ticket, params, viewer)) ops.upsert(data.ticket)
    else ops.remove(data.ticket.id)
  }
}

export function applyBoardMessageEvent(
  data: CompanyEvents['appMessage'],
  params: BoardParams,
  viewer: TicketViewer | null,
  ops: LiveListOps<TicketDto>,
): void {
  if (data.action !== 'create' || !data.ticket || !viewer) return
  const ticket = data.contact
    ? { ...data.ticket, contact: { ...data.ticket.contact, ...data.contact } }
    : data.ticket
  if (messageFeedAllows(ticket, viewer) && boardFits(ticket, params, viewer)) ops.upsert(ticket)
}

/** The query of GET /api/ticket/kanban (the queues as JSON text, as the spec sends them). */
export function boardQuery(params: BoardParams, pageNumber: number) {
  return {
    queueIds: params.queueIds ? JSON.stringify(params.queueIds) : undefined,
    showAll: params.showAll ? 'true' : undefined,
    pageNumber,
  }
}

const viewer = () => viewerOf(currentUser.peek())

/** The board's tickets, newest first, 100 a page ("load more" asks the next). */
export const boardTicketsList = defineLiveList<TicketDto, BoardParams>({
  name: 'kanbanTickets',
  id: (t) => t.id,
  fetchPage: async (params, pageNumber, signal) => {
    const res = await api.get<KanbanTicketsDto>('/ticket/kanban', {
      query: boardQuery(params, pageNumber),
      signal,
    })
    return { items: res.tickets ?? [], hasMore: !!res.hasMore }
  },
  sort: compareTickets,
  events: [
    liveEvent('ticket', (data, ops, params: BoardParams) =>
      applyBoardTicketEvent(data, params, viewer(), ops),
    ),
    liveEvent('appMessage', (data, ops, params: BoardParams) =>
      applyBoardMessageEvent(data, params, viewer(), ops),
    ),
    liveEvent('contact', (data, ops) => applyContactEvent(data, ops)),
    liveEvent('tag', (data, ops) => applyTagEvent(data, ops)),
  ],
})

/** The board's lanes (GET /tags/kanban: `lista`), by name; a tag that stops being a lane leaves the board. */
export const boardLanesList = defineLiveList<TagDto>({
  name: 'kanbanLanes',
  id: (t) => t.id,
  fetchPage: async (_params, _page, signal) => {
    const res = await api.get<KanbanLanesDto>('/tags/kanban', { signal })
    return { items: res.lista ?? [], hasMore: false }
  },
  sort: compareTags,
  matches: (tag) => tag.kanban === 1,
  events: [
    liveEvent('tag', (data, list) => {
      if (data.action === 'delete') list.remove(data.tagId)
      else if (data.tag) list.upsert(data.tag)
    }),
  ],
})
