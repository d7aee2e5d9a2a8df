import { afterEach, beforeEach, describe, expect, jest, test } from 'bun:test'
import { act, renderHook, screen, within } from '@testing-library/react'
import { dispatch, stopLive } from '../../api/live'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { BADGE_DELAY, useConnectionsBadge } from './badge'
import { makeConnection } from './fixtures'
import { connections, resetConnectionsStore } from './store'

describe('useConnectionsBadge', () => {
  beforeEach(() => {
    resetConnectionsStore()
    jest.useFakeTimers()
  })
  afterEach(() => {
    jest.useRealTimers()
    resetConnectionsStore()
  })

  test('appears 2 s after a connection is not connected, and goes at once when all are connected', () => {
    expect(BADGE_DELAY).toBe(2000)
    const { result } = renderHook(() => useConnectionsBadge())
    expect(result.current).toBe(false) // nothing loaded yet

    act(() => {
      connections.value = [makeConnection({ id: 1, status: 'CONNECTED' })]
    })
    act(() => jest.advanceTimersByTime(5000))
    expect(result.current).toBe(false)

    act(() => {
      connections.value = [
        makeConnection({ id: 1, status: 'CONNECTED' }),
        makeConnection({ id: 2, status: 'DISCONNECTED' }),
      ]
    })
    act(() => jest.advanceTimersByTime(1999))
    expect(result.current).toBe(false)
    act(() => jest.advanceTimersByTime(1))
    expect(result.current).toBe(true)

    act(() => {
      connections.value = [
        makeConnection({ id: 1, status: 'CONNECTED' }),
        makeConnection({ id: 2, status: 'CONNECTED' }),
      ]
    })
    expect(result.current).toBe(false)

    // Back to not connected: the 2 s start again.
    act(() => {
      connections.value = [makeConnection({ id: 2, status: 'qrcode' })]
    })
    act(() => jest.advanceTimersByTime(1500))
    expect(result.current).toBe(false)
    act(() => jest.advanceTimersByTime(500))
    expect(result.current).toBe(true)
  })
})

describe("the '!' badge on the Conexões menu item", () => {
  beforeEach(() => {
    resetState()
    resetConnectionsStore()
  })
  afterEach(() => {
    stopLive()
    resetState()
    resetConnectionsStore()
  })

  test('the shell loads the list once for admins and follows it live', async () => {
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({ body: [makeConnection({ id: 1, status: 'DISCONNECTED' })] }),
    })
    signIn(makeUser({ profile: 'admin', companyId: 7 }))
    renderAt('/tickets')
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' })
    expect(within(nav).getByRole('link', { name: /Conexões/ })).toHaveAttribute('href', '/connections')
    expect(within(nav).queryByTestId('menu-badge')).toBeNull()
    await within(nav).findByTestId('menu-badge', {}, { timeout: 3500 })
    expect(within(nav).getByRole('link', { name: /Conexões \(Há conexões/ })).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/whatsapp')).toHaveLength(1)

    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-whatsappSession',
          data: {
            action: 'update',
            session: { id: 1, status: 'CONNECTED', qrcode: '', retries: 0, number: '5511', updatedAt: '' },
          },
        }),
      ),
    )
    expect(within(nav).queryByTestId('menu-badge')).toBeNull()
  }, 10_000)

  test('attendants neither see the item nor load connections', () => {
    const calls = mockFetch({})
    signIn(makeUser({ profile: 'user' }))
    renderAt('/tickets')
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' })
    expect(within(nav).queryByRole('link', { name: /Conexões/ })).toBeNull()
    expect(calls.filter((c) => c.path === '/api/whatsapp')).toHaveLength(0)
  })
})
