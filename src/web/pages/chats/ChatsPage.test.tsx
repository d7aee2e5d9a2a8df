import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ChatDto, ChatMessageDto } from '../../../shared/chats'
import { dispatch } from '../../api/live'
import { menuBadgeShown } from '../../components/layout/menuBadges'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'
import { startsGroup } from './ChatMessages'

const ME = 3
const now = new Date().toISOString()

function chat(id: number, title: string, extra: Partial<ChatDto> = {}, unreads = 0): ChatDto {
  return {
    id,
    uuid: `00000000-0000-4000-8000-00000000000${id}`,
    title,
    ownerId: ME,
    lastMessage: `última de ${title}`,
    createdAt: now,
    updatedAt: now,
    users: [
      { userId: ME, unreads, user: { id: ME, name: 'Eu Mesmo' } },
      { userId: 8, unreads: 0, user: { id: 8, name: 'Bruno' } },
    ],
    ...extra,
  }
}

function message(id: number, chatId: number, text: string, senderId = 8): ChatMessageDto {
  return {
    id,
    chatId,
    message: text,
    senderId,
    sender: { id: senderId, name: senderId === ME ? 'Eu Mesmo' : 'Bruno' },
    createdAt: now,
  }
}

const EQUIPE = chat(1, 'Equipe', {}, 2)
const VENDAS = chat(2, 'Vendas', { ownerId: 8, lastMessage: '' })

function serve(extra: Record<string, Parameters<typeof mockFetch>[0][string]> = {}) {
  return mockFetch({
    'GET /api/chats': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      return {
        body: {
          records: [EQUIPE, VENDAS].filter((x) => x.title.toLowerCase().includes(term)),
          hasMore: false,
        },
      }
    },
    'GET /api/chats/unread': () => ({ body: { records: [EQUIPE] } }),
    'GET /api/chats/:id/messages': () => ({
      body: {
        records: [message(10, 1, 'Oi, tudo bem?'), message(11, 1, 'Estou aqui', ME)],
        count: 2,
        hasMore: false,
      },
    }),
    'POST /api/chats/:id/read': () => ({
      body: { ...EQUIPE, users: EQUIPE.users.map((u) => ({ ...u, unreads: 0 })) },
    }),
    'GET /api/users/list': () => ({
      body: [
        { id: ME, name: 'Eu Mesmo' },
        { id: 8, name: 'Bruno' },
        { id: 9, name: 'Carla' },
      ],
    }),
    ...extra,
  })
}

describe('ChatsPage', () => {
  livePageSuite({ id: ME, companyId: 7, profile: 'user' })

  test('the list: title, last message, my unread count; search; the menu item and its dot', async () => {
    const calls = serve()
    renderAt('/chats')
    const list = await screen.findByRole('list', { name: 'Conversas' })
    const equipe = within(list).getByText('Equipe').closest('button')!
    expect(within(equipe).getByText('última de Equipe')).toBeInTheDocument()
    expect(within(equipe).getByTestId('chat-unreads')).toHaveTextContent('2')
    const vendas = within(list).getByText('Vendas').closest('button')!
    expect(within(vendas).queryByTestId('chat-unreads')).toBeNull()
    expect(within(vendas).getByText('Com Bruno')).toBeInTheDocument()
    expect(screen.getByText('Selecione uma conversa')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Chat Interno/ })).toHaveAttribute('href', '/chats')
    await waitFor(() => expect(menuBadgeShown('chats')).toBe(true))
    await userEvent.type(screen.getByRole('searchbox', { name: 'Buscar conversa' }), 'vend')
    // The search waits out its debounce (500 ms) before it asks the server.
    for (let i = 0; i < 30 && screen.queryByText('Equipe'); i++)
      await act(() => new Promise((r) => setTimeout(r, 100)))
    expect(screen.queryByText('Equipe')).toBeNull()
    expect(screen.getByText('Vendas')).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/chats' && c.query.get('searchParam') === 'vend')).toBe(true)
  })

  test('empty state: no chats yet, and no dot', async () => {
    mockFetch({
      'GET /api/chats': () => ({ body: { records: [], hasMore: false } }),
      'GET /api/chats/unread': () => ({ body: { records: [] } }),
    })
    renderAt('/chats')
    expect(await screen.findByText('Nenhuma conversa ainda')).toBeInTheDocument()
    expect(menuBadgeShown('chats')).toBe(false)
  })

  test('opening a chat with unreads marks it read; messages grouped, mine on the right', async () => {
    const calls = serve()
    renderAt(`/chats/${EQUIPE.uuid}`)
    const pane = await screen.findByTestId('chat-pane')
    expect(await within(pane).findByText('Oi, tudo bem?')).toBeInTheDocument()
    expect(within(pane).getByTestId('chat-sender')).toHaveTextContent('Bruno')
    const mine = within(pane).getByText('Estou aqui').closest('[data-chat-message-id]')!
    expect(mine.className).toContain('justify-end')
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/chats/1/read')).toBe(true),
    )
    // I own it: edit and delete show.
    expect(within(pane).getByRole('button', { name: 'Editar conversa' })).toBeInTheDocument()
    expect(within(pane).getByRole('button', { name: 'Excluir conversa' })).toBeInTheDocument()
  })

  test("another's chat: no edit or delete; Enter sends, Shift+Enter breaks the line, blank is ignored", async () => {
    const calls = serve({
      'POST /api/chats/:id/messages': (c) => ({
        status: 201,
        body: message(20, 2, (c.body as { message: string }).message, ME),
      }),
    })
    renderAt(`/chats/${VENDAS.uuid}`)
    const pane = await screen.findByTestId('chat-pane')
    await within(pane).findByText('Oi, tudo bem?')
    expect(within(pane).queryByRole('button', { name: 'Editar conversa' })).toBeNull()
    expect(within(pane).queryByRole('button', { name: 'Excluir conversa' })).toBeNull()
    // Not unread: no read call.
    expect(calls.some((c) => c.path === '/api/chats/2/read')).toBe(false)
    const box = within(pane).getByRole('textbox', { name: 'Mensagem' })
    await userEvent.type(box, '   {Enter}')
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/chats/2/messages')).toBe(false)
    await userEvent.clear(box)
    await userEvent.type(box, 'linha 1{Shift>}{Enter}{/Shift}linha 2')
    expect(box).toHaveValue('linha 1\nlinha 2')
    await userEvent.type(box, '{Enter}')
    await waitFor(() => expect(box).toHaveValue(''))
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/chats/2/messages')!
    expect(post.body).toEqual({ message: 'linha 1\nlinha 2' })
    expect(await within(pane).findByText(/linha 1/)).toBeInTheDocument()
  })

  test('a message arriving live shows in the open chat', async () => {
    serve()
    renderAt(`/chats/${VENDAS.uuid}`)
    const pane = await screen.findByTestId('chat-pane')
    await within(pane).findByText('Oi, tudo bem?')
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-chat-2',
          data: { action: 'new-message', message: message(30, 2, 'Chegou agora'), chat: VENDAS },
        }),
      ),
    )
    expect(await within(pane).findByText('Chegou agora')).toBeInTheDocument()
  })

  test("the dialog: the spec's alerts for a missing title and no users; then POST and the chat opens", async () => {
    const calls = serve({
      'POST /api/chats': (c) => ({ status: 201, body: chat(5, (c.body as { title: string }).title) }),
      'GET /api/chats/u/:uuid': () => ({ body: chat(5, 'Nova sala') }),
    })
    renderAt('/chats')
    await screen.findByRole('list', { name: 'Conversas' })
    await userEvent.click(screen.getAllByRole('button', { name: 'Nova conversa' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Por favor, preencha o título da conversa.')).toBeInTheDocument()
    expect(within(dialog).getByText('Por favor, selecione pelo menos um usuário.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/chats')).toBe(false)
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Título/ }), 'Nova sala')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Usuários' }))
    const options = await screen.findAllByRole('option')
    // I am always a member: not offered.
    expect(options.map((o) => o.textContent)).toEqual(['Bruno', 'Carla'])
    await userEvent.click(options[1]!)
    await userEvent.keyboard('{Escape}')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/chats')).toBe(true))
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/chats')!
    expect(post.body).toEqual({ title: 'Nova sala', users: [9] })
    expect(await screen.findByTestId('chat-pane')).toHaveTextContent('Nova sala')
  })

  test('live: an unread count for me updates the row; a deleted chat leaves the list', async () => {
    serve()
    renderAt('/chats')
    const list = await screen.findByRole('list', { name: 'Conversas' })
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-chat-user',
          data: { action: 'update', chatId: 2, userId: ME, unreads: 5 },
        }),
      ),
    )
    const vendas = within(list).getByText('Vendas').closest('button')!
    await waitFor(() => expect(within(vendas).getByTestId('chat-unreads')).toHaveTextContent('5'))
    act(() => dispatch(JSON.stringify({ event: 'company-7-chat', data: { action: 'delete', id: 2 } })))
    await waitFor(() => expect(within(list).queryByText('Vendas')).toBeNull())
  })

  test('grouping: one header per run of one sender', () => {
    const a = message(1, 1, 'a')
    const b = message(2, 1, 'b')
    const c = message(3, 1, 'c', ME)
    expect(startsGroup(undefined, a)).toBe(true)
    expect(startsGroup(a, b)).toBe(false)
    expect(startsGroup(b, c)).toBe(true)
    expect(startsGroup(a, { ...b, createdAt: new Date(Date.parse(now) + 6 * 60_000).toISOString() })).toBe(
      true,
    )
  })
})
