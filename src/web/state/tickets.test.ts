import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { TicketDto } from '../../shared/api'
import type { CompanyEvents } from '../../shared/live'
import { dispatch, startLive, stopLive } from '../api/live'
import { makeMessage, makeTicket, queueRef } from '../pages/tickets/list/fixtures'
import { makeUser, mockFetch, resetState, signIn, sockets } from '../test/utils'
import { LiveList, resetLiveLists, useLiveList } from './liveList'
import {
  applyContactEvent,
  applyMessageEvent,
  applyTagEvent,
  applyTicketEvent,
  initialShowAll,
  mergeTicketPage,
  readHiddenQueues,
  selectedQueueIds,
  type TicketListParams,
  type TicketViewer,
  ticketFitsList,
  ticketListParams,
  ticketsList,
  ticketsQuery,
  writeHiddenQueues,
} from './tickets'

const ME = 1
const OTHER = 2
const admin: TicketViewer = { id: ME, profile: 'admin', queueIds: [] }
const attendant: TicketViewer = { id: ME, profile: 'user', queueIds: [10, 11] }

/** A real live-list store (no server): the rules run against the same operations the page uses. */
function store(params: TicketListParams, rows: TicketDto[] = [], hasMore = false) {
  const list = new LiveList<TicketDto, TicketListParams>('t', ticketsList, 7, params)
  list.state.value = { ...list.state.value, items: rows, count: rows.length, loading: false, hasMore }
  return list
}
const ids = (list: LiveList<TicketDto, TicketListParams>) => list.state.value.items.map((t) => t.id)
const row = (list: LiveList<TicketDto, TicketListParams>, id: number) =>
  list.state.value.items.find((t) => t.id === id)

const openMine = ticketListParams({ kind: 'open', showAll: false, queueIds: [10, 11] })
const openAll = ticketListParams({ kind: 'open', showAll: true, queueIds: [10, 11] })
const pendingList = ticketListParams({ kind: 'pending', showAll: false, queueIds: [10, 11] })
const groupsPending = ticketListParams({ kind: 'pending', groups: true, showAll: false, queueIds: [10, 11] })
const closedList = ticketListParams({ kind: 'closed', showAll: false, queueIds: [10, 11] })
const searchList = ticketListParams({ kind: 'search', showAll: false, queueIds: [10], search: ' ana ' })

const update = (ticket: TicketDto): CompanyEvents['ticket'] => ({ action: 'update', ticket })
const created = (ticket: TicketDto, fromMe = false): CompanyEvents['appMessage'] => ({
  action: 'create',
  ticket,
  contact: ticket.contact,
  message: makeMessage({ id: ticket.id * 10, ticketId: ticket.id, fromMe }),
})

describe('list params', () => {
  test('closed and search always show all tickets and every kind; open/pending keep show-all and groups', () => {
    expect(closedList).toEqual({
      kind: 'closed',
      groups: null,
      showAll: true,
      queueIds: [10, 11],
      search: '',
    })
    expect(searchList).toMatchObject({ kind: 'search', groups: null, showAll: true, search: 'ana' })
    expect(openMine).toMatchObject({ kind: 'open', groups: false, showAll: false })
    expect(groupsPending).toMatchObject({ kind: 'pending', groups: true })
    // The same selection in another order is the same list (one store).
    expect(ticketListParams({ kind: 'open', showAll: true, queueIds: [11, 10, 11] }).queueIds).toEqual([
      10, 11,
    ])
  })

  test('the query: status, JSON queue list, show-all, groups and search', () => {
    expect(ticketsQuery(groupsPending, 2)).toEqual({
      pageNumber: 2,
      status: 'pending',
      searchParam: undefined,
      showAll: 'false',
      queueIds: '[10,11]',
      isGroup: 'true',
    })
    expect(ticketsQuery(searchList, 1)).toMatchObject({
      status: undefined,
      searchParam: 'ana',
      isGroup: undefined,
    })
  })

  test('show-all starts on for admins, or for an attendant with allUserChat enabled', () => {
    expect(initialShowAll(makeUser({ profile: 'admin' }))).toBe(true)
    expect(initialShowAll(makeUser({ profile: 'user', allUserChat: 'enabled' }))).toBe(true)
    expect(initialShowAll(makeUser({ profile: 'user', allUserChat: 'disabled' }))).toBe(false)
    expect(initialShowAll(null)).toBe(false)
  })
})

describe('ticket update events', () => {
  test('a new ticket of the user is added at the top', () => {
    const list = store(openMine, [makeTicket({ id: 1, userId: ME, queueId: 10 })])
    applyTicketEvent(update(makeTicket({ id: 2, userId: ME, queueId: 10 })), openMine, attendant, list)
    expect(ids(list)).toEqual([2, 1])
    expect(list.state.value.count).toBe(2)
  })

  test('a known ticket is replaced where it is (an update does not reorder)', () => {
    const list = store(openMine, [
      makeTicket({ id: 1, userId: ME, queueId: 10 }),
      makeTicket({ id: 2, userId: ME, queueId: 10 }),
    ])
    applyTicketEvent(
      update(makeTicket({ id: 2, userId: ME, queueId: 10, lastMessage: 'novo' })),
      openMine,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([1, 2])
    expect(row(list, 2)?.lastMessage).toBe('novo')
  })

  test("another user's ticket is left out with show-all off, and shown with show-all on", () => {
    const theirs = makeTicket({ id: 5, userId: OTHER, queueId: 10 })
    const mine = store(openMine)
    applyTicketEvent(update(theirs), openMine, attendant, mine)
    expect(ids(mine)).toEqual([])
    const all = store(openAll)
    applyTicketEvent(update(theirs), openAll, attendant, all)
    expect(ids(all)).toEqual([5])
  })

  test('an unassigned ticket belongs to everyone (the pending list)', () => {
    const list = store(pendingList)
    applyTicketEvent(
      update(makeTicket({ id: 3, status: 'pending', queueId: 11 })),
      pendingList,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([3])
  })

  test('a ticket without a queue passes the queue filter', () => {
    const list = store(pendingList)
    applyTicketEvent(
      update(makeTicket({ id: 3, status: 'pending', queueId: null })),
      pendingList,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([3])
  })

  test('an update for a non-selected queue removes the ticket (and never adds it)', () => {
    const list = store(openAll, [makeTicket({ id: 1, userId: ME, queueId: 10 })])
    applyTicketEvent(update(makeTicket({ id: 1, userId: ME, queueId: 12 })), openAll, attendant, list)
    expect(ids(list)).toEqual([])
    expect(list.state.value.count).toBe(0)
    applyTicketEvent(update(makeTicket({ id: 9, userId: ME, queueId: 12 })), openAll, attendant, list)
    expect(ids(list)).toEqual([])
  })

  test('a ticket that changed status leaves the list and joins the other one', () => {
    const waiting = makeTicket({ id: 4, status: 'pending', queueId: 10 })
    const pending = store(pendingList, [waiting])
    const open = store(openMine)
    const accepted = makeTicket({ ...waiting, id: 4, status: 'open', userId: ME })
    applyTicketEvent(update(accepted), pendingList, attendant, pending)
    applyTicketEvent(update(accepted), openMine, attendant, open)
    expect(ids(pending)).toEqual([])
    expect(ids(open)).toEqual([4])
  })

  test('a ticket taken by another user leaves "mine" when show-all is off', () => {
    const list = store(openMine, [makeTicket({ id: 1, userId: ME, queueId: 10 })])
    applyTicketEvent(update(makeTicket({ id: 1, userId: OTHER, queueId: 10 })), openMine, attendant, list)
    expect(ids(list)).toEqual([])
  })

  test('groups only in the groups tab; others only in the normal lists', () => {
    const group = makeTicket({ id: 6, status: 'pending', isGroup: true, queueId: 10 })
    const single = makeTicket({ id: 7, status: 'pending', queueId: 10 })
    const normal = store(pendingList)
    const groups = store(groupsPending)
    for (const t of [group, single]) {
      applyTicketEvent(update(t), pendingList, attendant, normal)
      applyTicketEvent(update(t), groupsPending, attendant, groups)
    }
    expect(ids(normal)).toEqual([7])
    expect(ids(groups)).toEqual([6])
  })

  test("closed tab shows everyone's closed tickets to an admin; an attendant without allHistoric only their own", () => {
    const theirs = makeTicket({ id: 8, status: 'closed', userId: OTHER, queueId: 10 })
    const adminList = store(closedList)
    applyTicketEvent(update(theirs), closedList, admin, adminList)
    expect(ids(adminList)).toEqual([8])
    const userList = store(closedList)
    applyTicketEvent(update(theirs), closedList, attendant, userList)
    expect(ids(userList)).toEqual([])
    applyTicketEvent(update(theirs), closedList, { ...attendant, allHistoric: 'enabled' }, userList)
    expect(ids(userList)).toEqual([8])
  })

  test('delete removes the ticket; updateUnread zeroes its unread count', () => {
    const list = store(openMine, [
      makeTicket({ id: 1, userId: ME, unreadMessages: 3 }),
      makeTicket({ id: 2, userId: ME }),
    ])
    applyTicketEvent({ action: 'updateUnread', ticketId: 1 }, openMine, attendant, list)
    expect(row(list, 1)?.unreadMessages).toBe(0)
    expect(ids(list)).toEqual([1, 2])
    applyTicketEvent({ action: 'delete', ticketId: 2 }, openMine, attendant, list)
    expect(ids(list)).toEqual([1])
    expect(list.state.value.count).toBe(1)
  })

  test('the search tab refreshes its rows in place and never gains one', () => {
    const list = store(searchList, [makeTicket({ id: 1, queueId: 10 }), makeTicket({ id: 2, queueId: 10 })])
    applyTicketEvent(
      update(makeTicket({ id: 2, queueId: 10, status: 'closed', lastMessage: 'fim' })),
      searchList,
      attendant,
      list,
    )
    applyTicketEvent(update(makeTicket({ id: 3, queueId: 10 })), searchList, attendant, list)
    applyMessageEvent(created(makeTicket({ id: 4, queueId: 10 })), searchList, attendant, list)
    expect(ids(list)).toEqual([1, 2])
    expect(row(list, 2)?.lastMessage).toBe('fim')
    applyTicketEvent({ action: 'delete', ticketId: 1 }, searchList, attendant, list)
    expect(ids(list)).toEqual([2])
  })
})

describe('new-message events', () => {
  test('move the ticket to the top, with its new unread count and last message', () => {
    const list = store(openMine, [
      makeTicket({ id: 1, userId: ME, queueId: 10 }),
      makeTicket({ id: 2, userId: ME, queueId: 10 }),
    ])
    applyMessageEvent(
      created(makeTicket({ id: 2, userId: ME, queueId: 10, unreadMessages: 1, lastMessage: 'oi' })),
      openMine,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([2, 1])
    expect(row(list, 2)).toMatchObject({ unreadMessages: 1, lastMessage: 'oi' })
    expect(list.state.value.count).toBe(2)
  })

  test('add a ticket not loaded yet, at the top', () => {
    const list = store(pendingList, [makeTicket({ id: 1, status: 'pending', queueId: 10 })])
    applyMessageEvent(
      created(makeTicket({ id: 9, status: 'pending', queueId: 11, unreadMessages: 1 })),
      pendingList,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([9, 1])
    expect(list.state.value.count).toBe(2)
  })

  test('our own messages move the ticket too', () => {
    const list = store(openMine, [makeTicket({ id: 1, userId: ME }), makeTicket({ id: 2, userId: ME })])
    applyMessageEvent(created(makeTicket({ id: 2, userId: ME }), true), openMine, admin, list)
    expect(ids(list)).toEqual([2, 1])
  })

  test("a profile 'user' only hears tickets of their own queues (not other queues, not no-queue)", () => {
    const params = ticketListParams({ kind: 'pending', showAll: false, queueIds: [10, 11, 12] })
    const list = store(params)
    applyMessageEvent(created(makeTicket({ id: 1, status: 'pending', queueId: 12 })), params, attendant, list)
    applyMessageEvent(
      created(makeTicket({ id: 2, status: 'pending', queueId: null })),
      params,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([])
    applyMessageEvent(created(makeTicket({ id: 3, status: 'pending', queueId: 11 })), params, attendant, list)
    expect(ids(list)).toEqual([3])
  })

  test('an admin hears every queue and tickets without a queue', () => {
    const params = ticketListParams({ kind: 'pending', showAll: true, queueIds: [10, 12] })
    const list = store(params)
    applyMessageEvent(created(makeTicket({ id: 1, status: 'pending', queueId: 12 })), params, admin, list)
    applyMessageEvent(created(makeTicket({ id: 2, status: 'pending', queueId: null })), params, admin, list)
    expect(ids(list)).toEqual([2, 1])
  })

  test('are ignored when the list would not show the ticket', () => {
    const list = store(openMine, [makeTicket({ id: 1, userId: ME, queueId: 10 })])
    applyMessageEvent(created(makeTicket({ id: 5, userId: OTHER, queueId: 10 })), openMine, attendant, list)
    applyMessageEvent(
      created(makeTicket({ id: 6, status: 'pending', queueId: 10 })),
      openMine,
      attendant,
      list,
    )
    applyMessageEvent(
      created(makeTicket({ id: 7, userId: ME, isGroup: true, queueId: 10 })),
      openMine,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([1])
  })

  test('message updates (acks, edits) change nothing in the list', () => {
    const list = store(openMine, [makeTicket({ id: 1, userId: ME }), makeTicket({ id: 2, userId: ME })])
    applyMessageEvent(
      { action: 'update', message: makeMessage({ id: 5, ticketId: 2 }) },
      openMine,
      attendant,
      list,
    )
    expect(ids(list)).toEqual([1, 2])
  })
})

describe('contact and tag events', () => {
  test('a contact update refreshes the contact on every ticket of theirs', () => {
    const a = makeTicket({ id: 1, userId: ME })
    const b = makeTicket({ id: 2, userId: ME, contactId: a.contactId, contact: a.contact })
    const c = makeTicket({ id: 3, userId: ME })
    const list = store(openMine, [a, b, c])
    const before = row(list, 3)
    applyContactEvent(
      {
        action: 'update',
        contact: {
          id: a.contactId,
          uuid: 'u',
          name: 'Ana Nova',
          number: '5511888887777',
          email: 'ana@x.com',
          profilePicUrl: '/p.jpg',
          isGroup: false,
          disableBot: false,
          lgpdConsent: null,
          lgpdConsentAt: null,
          whatsappId: 1,
          companyId: 7,
          extraInfo: [],
          tags: [],
          createdAt: '',
          updatedAt: '',
        },
      },
      list,
    )
    expect(row(list, 1)?.contact).toMatchObject({
      name: 'Ana Nova',
      number: '5511888887777',
      profilePicUrl: '/p.jpg',
    })
    expect(row(list, 2)?.contact.name).toBe('Ana Nova')
    expect(row(list, 3)).toBe(before as TicketDto)
  })

  test('a renamed tag follows on its tickets; a deleted one leaves them', () => {
    const tag = { id: 4, name: 'VIP', color: '#f00' }
    const list = store(openMine, [
      makeTicket({ id: 1, userId: ME, tags: [tag] }),
      makeTicket({ id: 2, userId: ME }),
    ])
    applyTagEvent(
      {
        action: 'update',
        tag: { ...tag, name: 'Ouro', color: '#fc0', kanban: 0, companyId: 7, createdAt: '', updatedAt: '' },
      },
      list,
    )
    expect(row(list, 1)?.tags).toEqual([{ id: 4, name: 'Ouro', color: '#fc0' }])
    applyTagEvent({ action: 'delete', tagId: 4 }, list)
    expect(row(list, 1)?.tags).toEqual([])
  })
})

describe('loaded tickets with unread messages move to the top', () => {
  test('the first page puts its unread tickets first, in the server order', () => {
    const page = [
      makeTicket({ id: 1 }),
      makeTicket({ id: 2, unreadMessages: 2 }),
      makeTicket({ id: 3 }),
      makeTicket({ id: 4, unreadMessages: 1 }),
    ]
    expect(mergeTicketPage([], page).map((t) => t.id)).toEqual([2, 4, 1, 3])
  })

  test("a later page's unread tickets go above the rows shown; its read ones below; known ones are replaced in place", () => {
    const shown = [makeTicket({ id: 1 }), makeTicket({ id: 2 })]
    const page = [
      makeTicket({ id: 2, lastMessage: 'again' }),
      makeTicket({ id: 3 }),
      makeTicket({ id: 4, unreadMessages: 5 }),
    ]
    const merged = mergeTicketPage(shown, page)
    expect(merged.map((t) => t.id)).toEqual([4, 1, 2, 3])
    expect(merged[2]?.lastMessage).toBe('again')
  })
})

describe('queue selection', () => {
  afterEach(() => localStorage.clear())

  test('is remembered per user as the queues hidden, so a new queue shows by default', () => {
    writeHiddenQueues(1, [11, 11])
    expect(readHiddenQueues(1)).toEqual([11])
    expect(readHiddenQueues(2)).toEqual([])
    expect(selectedQueueIds([10, 11, 12], readHiddenQueues(1))).toEqual([10, 12])
  })

  test('bad storage reads as nothing hidden', () => {
    localStorage.setItem('ticketsHiddenQueues:1', '{nope')
    expect(readHiddenQueues(1)).toEqual([])
  })

  test('fits: the queue filter, the owner and the status together', () => {
    expect(ticketFitsList(makeTicket({ id: 1, userId: ME, queueId: 11 }), openMine, attendant)).toBe(true)
    expect(ticketFitsList(makeTicket({ id: 1, userId: ME, queueId: 12 }), openMine, attendant)).toBe(false)
    expect(ticketFitsList(makeTicket({ id: 1, userId: ME, status: 'pending' }), openMine, attendant)).toBe(
      false,
    )
  })
})

describe('live tickets list over the socket', () => {
  const user = makeUser({ id: ME, profile: 'user', companyId: 7, queues: [queueRef(10), queueRef(11)] })
  let serverRows: TicketDto[] = []
  let calls: ReturnType<typeof mockFetch>

  beforeEach(() => {
    resetState()
    sockets().length = 0
    signIn(user)
    serverRows = [
      makeTicket({ id: 1, status: 'pending', queueId: 10 }),
      makeTicket({ id: 2, status: 'pending', queueId: 11 }),
    ]
    calls = mockFetch({
      'GET /api/tickets': () => ({ body: { tickets: serverRows, count: serverRows.length, hasMore: false } }),
    })
  })
  afterEach(() => {
    stopLive()
    resetLiveLists()
    resetState()
  })

  const frame = (name: string, data: unknown) =>
    act(() => dispatch(JSON.stringify({ event: `company-7-${name}`, data })))

  test('applies ticket and message frames, and fetches again after the socket reconnects', async () => {
    startLive()
    const socket = sockets().at(-1)
    act(() => socket?.open())
    const { result } = renderHook(() => useLiveList(ticketsList, pendingList))
    await waitFor(() => expect(result.current.items.map((t) => t.id)).toEqual([1, 2]))
    expect(calls[0]?.query.get('status')).toBe('pending')
    expect(calls[0]?.query.get('queueIds')).toBe('[10,11]')

    frame('appMessage', created(makeTicket({ id: 2, status: 'pending', queueId: 11, unreadMessages: 1 })))
    expect(result.current.items.map((t) => t.id)).toEqual([2, 1])
    frame('ticket', update(makeTicket({ id: 1, status: 'open', userId: ME, queueId: 10 })))
    expect(result.current.items.map((t) => t.id)).toEqual([2])

    // The socket drops and comes back: what is shown is fetched again.
    serverRows = [makeTicket({ id: 3, status: 'pending', queueId: 10 })]
    act(() => socket?.close())
    const next = () => sockets().at(-1)
    await waitFor(() => expect(next()).not.toBe(socket), { timeout: 3000 })
    act(() => next()?.open())
    await waitFor(() => expect(result.current.items.map((t) => t.id)).toEqual([3]))
  })
})
