import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { UserDto } from '../../../shared/api'
import { stopLive } from '../../api/live'
import { makeUser, mockFetch, renderAt, resetState, signIn, sockets } from '../../test/utils'

const people: UserDto[] = [
  makeUser({ id: 1, name: 'Ana Admin', email: 'ana@example.com' }),
  makeUser({
    id: 2,
    name: 'Bruno Silva',
    email: 'bruno@example.com',
    profile: 'user',
    startWork: '08:00',
    endWork: '18:00',
  }),
]

describe('UsersPage', () => {
  beforeEach(() => {
    resetState()
    sockets().length = 0
    signIn(makeUser({ id: 1, companyId: 7 }))
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  test('lists users with profile and work hours', async () => {
    mockFetch({ 'GET /api/users': () => ({ body: { users: people, count: 2, hasMore: false } }) })
    renderAt('/users')
    const table = await screen.findByRole('table', { name: 'Usuários' })
    const row = (await within(table).findByText('Bruno Silva')).closest('tr')!
    expect(within(row).getByText('bruno@example.com')).toBeInTheDocument()
    expect(within(row).getByText('Usuário')).toBeInTheDocument()
    expect(within(row).getByText('08:00')).toBeInTheDocument()
    expect(within(row).getByText('18:00')).toBeInTheDocument()
    expect(screen.getByText('2 usuários')).toBeInTheDocument()
  })

  test('search waits 500 ms after typing before asking the server', async () => {
    const calls = mockFetch({
      'GET /api/users': (c) => ({
        body: {
          users: people.filter((p) =>
            p.name.toLowerCase().includes((c.query.get('searchParam') ?? '').toLowerCase()),
          ),
          count: 1,
          hasMore: false,
        },
      }),
    })
    renderAt('/users')
    await screen.findByText('Bruno Silva')
    const searches = () => calls.filter((c) => c.path === '/api/users').map((c) => c.query.get('searchParam'))
    expect(searches()).toEqual([''])
    await userEvent.type(screen.getByRole('searchbox'), 'bru')
    await new Promise((r) => setTimeout(r, 300))
    expect(searches()).toEqual(['']) // still waiting
    await waitFor(() => expect(searches()).toEqual(['', 'bru']), { timeout: 1000 })
    const table = screen.getByRole('table', { name: 'Usuários' })
    await waitFor(() => expect(within(table).queryByText('ana@example.com')).toBeNull())
    expect(within(table).getByText('Bruno Silva')).toBeInTheDocument()
  })

  test('an update that arrives together with the first page does not count a user twice', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => {
      release = r
    })
    mockFetch({ 'GET /api/users': () => ({ body: { users: people, count: 2, hasMore: false } }) })
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      await gate
      return realFetch(...args)
    }) as typeof fetch
    renderAt('/users')
    const ws = sockets().at(-1)!
    act(() => ws.open())
    await act(async () => {
      release()
      await new Promise((r) => setTimeout(r, 0))
      ws.receive({ event: 'company-7-user', data: { action: 'update', user: people[0] } })
    })
    await screen.findByText('Bruno Silva')
    expect(screen.getByText('2 usuários')).toBeInTheDocument()
  })

  test('live events add, update and remove rows', async () => {
    mockFetch({ 'GET /api/users': () => ({ body: { users: people, count: 2, hasMore: false } }) })
    renderAt('/users')
    await screen.findByText('Bruno Silva')
    const ws = sockets().at(-1)!
    act(() => ws.open())
    act(() =>
      ws.receive({
        event: 'company-7-user',
        data: {
          action: 'create',
          user: makeUser({ id: 3, name: 'Carla Nova', email: 'carla@example.com', profile: 'user' }),
        },
      }),
    )
    expect(await screen.findByText('Carla Nova')).toBeInTheDocument()
    expect(screen.getByText('3 usuários')).toBeInTheDocument()
    act(() =>
      ws.receive({
        event: 'company-7-user',
        data: { action: 'update', user: { ...people[1]!, name: 'Bruno Souza' } },
      }),
    )
    expect(await screen.findByText('Bruno Souza')).toBeInTheDocument()
    expect(screen.queryByText('Bruno Silva')).not.toBeInTheDocument()
    expect(screen.getByText('3 usuários')).toBeInTheDocument() // an update is not a new user
    act(() => ws.receive({ event: 'company-7-user', data: { action: 'delete', userId: 3 } }))
    await waitFor(() => expect(screen.queryByText('Carla Nova')).not.toBeInTheDocument())
    expect(screen.getByText('2 usuários')).toBeInTheDocument()
  })

  test('delete asks first, then removes the row and toasts', async () => {
    const calls = mockFetch({
      'GET /api/users': () => ({ body: { users: people, count: 2, hasMore: false } }),
      'DELETE /api/users/2': () => ({ body: { message: 'User deleted' } }),
    })
    renderAt('/users')
    await screen.findByText('Bruno Silva')
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: Bruno Silva' }))
    expect(await screen.findByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Usuário excluído com sucesso!')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText('Bruno Silva')).not.toBeInTheDocument())
    // You cannot delete yourself.
    expect(screen.getByRole('button', { name: 'Excluir: Ana Admin' })).toBeDisabled()
  })

  test('a failed load shows the error with a retry', async () => {
    let fail = true
    mockFetch({
      'GET /api/users': () =>
        fail
          ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } }
          : { body: { users: people, count: 2, hasMore: false } },
    })
    renderAt('/users')
    expect(
      await screen.findByText('Erro interno do servidor. Tente novamente em instantes.'),
    ).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: /Tentar novamente/ }))
    expect(await screen.findByText('Bruno Silva')).toBeInTheDocument()
  })
})
