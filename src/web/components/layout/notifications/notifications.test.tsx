import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { TicketDto } from '../../../../shared/api'
import { dispatch, stopLive } from '../../../api/live'
import { makeMessage, makeTicket, queueRef } from '../../../pages/tickets/list/fixtures'
import { resetLiveLists } from '../../../state/liveList'
import { openTicketRef } from '../../../state/notifications'
import { makeUser, mockFetch, renderAt, resetState, signIn, sockets } from '../../../test/utils'
import { askDismissed, desktopPermission } from './desktop'
import { playNotificationSound, SOUND_GAP_MS } from './sound'
import { messagePreview } from './useUnreadAlerts'

type Shown = { title: string; options: NotificationOptions }
let shown: Shown[] = []

class FakeNotification {
  static permission: NotificationPermission = 'granted'
  static requestPermission = mock(async () => {
    FakeNotification.permission = 'granted'
    return 'granted' as NotificationPermission
  })
  onclick: (() => void) | null = null
  constructor(title: string, options: NotificationOptions) {
    shown.push({ title, options })
  }
  close() {}
}

const win = window as unknown as { Notification?: unknown }
const BRUNO = 3
const suporte = queueRef(10, 'Suporte')

function createdFrame(ticket: TicketDto, body = 'Oi, preciso de ajuda') {
  return JSON.stringify({
    event: 'company-7-appMessage',
    data: {
      action: 'create',
      ticket,
      contact: ticket.contact,
      message: makeMessage({ id: ticket.id * 100 + shown.length, ticketId: ticket.id, body }),
    },
  })
}

describe('unread notifications in the shell', () => {
  const waiting = makeTicket({
    id: 7,
    status: 'open',
    userId: BRUNO,
    queueId: 10,
    queue: suporte,
    unreadMessages: 2,
  })

  beforeEach(() => {
    resetState()
    resetLiveLists()
    sockets().length = 0
    shown = []
    win.Notification = FakeNotification
    FakeNotification.permission = 'granted'
    desktopPermission.value = 'granted'
    openTicketRef.value = null
    signIn(makeUser({ id: BRUNO, companyId: 7, profile: 'user', queues: [suporte] }))
  })
  afterEach(() => {
    stopLive()
    resetLiveLists()
    resetState()
    delete win.Notification
  })

  function serve(unread: TicketDto[]) {
    return mockFetch({
      'GET /api/tickets': (c) => ({
        body: {
          tickets: c.query.get('withUnreadMessages') === 'true' ? unread : [],
          count: 0,
          hasMore: false,
        },
      }),
      'GET /api/tickets/counts': () => ({
        body: { open: { assigned: 0, pending: 0 }, groups: { assigned: 0, pending: 0 } },
      }),
    })
  }

  test('the bell counts the unread tickets and lists them; a click goes to the ticket', async () => {
    const calls = serve([waiting])
    renderAt('/tags')
    const bell = await screen.findByRole('button', { name: 'Notificações: 1 conversa não lida' })
    const unreadCall = calls.find((c) => c.query.get('withUnreadMessages') === 'true')!
    expect(unreadCall.query.get('status')).toBe('open')
    await userEvent.click(bell)
    const list = await screen.findByRole('list', { name: 'Notificações' })
    const entry = within(list).getByRole('link')
    expect(entry).toHaveAttribute('href', `/tickets/${waiting.uuid}`)
    expect(within(entry).getByText(waiting.contact.name)).toBeInTheDocument()
    expect(within(entry).getByText('2')).toBeInTheDocument()
  })

  test('a new customer message adds the ticket, shows a desktop notification; updateUnread removes it', async () => {
    serve([])
    renderAt('/tags')
    await screen.findByRole('button', { name: 'Notificações' })
    act(() => dispatch(createdFrame(waiting, 'Ainda estou esperando')))
    expect(screen.getByRole('button', { name: 'Notificações: 1 conversa não lida' })).toBeInTheDocument()
    expect(shown).toEqual([
      {
        title: waiting.contact.name,
        options: { body: 'Ainda estou esperando', icon: undefined, tag: `ticket-${waiting.id}` },
      },
    ])
    act(() =>
      dispatch(JSON.stringify({ event: 'company-7-ticket', data: { action: 'updateUnread', ticketId: 7 } })),
    )
    expect(screen.getByRole('button', { name: 'Notificações' })).toBeInTheDocument()
  })

  test("no notification for the ticket being read, another user's ticket, a group, or a pending one", async () => {
    serve([])
    renderAt('/tags')
    await screen.findByRole('button', { name: 'Notificações' })
    openTicketRef.value = waiting.uuid
    act(() => dispatch(createdFrame(waiting)))
    act(() => dispatch(createdFrame(makeTicket({ id: 8, userId: 99, queueId: 10 }))))
    act(() => dispatch(createdFrame(makeTicket({ id: 9, userId: BRUNO, queueId: 10, isGroup: true }))))
    act(() => dispatch(createdFrame(makeTicket({ id: 10, status: 'pending', queueId: 10 }))))
    expect(shown).toEqual([])
    expect(screen.getByRole('button', { name: 'Notificações' })).toBeInTheDocument()
  })

  test('desktop notifications are offered once, politely: Ativar asks the browser and the offer is not shown again', async () => {
    FakeNotification.permission = 'default'
    desktopPermission.value = 'default'
    askDismissed.value = false
    serve([])
    mockFetch({
      'GET /api/tickets': () => ({ body: { tickets: [], count: 0, hasMore: false } }),
      'GET /api/tickets/counts': () => ({
        body: { open: { assigned: 0, pending: 0 }, groups: { assigned: 0, pending: 0 } },
      }),
    })
    const { unmount } = renderAt('/tickets')
    const offer = await screen.findByRole('region', { name: 'Avisos na área de trabalho' })
    await userEvent.click(within(offer).getByRole('button', { name: 'Ativar' }))
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1)
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Avisos na área de trabalho' })).toBeNull(),
    )
    expect(localStorage.getItem('notificationsAsked')).toBe('1')
    unmount()
  })

  test('a message without text is described by its kind', () => {
    expect(messagePreview({ body: '', mediaType: 'image', isDeleted: false })).toBe('Foto')
    expect(messagePreview({ body: '  ', mediaType: 'audio', isDeleted: false })).toBe('Áudio')
    expect(messagePreview({ body: '', mediaType: 'sticker', isDeleted: false })).toBe('Nova mensagem')
    expect(messagePreview({ body: 'Oi', mediaType: 'chat', isDeleted: false })).toBe('Oi')
  })
})

describe('the chime', () => {
  afterEach(() => {
    delete (globalThis as { AudioContext?: unknown }).AudioContext
  })

  test('plays at the top bar volume, not at 0, and once for a burst', () => {
    const gains: number[] = []
    const started: number[] = []
    class FakeAudio {
      state = 'running'
      currentTime = 0
      destination = {}
      createGain() {
        const g = {
          gain: {
            value: 1,
            setValueAtTime: () => {},
            exponentialRampToValueAtTime: () => {},
          },
          connect: () => {},
        }
        queueMicrotask(() => gains.push(g.gain.value))
        return g
      }
      createOscillator() {
        return {
          type: '',
          frequency: { value: 0 },
          connect: () => {},
          start: (t: number) => started.push(t),
          stop: () => {},
        }
      }
    }
    ;(globalThis as { AudioContext?: unknown }).AudioContext = FakeAudio
    const t0 = 1_000_000
    expect(playNotificationSound(0, t0)).toBe(false)
    expect(playNotificationSound(0.5, t0)).toBe(true)
    expect(started).toHaveLength(2)
    expect(playNotificationSound(1, t0 + SOUND_GAP_MS - 1)).toBe(false)
    expect(playNotificationSound(1, t0 + SOUND_GAP_MS)).toBe(true)
    return Promise.resolve().then(() => expect(gains[0]).toBeCloseTo(0.175))
  })
})
