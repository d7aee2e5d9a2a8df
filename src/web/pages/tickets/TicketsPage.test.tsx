import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import type { SessionUser, TicketDto } from '../../../shared/api'
import { dispatch, stopLive } from '../../api/live'
import { resetLiveLists } from '../../state/liveList'
import { type Call, makeUser, mockFetch, renderAt, resetState, signIn, sockets } from '../../test/utils'
import { makeMessage, makeTicket, queueRef } from './list/fixtures'

type HappyWindow = { happyDOM: { setViewport(size: { width: number; height: number }): void } }
const setViewport = (width: number, height: number) =>
  (window as unknown as HappyWindow).happyDOM.setViewport({ width, height })

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

const today = new Date()
today.setHours(9, 7, 0, 0)

const suporte = queueRef(10, 'Suporte', '#3284FE')
const vendas = queueRef(11, 'Vendas', '#16A34A')

const mine = makeTicket({
  id: 1,
  status: 'open',
  userId: 1,
  user: { id: 1, name: 'Ana Admin' },
  queueId: 10,
  queue: suporte,
  whatsapp: { id: 1, name: 'Loja Centro' },
  contact: {
    id: 101,
    name: 'Mariana Souza',
    number: '5511988880001',
    profilePicUrl: '',
    email: '',
    isGroup: false,
  },
  lastMessage: 'Vocês entregam em Campinas?',
  unreadMessages: 3,
  tags: [{ id: 5, name: 'VIP', color: '#8B5CF6' }],
  updatedAt: today.toISOString(),
})
const waiting = makeTicket({
  id: 2,
  status: 'pending',
  contact: {
    id: 102,
    name: 'João Pereira',
    number: '5511988880002',
    profilePicUrl: '',
    email: '',
    isGroup: false,
  },
  lastMessage: 'Meu pedido não chegou',
  unreadMessages: 1,
  updatedAt: '2020-01-05T12:00:00.000Z',
})

type Rows = Partial<Record<'open' | 'pending' | 'closed' | 'search', TicketDto[]>>

/** A server: tickets per status (the search tab has its own rows), counts, queues and connections. */
function serve(rows: Rows, extra: Record<string, (c: Call) => { status?: number; body?: unknown }> = {}) {
  return mockFetch({
    'GET /api/tickets': (c) => {
      const status = (c.query.get('status') ?? 'search') as keyof Rows
      // The search tab: its rows answer a search; without a term, nothing.
      const items = status === 'search' && !c.query.get('searchParam') ? [] : (rows[status] ?? [])
      const page = Number(c.query.get('pageNumber') ?? 1)
      const slice = items.slice((page - 1) * 40, page * 40)
      return { body: { tickets: slice, count: items.length, hasMore: page * 40 < items.length } }
    },
    'GET /api/tickets/counts': () => ({
      body: {
        open: { assigned: rows.open?.length ?? 0, pending: rows.pending?.length ?? 0 },
        groups: { assigned: 0, pending: 0 },
      },
    }),
    'GET /api/queue': () => ({
      body: [
        { ...suporte, orderQueue: 1 },
        { ...vendas, orderQueue: 2 },
      ],
    }),
    'GET /api/whatsapp': () => ({ body: [] }),
    ...extra,
  })
}

/** The lists' calls (not the bell's unread list). */
const ticketCalls = (calls: Call[]) =>
  calls.filter((c) => c.path === '/api/tickets' && !c.query.has('withUnreadMessages'))

describe('TicketsPage', () => {
  beforeEach(() => {
    resetState()
    resetLiveLists()
    sockets().length = 0
    setViewport(1280, 800)
  })
  afterEach(() => {
    stopLive()
    resetLiveLists()
    resetState()
    setViewport(1024, 768)
  })

  function asAdmin(overrides: Partial<SessionUser> = {}) {
    signIn(makeUser({ id: 1, companyId: 7, profile: 'admin', ...overrides }))
  }

  test('a row shows picture, name, last message, queue, connection, user, tags, unread count and time', async () => {
    asAdmin()
    serve({ open: [mine], pending: [waiting] })
    renderAt('/tickets')
    const row = (await screen.findByText('Mariana Souza')).closest('li')!
    const r = within(row)
    expect(r.getByText('Vocês entregam em Campinas?')).toBeInTheDocument()
    expect(r.getByText('Suporte')).toBeInTheDocument()
    expect(r.getByText('Loja Centro')).toBeInTheDocument()
    expect(r.getByText('Ana Admin')).toBeInTheDocument()
    expect(r.getByText('VIP')).toBeInTheDocument()
    expect(r.getByText('3 mensagens não lidas')).toBeInTheDocument()
    expect(r.getByText('09:07')).toBeInTheDocument()
    // The open row is a link to the ticket by uuid.
    expect(r.getByRole('link')).toHaveAttribute('href', `/tickets/${mine.uuid}`)
    // The sub-tab badges.
    expect(await screen.findByRole('tab', { name: /Atendendo\s*1/ })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: /Aguardando\s*1/ })).toBeInTheDocument()
  })

  test("the pending list: 'SEM FILA', dd/MM/yyyy, no link, and Aceitar accepts and opens the ticket", async () => {
    asAdmin()
    const calls = serve(
      { open: [], pending: [waiting] },
      {
        'PUT /api/tickets/:id': (c) => ({
          body: { ...waiting, status: 'open', userId: 1, ...(c.body as object) },
        }),
      },
    )
    renderAt('/tickets', <Where />)
    await userEvent.click(await screen.findByRole('tab', { name: /Aguardando/ }))
    const row = (await screen.findByText('João Pereira')).closest('li')!
    expect(within(row).getByText('SEM FILA')).toBeInTheDocument()
    expect(within(row).getByText('05/01/2020')).toBeInTheDocument()
    expect(within(row).queryByRole('link')).toBeNull()
    await userEvent.click(within(row).getByRole('button', { name: 'Aceitar: João Pereira' }))
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.path).toBe('/api/tickets/2')
    expect(put.body).toEqual({ status: 'open', userId: 1 })
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/tickets/${waiting.uuid}`))
  })

  test('a pending ticket is closed from the list without accepting it, and the user stays on the list', async () => {
    asAdmin()
    const calls = serve(
      { open: [], pending: [waiting] },
      { 'PUT /api/tickets/:id': (c) => ({ body: { ...waiting, status: 'closed', ...(c.body as object) } }) },
    )
    renderAt('/tickets', <Where />)
    await userEvent.click(await screen.findByRole('tab', { name: /Aguardando/ }))
    const row = (await screen.findByText('João Pereira')).closest('li')!
    await userEvent.click(within(row).getByRole('button', { name: 'Encerrar ticket: João Pereira' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1))
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.path).toBe('/api/tickets/2')
    expect(put.body).toEqual({ status: 'closed', userId: 1 })
    await waitFor(() => expect(screen.queryByText('João Pereira')).toBeNull())
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/tickets$/)
    expect(screen.getByRole('tab', { name: /Aguardando/ })).toHaveAttribute('aria-selected', 'true')
  })

  test('an attendant whose userClosePendingTicket is disabled has no close action on pending rows', async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'user', userClosePendingTicket: 'disabled' }))
    serve({ open: [], pending: [waiting] })
    renderAt('/tickets')
    await userEvent.click(await screen.findByRole('tab', { name: /Aguardando/ }))
    const row = (await screen.findByText('João Pereira')).closest('li')!
    expect(within(row).getByRole('button', { name: 'Aceitar: João Pereira' })).toBeInTheDocument()
    expect(within(row).queryByRole('button', { name: /Encerrar ticket/ })).toBeNull()
  })

  test('the lists ask for their status, show-all and the selected queues; the groups tab asks for groups', async () => {
    asAdmin()
    const calls = serve({ open: [mine] })
    renderAt('/tickets')
    await screen.findByText('Mariana Souza')
    const first = ticketCalls(calls).filter((c) => c.query.get('status') === 'open')[0]!
    expect(first.query.get('showAll')).toBe('true')
    expect(first.query.get('queueIds')).toBe('[10,11]')
    expect(first.query.get('isGroup')).toBe('false')
    await userEvent.click(screen.getByRole('tab', { name: 'Grupos' }))
    await waitFor(() =>
      expect(
        ticketCalls(calls).some(
          (c) => c.query.get('isGroup') === 'true' && c.query.get('status') === 'pending',
        ),
      ).toBe(true),
    )
  })

  test('show-all: on for admins, switchable; an attendant without the permission has no switch and asks for their own', async () => {
    asAdmin()
    const calls = serve({ open: [mine] })
    const { unmount } = renderAt('/tickets')
    await screen.findByText('Mariana Souza')
    const toggle = screen.getByRole('switch', { name: 'Todos' })
    expect(toggle).toHaveAttribute('aria-checked', 'true')
    await userEvent.click(toggle)
    await waitFor(() =>
      expect(
        ticketCalls(calls).some(
          (c) => c.query.get('status') === 'open' && c.query.get('showAll') === 'false',
        ),
      ).toBe(true),
    )
    unmount()
    resetLiveLists()
    signIn(makeUser({ id: 3, companyId: 7, profile: 'user', queues: [suporte] }))
    const userCalls = serve({ open: [] })
    renderAt('/tickets')
    await screen.findByText('Nenhum atendimento em andamento')
    expect(screen.queryByRole('switch', { name: 'Todos' })).toBeNull()
    const open = ticketCalls(userCalls).find((c) => c.query.get('status') === 'open')!
    expect(open.query.get('showAll')).toBe('false')
    expect(open.query.get('queueIds')).toBe('[10]')
  })

  test('the search box waits 500 ms, switches to the search tab and asks without a status', async () => {
    asAdmin()
    const found = makeTicket({
      id: 9,
      status: 'closed',
      contact: { ...mine.contact, id: 109, name: 'Ana Busca' },
    })
    const calls = serve({ open: [mine], search: [found] })
    renderAt('/tickets')
    await screen.findByText('Mariana Souza')
    await userEvent.type(screen.getByRole('searchbox'), 'ana')
    expect(screen.getByRole('tab', { name: 'Busca' })).toHaveAttribute('aria-selected', 'true')
    await new Promise((r) => setTimeout(r, 250))
    expect(ticketCalls(calls).some((c) => c.query.get('searchParam') === 'ana')).toBe(false)
    expect(await screen.findByText('Ana Busca', {}, { timeout: 1500 })).toBeInTheDocument()
    const search = ticketCalls(calls).find((c) => c.query.get('searchParam') === 'ana')!
    expect(search.query.get('status')).toBeNull()
    expect(search.query.get('showAll')).toBe('true')
  })

  test('the queue multi-select narrows the lists and is remembered', async () => {
    asAdmin()
    const calls = serve({ open: [mine] })
    renderAt('/tickets')
    await screen.findByText('Mariana Souza')
    await userEvent.click(screen.getByRole('button', { name: /^Filas:/ }))
    await userEvent.click(await screen.findByRole('option', { name: /Vendas/ }))
    await waitFor(() => expect(ticketCalls(calls).some((c) => c.query.get('queueIds') === '[10]')).toBe(true))
    expect(localStorage.getItem('ticketsHiddenQueues:1')).toBe('[11]')
  })

  test('loads the next page within 100 px of the bottom', async () => {
    asAdmin()
    const many = Array.from({ length: 45 }, (_, i) => makeTicket({ id: 100 + i, userId: 1 }))
    const calls = serve({ open: many })
    renderAt('/tickets')
    await screen.findByText('Cliente 100')
    const box = screen.getByTestId('ticket-list-scroller')
    const set = (scrollTop: number) => {
      Object.defineProperty(box, 'scrollHeight', { configurable: true, value: 4000 })
      Object.defineProperty(box, 'clientHeight', { configurable: true, value: 600 })
      Object.defineProperty(box, 'scrollTop', { configurable: true, value: scrollTop })
      fireEvent.scroll(box)
    }
    const page2 = () =>
      ticketCalls(calls).filter((c) => c.query.get('status') === 'open' && c.query.get('pageNumber') === '2')
    set(3000) // 400 px left
    expect(page2()).toHaveLength(0)
    set(3320) // 80 px left
    await waitFor(() => expect(page2()).toHaveLength(1))
    expect(await screen.findByText('Cliente 144')).toBeInTheDocument()
  })

  test('a failed load offers a retry', async () => {
    asAdmin()
    let fail = true
    mockFetch({
      'GET /api/tickets': () =>
        fail
          ? { status: 500, body: { error: 'ERR_INTERNAL' } }
          : { body: { tickets: [mine], count: 1, hasMore: false } },
      'GET /api/tickets/counts': () => ({ status: 500, body: {} }),
      'GET /api/queue': () => ({ body: [] }),
    })
    renderAt('/tickets')
    expect(await screen.findByText('Não foi possível carregar os tickets')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getAllByRole('button', { name: /Tentar novamente/ })[0]!)
    expect(await screen.findByText('Mariana Souza')).toBeInTheDocument()
  })

  test('a new customer message moves its ticket to the top, live', async () => {
    asAdmin()
    const other = makeTicket({
      id: 3,
      userId: 1,
      contact: { ...mine.contact, id: 103, name: 'Carlos Andrade' },
    })
    serve({ open: [other, { ...mine, unreadMessages: 0 }] })
    renderAt('/tickets')
    await screen.findByText('Mariana Souza')
    const names = () =>
      within(screen.getByRole('list', { name: 'Atendimentos' }))
        .getAllByRole('link')
        .map((a) => (a.textContent?.includes('Mariana') ? 'Mariana Souza' : 'Carlos Andrade'))
    expect(names().slice(0, 2)).toEqual(['Carlos Andrade', 'Mariana Souza'])
    const moved = { ...mine, unreadMessages: 1, lastMessage: 'Oi de novo' }
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-appMessage',
          data: {
            action: 'create',
            ticket: moved,
            contact: moved.contact,
            message: makeMessage({ id: 1, ticketId: 1 }),
          },
        }),
      ),
    )
    expect(names().slice(0, 2)).toEqual(['Mariana Souza', 'Carlos Andrade'])
    expect(screen.getByText('Oi de novo')).toBeInTheDocument()
  })

  test("below 600 px: the spec's two tabs, 'Ticket' and 'Atendimentos'", async () => {
    setViewport(375, 812)
    asAdmin()
    serve({ open: [mine] })
    renderAt('/tickets')
    const list = await screen.findByRole('tab', { name: 'Atendimentos' })
    expect(list).toHaveAttribute('aria-selected', 'true')
    expect(await screen.findByText('Mariana Souza')).toBeVisible()
    await userEvent.click(screen.getByRole('tab', { name: 'Ticket' }))
    expect(screen.getByText('Selecione um ticket')).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Ticket' })).toHaveAttribute('aria-selected', 'true')
  })

  test('empty lists say what to do next', async () => {
    asAdmin()
    serve({ open: [], pending: [] })
    renderAt('/tickets')
    expect(await screen.findByText('Nenhum atendimento em andamento')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: /Novo ticket/ }).length).toBeGreaterThan(0)
    await userEvent.click(screen.getByRole('tab', { name: /Aguardando/ }))
    expect(await screen.findByText('Ninguém aguardando')).toBeInTheDocument()
  })
})
