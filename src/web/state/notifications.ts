/**
 * Unread notifications (spec 1, section 4, "Unread notifications"): the bell's list of tickets with unread
 * customer messages, the desktop notification and the sound.
 *
 * A new incoming message that is unread and not from us, on a ticket that is
 * - not pending (unless the user's allTicket is 'enable': then pending tickets count too),
 * - assigned to the user or to nobody (never another user's),
 * - in one of the user's queues, or without a queue,
 * - not a group,
 * adds its ticket to the list (at the top) and raises a desktop notification with a sound, unless that ticket
 * is the one open on a visible page (the user is reading it). A ticket's `updateUnread` or `delete` removes it.
 */
import { signal } from '@preact/signals-react'
import type { TicketDto, TicketsPage } from '../../shared/api'
import type { CompanyEvents } from '../../shared/live'
import { api } from '../api/client'
import { defineLiveList, type LiveListOps, liveEvent } from './liveList'
import { currentUser } from './session'
import { belongsToViewer, type TicketViewer, viewerOf } from './tickets'

export type NotificationViewer = TicketViewer & { allTicket: string }

export function notificationViewerOf(
  user: {
    id: number
    profile: string
    super?: boolean
    allTicket?: string
    queues: { id: number }[]
  } | null,
): NotificationViewer | null {
  const viewer = viewerOf(user)
  return viewer && user ? { ...viewer, allTicket: user.allTicket ?? 'disable' } : null
}

/** The ticket the user has open, and whether the page is visible (the tickets screen keeps it up to date). */
export type Focus = { ticket: string | null; visible: boolean }

/** The ticket the tickets screen shows (its id or uuid from the route), or null. */
export const openTicketRef = signal<string | null>(null)

export function currentFocus(): Focus {
  const visible = typeof document === 'undefined' || document.visibilityState !== 'hidden'
  return { ticket: openTicketRef.peek(), visible }
}

/** Whether the route's ticket (id or uuid) is this ticket. */
export function isTicket(ref: string | null, ticket: Pick<TicketDto, 'id' | 'uuid'>): boolean {
  return ref != null && (ref === ticket.uuid || ref === String(ticket.id))
}

/** The ticket-level conditions: the ticket may be in the user's notification list. */
export function ticketNotifies(ticket: TicketDto, viewer: NotificationViewer): boolean {
  if (ticket.isGroup) return false
  if (ticket.status === 'closed') return false
  if (ticket.status === 'pending' && viewer.allTicket !== 'enable') return false
  if (!belongsToViewer(ticket, viewer)) return false
  return ticket.queueId == null || viewer.queueIds.includes(ticket.queueId)
}

/** Whether a message event adds its ticket to the list and alerts (desktop notification and sound). */
export function messageNotifies(
  data: CompanyEvents['appMessage'],
  viewer: NotificationViewer | null,
  focus: Focus,
): data is Extract<CompanyEvents['appMessage'], { action: 'create' }> {
  if (!viewer || data.action !== 'create' || !data.message || !data.ticket) return false
  const { message, ticket } = data
  if (message.fromMe || message.read || message.isPrivate) return false
  if (!ticketNotifies(ticket, viewer)) return false
  // The user is reading that very ticket.
  return !(focus.visible && isTicket(focus.ticket, ticket))
}

export function applyNotificationMessage(
  data: CompanyEvents['appMessage'],
  viewer: NotificationViewer | null,
  focus: Focus,
  ops: LiveListOps<TicketDto>,
): void {
  if (!messageNotifies(data, viewer, focus)) return
  ops.remove(data.ticket.id)
  ops.upsert(data.ticket)
}

export function applyNotificationTicket(
  data: CompanyEvents['ticket'],
  viewer: NotificationViewer | null,
  ops: LiveListOps<TicketDto>,
): void {
  if (data.action === 'updateUnread' || data.action === 'delete') {
    ops.remove(data.ticketId)
    return
  }
  if (data.action === 'update' && data.ticket && viewer) {
    const ticket = data.ticket
    // Read elsewhere, taken by another attendant, closed: it no longer waits for this user.
    if (ticket.unreadMessages <= 0 || !ticketNotifies(ticket, viewer)) ops.remove(ticket.id)
    else ops.patch(ticket.id, () => ticket)
  }
}

const notificationViewer = () => notificationViewerOf(currentUser.peek())

async function unreadOf(status: 'open' | 'pending', signal: AbortSignal): Promise<TicketDto[]> {
  const res = await api.get<TicketsPage>('/tickets', {
    query: { status, withUnreadMessages: 'true', showAll: 'false', pageNumber: 1 },
    signal,
  })
  return res.tickets ?? []
}

/** The bell's list: the user's tickets with unread messages, then kept live. */
export const unreadTicketsList = defineLiveList<TicketDto>({
  name: 'unread-tickets',
  id: (t) => t.id,
  fetchPage: async (_params, _page, signal) => {
    const viewer = notificationViewer()
    if (!viewer) return { items: [], hasMore: false }
    const [open, pending] = await Promise.all([
      unreadOf('open', signal),
      viewer.allTicket === 'enable' ? unreadOf('pending', signal) : Promise.resolve([]),
    ])
    const items = [...open, ...pending]
      .filter((t) => t.unreadMessages > 0 && ticketNotifies(t, viewer))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    return { items, hasMore: false }
  },
  events: [
    liveEvent('appMessage', (data, ops) =>
      applyNotificationMessage(data, notificationViewer(), currentFocus(), ops),
    ),
    liveEvent('ticket', (data, ops) => applyNotificationTicket(data, notificationViewer(), ops)),
  ],
})
