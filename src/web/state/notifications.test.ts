import { describe, expect, test } from 'bun:test'
import type { TicketDto } from '../../shared/api'
import type { CompanyEvents } from '../../shared/live'
import { makeMessage, makeTicket } from '../pages/tickets/list/fixtures'
import { LiveList } from './liveList'
import {
  applyNotificationMessage,
  applyNotificationTicket,
  type Focus,
  isTicket,
  messageNotifies,
  type NotificationViewer,
  notificationViewerOf,
  unreadTicketsList,
} from './notifications'

const ME = 1
const me: NotificationViewer = { id: ME, profile: 'user', queueIds: [10], allTicket: 'disable' }
const away: Focus = { ticket: null, visible: true }

function incoming(
  ticket: Partial<TicketDto> = {},
  message: Partial<Parameters<typeof makeMessage>[0]> = {},
): CompanyEvents['appMessage'] {
  const t = makeTicket({ id: 5, status: 'open', userId: ME, queueId: 10, unreadMessages: 1, ...ticket })
  return {
    action: 'create',
    ticket: t,
    contact: t.contact,
    message: makeMessage({ id: 50, ticketId: t.id, fromMe: false, read: false, ...message }),
  }
}

describe('unread notifications: which messages', () => {
  test('a customer message on my open ticket of my queue', () => {
    expect(messageNotifies(incoming(), me, away)).toBe(true)
  })

  test('on an unassigned ticket, and on a ticket without a queue', () => {
    expect(messageNotifies(incoming({ userId: null }), me, away)).toBe(true)
    expect(messageNotifies(incoming({ queueId: null }), me, away)).toBe(true)
  })

  test('not my messages, not read ones, not private notes', () => {
    expect(messageNotifies(incoming({}, { fromMe: true }), me, away)).toBe(false)
    expect(messageNotifies(incoming({}, { read: true }), me, away)).toBe(false)
    expect(messageNotifies(incoming({}, { isPrivate: true }), me, away)).toBe(false)
  })

  test("not another user's ticket, not another queue, not a group", () => {
    expect(messageNotifies(incoming({ userId: 2 }), me, away)).toBe(false)
    expect(messageNotifies(incoming({ queueId: 11 }), me, away)).toBe(false)
    expect(messageNotifies(incoming({ isGroup: true }), me, away)).toBe(false)
  })

  test("pending tickets only for a user whose allTicket is 'enable'", () => {
    const pending = incoming({ status: 'pending', userId: null })
    expect(messageNotifies(pending, me, away)).toBe(false)
    expect(messageNotifies(pending, { ...me, allTicket: 'enable' }, away)).toBe(true)
  })

  test('not the ticket open on a visible page; yes when the page is hidden or another ticket is open', () => {
    const event = incoming()
    if (event.action !== 'create') throw new Error('fixture')
    expect(messageNotifies(event, me, { ticket: event.ticket.uuid, visible: true })).toBe(false)
    expect(messageNotifies(event, me, { ticket: String(event.ticket.id), visible: true })).toBe(false)
    expect(messageNotifies(event, me, { ticket: event.ticket.uuid, visible: false })).toBe(true)
    expect(messageNotifies(event, me, { ticket: 'other', visible: true })).toBe(true)
  })

  test('message updates and a signed-out user never notify', () => {
    expect(
      messageNotifies({ action: 'update', message: makeMessage({ id: 1, ticketId: 5 }) }, me, away),
    ).toBe(false)
    expect(messageNotifies(incoming(), null, away)).toBe(false)
  })

  test('the viewer comes from the session user', () => {
    expect(notificationViewerOf(null)).toBeNull()
    expect(isTicket(null, makeTicket({ id: 1 }))).toBe(false)
  })
})

describe('unread notifications: the list', () => {
  const store = (rows: TicketDto[] = []) => {
    const list = new LiveList<TicketDto, undefined>('n', unreadTicketsList, 7, undefined)
    list.state.value = { ...list.state.value, items: rows, loading: false }
    return list
  }
  const ids = (list: LiveList<TicketDto, undefined>) => list.state.value.items.map((t) => t.id)

  test('a notifying message adds its ticket at the top (once)', () => {
    const list = store([makeTicket({ id: 1, userId: ME, unreadMessages: 1 })])
    applyNotificationMessage(incoming(), me, away, list)
    applyNotificationMessage(incoming({ unreadMessages: 2 }), me, away, list)
    expect(ids(list)).toEqual([5, 1])
    expect(list.state.value.items[0]?.unreadMessages).toBe(2)
    applyNotificationMessage(incoming({ id: 6, isGroup: true }), me, away, list)
    expect(ids(list)).toEqual([5, 1])
  })

  test('updateUnread and delete remove the entry', () => {
    const list = store([
      makeTicket({ id: 1, userId: ME, unreadMessages: 1 }),
      makeTicket({ id: 2, userId: ME, unreadMessages: 1 }),
    ])
    applyNotificationTicket({ action: 'updateUnread', ticketId: 1 }, me, list)
    applyNotificationTicket({ action: 'delete', ticketId: 2 }, me, list)
    expect(ids(list)).toEqual([])
  })

  test('an update that shows the ticket read, or taken by another user, removes it; otherwise refreshes it', () => {
    const list = store([
      makeTicket({ id: 1, userId: ME, queueId: 10, unreadMessages: 1 }),
      makeTicket({ id: 2, userId: ME, queueId: 10, unreadMessages: 1 }),
      makeTicket({ id: 3, userId: ME, queueId: 10, unreadMessages: 1 }),
    ])
    applyNotificationTicket(
      { action: 'update', ticket: makeTicket({ id: 1, userId: ME, queueId: 10, unreadMessages: 0 }) },
      me,
      list,
    )
    applyNotificationTicket(
      { action: 'update', ticket: makeTicket({ id: 2, userId: 9, queueId: 10, unreadMessages: 1 }) },
      me,
      list,
    )
    applyNotificationTicket(
      { action: 'update', ticket: makeTicket({ id: 3, userId: ME, queueId: 10, unreadMessages: 4 }) },
      me,
      list,
    )
    expect(ids(list)).toEqual([3])
    expect(list.state.value.items[0]?.unreadMessages).toBe(4)
  })
})
