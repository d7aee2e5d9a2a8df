import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, screen, within } from '@testing-library/react'
import { dispatch, stopLive } from '../../api/live'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { makeConnection } from './fixtures'

describe("the '!' badge on the Conexões menu item", () => {
  beforeEach(resetState)
  afterEach(() => {
    stopLive()
    resetState()
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

  test('the shell and the connections page share one list: one request, one state', async () => {
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({
        body: [makeConnection({ id: 1, name: 'Loja', status: 'DISCONNECTED' })],
      }),
    })
    signIn(makeUser({ profile: 'admin', companyId: 7 }))
    renderAt('/connections')
    expect(await screen.findByText('Loja')).toBeInTheDocument()
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' })
    await within(nav).findByTestId('menu-badge', {}, { timeout: 3500 })
    expect(calls.filter((c) => c.path === '/api/whatsapp')).toHaveLength(1)
    // One frame updates the page's row and the shell's badge together.
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
    expect(screen.getByTestId('status-pill')).toHaveTextContent('Conectado')
    expect(within(nav).queryByTestId('menu-badge')).toBeNull()
  }, 10_000)
})
