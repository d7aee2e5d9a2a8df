import { afterEach, beforeEach, describe, expect, jest, mock, test } from 'bun:test'
import { act, screen } from '@testing-library/react'
import { makeUser, mockFetch, renderAt, resetState, signIn, sockets, TEST_TOKEN } from '../test/utils'
import {
  dispatch,
  liveChannel,
  liveReconnecting,
  onReconnect,
  sendLive,
  startLive,
  stopLive,
  subscribe,
} from './live'

describe('live socket', () => {
  beforeEach(() => {
    resetState()
    sockets().length = 0
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  test('frames reach the subscribers of their event only, until they unsubscribe', () => {
    const users = mock(() => {})
    const queues = mock(() => {})
    const off = subscribe('company-1-user', users)
    subscribe('company-1-queue', queues)
    dispatch(JSON.stringify({ event: 'company-1-user', data: { action: 'delete', userId: 3 } }))
    dispatch('not json')
    expect(users).toHaveBeenCalledWith({ action: 'delete', userId: 3 })
    expect(queues).not.toHaveBeenCalled()
    off()
    dispatch(JSON.stringify({ event: 'company-1-user', data: {} }))
    expect(users).toHaveBeenCalledTimes(1)
  })

  test('the event name types the payload; client frames are typed too', async () => {
    const seen: number[] = []
    const off = subscribe(liveChannel(1, 'queue'), (data) => {
      if (data.action === 'delete') seen.push(data.queueId)
    })
    dispatch(JSON.stringify({ event: 'company-1-queue', data: { action: 'delete', queueId: 9 } }))
    expect(seen).toEqual([9])
    off()

    localStorage.setItem('token', TEST_TOKEN)
    startLive()
    await Promise.resolve()
    const ws = sockets().at(-1)!
    ws.open()
    sendLive('joinChatBox', 42)
    sendLive('leaveChatBox', 42)
    expect(ws.sent).toEqual([
      JSON.stringify({ event: 'userStatus' }),
      JSON.stringify({ event: 'joinChatBox', data: 42 }),
      JSON.stringify({ event: 'leaveChatBox', data: 42 }),
    ])

    // Checked by `tsc`, never run: each line below must stay an error.
    const compileOnly = () => {
      // @ts-expect-error a queue event has no userId
      subscribe(liveChannel(1, 'queue'), (data) => data.action === 'delete' && data.userId)
      // @ts-expect-error joinChatBox needs the ticket id
      sendLive('joinChatBox')
      // @ts-expect-error userStatus carries no data
      sendLive('userStatus', 1)
      // @ts-expect-error not a client frame
      sendLive('ping')
    }
    expect(typeof compileOnly).toBe('function')
  })

  test('connects with the token, and after a drop reconnects with backoff and calls onReconnect', async () => {
    jest.useFakeTimers()
    try {
      localStorage.setItem('token', TEST_TOKEN)
      const reconnected = mock(() => {})
      const off = onReconnect(reconnected)
      startLive()
      await Promise.resolve()
      expect(sockets()).toHaveLength(1)
      expect(sockets()[0]!.url).toBe(`ws://localhost/api/ws?token=${encodeURIComponent(TEST_TOKEN)}`)
      sockets()[0]!.open()
      expect(sockets()[0]!.sent).toContain(JSON.stringify({ event: 'userStatus' }))
      expect(reconnected).not.toHaveBeenCalled()

      sockets()[0]!.close()
      expect(liveReconnecting.value).toBe(true)
      jest.advanceTimersByTime(2000)
      await Promise.resolve()
      expect(sockets()).toHaveLength(2)
      sockets()[1]!.open()
      expect(reconnected).toHaveBeenCalledTimes(1)
      expect(liveReconnecting.value).toBe(false)
      off()
    } finally {
      jest.useRealTimers()
    }
  })

  test('"signed in elsewhere": another session of the same user shows the message and clears storage', async () => {
    mockFetch({})
    signIn(makeUser({ id: 1, companyId: 7 }))
    renderAt('/tickets')
    await act(async () => {
      await Promise.resolve()
    })
    const ws = sockets().at(-1)!
    act(() => ws.open())
    // Our own session (sid s1) is ignored...
    act(() =>
      ws.receive({ event: 'company-7-auth', data: { action: 'update', user: { id: 1 }, sessionId: 's1' } }),
    )
    expect(screen.queryByText('Sua conta foi acessada em outro computador.')).not.toBeInTheDocument()
    // ...another user too...
    act(() =>
      ws.receive({ event: 'company-7-auth', data: { action: 'update', user: { id: 2 }, sessionId: 'zz' } }),
    )
    expect(localStorage.getItem('token')).toBe(TEST_TOKEN)
    // ...but a new session of ours elsewhere logs this one out.
    act(() =>
      ws.receive({ event: 'company-7-auth', data: { action: 'update', user: { id: 1 }, sessionId: 's2' } }),
    )
    expect(await screen.findByText('Sua conta foi acessada em outro computador.')).toBeInTheDocument()
    expect(localStorage.getItem('token')).toBeNull()
  })
})
