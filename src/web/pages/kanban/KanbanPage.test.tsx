import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import type { TagDto, TicketDto } from '../../../shared/api'
import { dispatch } from '../../api/live'
import { type Call, livePageSuite, makeUser, mockFetch, renderAt, signIn } from '../../test/utils'
import { makeTicket } from '../tickets/list/fixtures'

const lane = (id: number, name: string, color: string): TagDto => ({
  id,
  name,
  color,
  kanban: 1,
  companyId: 7,
  createdAt: '',
  updatedAt: '',
})

const LANES = [lane(5, 'Negociação', '#EF4444'), lane(6, 'Fechado', '#22C55E')]
const VIP = { id: 9, name: 'VIP', color: '#8B5CF6' }

function tickets(): TicketDto[] {
  return [
    makeTicket({
      id: 1,
      uuid: '6f1c2a4e-0000-4000-8000-000000000001',
      status: 'pending',
      contact: { ...makeTicket({ id: 1 }).contact, name: 'Maria Souza', number: '551198765****' },
      lastMessage: 'Quero saber do pedido',
      updatedAt: '2026-03-01T10:05:00.000Z',
    }),
    makeTicket({ id: 2, status: 'pending', tags: [{ id: 5, name: 'Negociação', color: '#EF4444' }] }),
    makeTicket({ id: 3, status: 'pending', tags: [VIP], updatedAt: '2026-03-01T09:00:00.000Z' }),
  ]
}

function serve(
  opts: { rows?: () => TicketDto[]; lanes?: () => TagDto[]; extra?: Record<string, unknown> } = {},
) {
  return mockFetch({
    'GET /api/tags/kanban': () => ({ body: { lista: (opts.lanes ?? (() => LANES))() } }),
    'GET /api/ticket/kanban': () => ({ body: { tickets: (opts.rows ?? tickets)(), hasMore: false } }),
    ...(opts.extra as Record<string, (c: Call) => { status?: number; body?: unknown }>),
  })
}

const laneEl = (name: string) => screen.getByRole('heading', { name }).closest('li') as HTMLElement
const frame = (event: string, data: unknown) =>
  act(() => dispatch(JSON.stringify({ event: `company-7-${event}`, data })))

/** Every path the router went through: the tickets page may move on from an unknown ticket at once. */
const visited: string[] = []
function Where() {
  const path = useLocation().pathname
  if (visited.at(-1) !== path) visited.push(path)
  return <output data-testid="where">{path}</output>
}

describe('KanbanPage', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'user', queues: [{ id: 2, name: 'Vendas', color: '#000' }] })

  test("'Em aberto' then one lane per Kanban tag; cards in their lane; the user's queues are asked", async () => {
    const calls = serve()
    renderAt('/kanban', <Where />)
    expect(await screen.findByText('Maria Souza')).toBeInTheDocument()
    const open = laneEl('Em aberto')
    expect(within(open).getByText('Maria Souza')).toBeInTheDocument()
    expect(within(open).getByText('551198765****')).toBeInTheDocument()
    expect(within(open).getByText('Quero saber do pedido')).toBeInTheDocument()
    // An ordinary tag does not take a ticket off 'Em aberto'.
    expect(within(open).getByText('Cliente 3')).toBeInTheDocument()
    expect(within(laneEl('Negociação')).getByText('Cliente 2')).toBeInTheDocument()
    expect(within(laneEl('Fechado')).getByText('Nenhum ticket aqui')).toBeInTheDocument()
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(headings).toEqual(['Em aberto', 'Negociação', 'Fechado'])
    const get = calls.find((c) => c.path === '/api/ticket/kanban')!
    expect(get.query.get('queueIds')).toBe('[2]')
    await userEvent.click(within(open).getByRole('button', { name: 'Abrir ticket de Maria Souza' }))
    expect(visited).toContain('/tickets/6f1c2a4e-0000-4000-8000-000000000001')
  })

  test("moving a card from 'Em aberto' to a lane: one PUT, the spec's toast, the card in its new lane", async () => {
    const calls = serve({
      extra: {
        'PUT /api/ticket/kanban/:id': () => ({
          body: {
            ticket: { ...tickets()[0], tags: [{ id: 6, name: 'Fechado', color: '#22C55E' }] },
            removed: [],
            added: { id: 6, name: 'Fechado', color: '#22C55E' },
          },
        }),
      },
    })
    renderAt('/kanban')
    await screen.findByText('Maria Souza')
    await userEvent.click(screen.getByRole('button', { name: 'Mover o ticket de Maria Souza' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Fechado' }))
    expect(await screen.findByText('Ticket Tag Adicionado com Sucesso!')).toBeInTheDocument()
    expect(screen.queryByText('Ticket Tag Removido!')).toBeNull()
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.path).toBe('/api/ticket/kanban/1')
    expect(put.body).toEqual({ tagId: 6 })
    expect(within(laneEl('Fechado')).getByText('Maria Souza')).toBeInTheDocument()
    expect(within(laneEl('Em aberto')).queryByText('Maria Souza')).toBeNull()
  })

  test('moving between lanes shows both toasts; a refused move puts the card back with the error', async () => {
    let fail = false
    serve({
      extra: {
        'PUT /api/ticket/kanban/:id': () =>
          fail
            ? { status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'Acesso não permitido' } }
            : {
                body: {
                  ticket: { ...tickets()[1], tags: [{ id: 6, name: 'Fechado', color: '#22C55E' }] },
                  removed: [{ id: 5, name: 'Negociação', color: '#EF4444' }],
                  added: { id: 6, name: 'Fechado', color: '#22C55E' },
                },
              },
      },
    })
    renderAt('/kanban')
    await screen.findByText('Cliente 2')
    await userEvent.click(screen.getByRole('button', { name: 'Mover o ticket de Cliente 2' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Fechado' }))
    expect(await screen.findByText('Ticket Tag Removido!')).toBeInTheDocument()
    expect(screen.getByText('Ticket Tag Adicionado com Sucesso!')).toBeInTheDocument()
    expect(within(laneEl('Fechado')).getByText('Cliente 2')).toBeInTheDocument()
    fail = true
    await userEvent.click(screen.getByRole('button', { name: 'Mover o ticket de Cliente 3' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Negociação' }))
    await waitFor(() => expect(within(laneEl('Em aberto')).getByText('Cliente 3')).toBeInTheDocument())
    expect(within(laneEl('Negociação')).queryByText('Cliente 3')).toBeNull()
  })

  test('live: tickets move, arrive and leave; lanes appear', async () => {
    serve()
    renderAt('/kanban')
    await screen.findByText('Maria Souza')
    // Moved by someone else: the card changes lane.
    frame('ticket', {
      action: 'update',
      ticket: { ...tickets()[0], tags: [{ id: 5, name: 'Negociação', color: '#EF4444' }] },
    })
    expect(within(laneEl('Negociação')).getByText('Maria Souza')).toBeInTheDocument()
    // A new pending ticket of the user's queue arrives; one of another queue does not.
    frame('ticket', { action: 'update', ticket: makeTicket({ id: 7, status: 'pending', queueId: 2 }) })
    frame('ticket', { action: 'update', ticket: makeTicket({ id: 8, status: 'pending', queueId: 4 }) })
    expect(within(laneEl('Em aberto')).getByText('Cliente 7')).toBeInTheDocument()
    expect(screen.queryByText('Cliente 8')).toBeNull()
    // Another user's open ticket is not on the board without show-all; closed leaves it.
    frame('ticket', { action: 'update', ticket: makeTicket({ id: 2, status: 'open', userId: 99 }) })
    expect(screen.queryByText('Cliente 2')).toBeNull()
    frame('ticket', { action: 'update', ticket: { ...tickets()[0], status: 'closed' } })
    expect(screen.queryByText('Maria Souza')).toBeNull()
    // A new message refreshes the card.
    frame('appMessage', {
      action: 'create',
      message: {},
      ticket: { ...makeTicket({ id: 7, status: 'pending', queueId: 2 }), lastMessage: 'Chegou agora' },
      contact: makeTicket({ id: 7 }).contact,
    })
    expect(screen.getByText('Chegou agora')).toBeInTheDocument()
    // A lane created elsewhere.
    frame('tag', { action: 'create', tag: lane(11, 'Aguardando pagamento', '#F59E0B') })
    expect(screen.getByRole('heading', { name: 'Aguardando pagamento' })).toBeInTheDocument()
    frame('tag', { action: 'delete', tagId: 5 })
    expect(screen.queryByRole('heading', { name: 'Negociação' })).toBeNull()
  })

  test('no lanes: only Em aberto, with a way to create lanes; the menu lists the board and the lanes', async () => {
    serve({ lanes: () => [], rows: () => [] })
    renderAt('/kanban')
    expect(await screen.findByText('Nenhuma raia ainda')).toBeInTheDocument()
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Em aberto'])
    expect(screen.getByRole('link', { name: 'Kanban' })).toHaveAttribute('href', '/kanban')
    expect(screen.getByRole('link', { name: 'Raias do Kanban' })).toHaveAttribute('href', '/tagsKanban')
  })

  test('a plan without useKanban: no menu items, and the page explains instead of calling the server', async () => {
    const calls = serve()
    const user = makeUser({ id: 3, profile: 'admin' })
    signIn({ ...user, company: { ...user.company!, plan: { useKanban: false } as never } })
    renderAt('/kanban')
    expect(
      await screen.findByText('Este recurso não está incluído no plano da sua empresa.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Kanban' })).toBeNull()
    expect(calls.some((c) => c.path.includes('kanban'))).toBe(false)
  })
})
