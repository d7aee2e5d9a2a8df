import { afterEach, beforeEach, describe, expect, jest, mock, test } from 'bun:test'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { startLive, stopLive } from '../../../api/live'
import { Toaster } from '../../../components/ui/Toast'
import { resetLiveLists } from '../../../state/liveList'
import { makeSchedule } from '../../../test/schedules'
import { type Call, makeUser, mockFetch, resetState, signIn, sockets } from '../../../test/utils'
import { Conversation } from './Conversation'
import { makeMessage, makeTicket } from './fixtures'
import { SpyDialog } from './SpyDialog'

const day = (d: number, h = 10, m = 0) => new Date(2026, 2, d, h, m).toISOString()

function page(messages: MessageDto[], ticket: TicketDto = makeTicket(), hasMore = false) {
  return { body: { messages, ticket, count: messages.length, hasMore } }
}

function show(props: { ticketId?: number | string; readOnly?: boolean } = {}) {
  const onClosed = mock(() => {})
  const view = render(
    <>
      <Conversation ticketId={props.ticketId ?? 5} readOnly={props.readOnly} onClosed={onClosed} />
      <Toaster />
    </>,
  )
  return { ...view, onClosed }
}

const base = {
  'GET /api/tags/list': () => ({ body: [] }),
  'GET /api/queue': () => ({ body: [] }),
  'GET /api/whatsapp': () => ({ body: [] }),
}

const put = (calls: Call[]) =>
  calls.filter((c) => c.method === 'PUT').map((c) => ({ path: c.path, body: c.body }))

describe('Conversation', () => {
  beforeEach(() => {
    resetState()
    resetLiveLists()
    sockets().length = 0
    signIn(makeUser({ id: 1, companyId: 7, name: 'Ana Admin' }))
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  test('header, messages oldest first with date separators, joined to the ticket room and left on unmount', async () => {
    mockFetch({
      ...base,
      'GET /api/messages/5': () =>
        page([
          makeMessage({ id: 1, body: 'Bom dia', createdAt: day(1, 9) }),
          makeMessage({ id: 2, body: 'Oi, Maria!', fromMe: true, ack: 4, createdAt: day(1, 9, 5) }),
          makeMessage({ id: 3, body: 'Chegou?', createdAt: day(2, 8) }),
        ]),
    })
    startLive()
    const ws = sockets().at(-1)!
    act(() => ws.open())
    const { unmount } = show()
    expect(await screen.findByText('Chegou?')).toBeInTheDocument()
    expect(screen.getByTestId('contact-name')).toHaveTextContent('Maria Souza')
    const list = screen.getByTestId('message-list')
    const texts = within(list)
      .getAllByTestId('bubble')
      .map((b) => b.textContent)
    expect(texts[0]).toContain('Bom dia')
    expect(texts[2]).toContain('Chegou?')
    expect(
      within(list)
        .getAllByTestId('date-separator')
        .map((s) => s.textContent),
    ).toEqual(['01/03/2026', '02/03/2026'])
    await waitFor(() => expect(ws.sent).toContain(JSON.stringify({ event: 'joinChatBox', data: 5 })))
    unmount()
    expect(ws.sent).toContain(JSON.stringify({ event: 'leaveChatBox', data: 5 }))
  })

  test('a uuid is resolved first; older pages come in above, without duplicates', async () => {
    const calls = mockFetch({
      ...base,
      'GET /api/tickets/u/b7c1f1f0-0000-4000-8000-000000000005': () => ({ body: makeTicket() }),
      'GET /api/messages/5': (c) =>
        c.query.get('pageNumber') === '1'
          ? page(
              [
                makeMessage({ id: 21, body: 'nova', createdAt: day(3) }),
                makeMessage({ id: 22, body: 'novíssima', createdAt: day(3, 11) }),
              ],
              makeTicket(),
              true,
            )
          : page([
              makeMessage({ id: 20, body: 'antiga', createdAt: day(2) }),
              makeMessage({ id: 21, body: 'nova', createdAt: day(3) }),
            ]),
    })
    show({ ticketId: 'b7c1f1f0-0000-4000-8000-000000000005' })
    // happy-dom has no layout: the first page "fits the screen", so the next one is fetched at once.
    expect(await screen.findByText('antiga')).toBeInTheDocument()
    const bubbles = screen.getAllByTestId('bubble').map((b) => b.textContent ?? '')
    expect(bubbles.map((b) => b.replace(/\d\d:\d\d.*$/, ''))).toEqual(['antiga', 'nova', 'novíssima'])
    expect(calls.filter((c) => c.path === '/api/messages/5').map((c) => c.query.get('pageNumber'))).toEqual([
      '1',
      '2',
    ])
    expect(screen.getByText('Início da conversa')).toBeInTheDocument()
  })

  test('live: a new message appears, an update (ack, reaction) changes its message in place', async () => {
    mockFetch({
      ...base,
      'GET /api/messages/5': () => page([makeMessage({ id: 1, body: 'Oi', createdAt: day(1) })]),
    })
    startLive()
    const ws = sockets().at(-1)!
    act(() => ws.open())
    show()
    await screen.findByText('Oi')
    const mine = makeMessage({ id: 2, body: 'Olá!', fromMe: true, ack: 1, createdAt: day(1, 11) })
    act(() =>
      ws.receive({
        event: 'company-7-appMessage',
        data: { action: 'create', message: mine, ticket: makeTicket(), contact: makeTicket().contact },
      }),
    )
    expect(await screen.findByText('Olá!')).toBeInTheDocument()
    // Another ticket's message stays out.
    act(() =>
      ws.receive({
        event: 'company-7-appMessage',
        data: {
          action: 'create',
          message: makeMessage({ id: 3, ticketId: 6, body: 'outro' }),
          ticket: makeTicket({ id: 6 }),
          contact: makeTicket().contact,
        },
      }),
    )
    act(() =>
      ws.receive({
        event: 'company-7-appMessage',
        data: {
          action: 'update',
          message: { ...mine, ack: 4, reactions: [{ emoji: '❤️', fromMe: false, senderName: 'Maria' }] },
        },
      }),
    )
    await waitFor(() => expect(document.querySelector('[data-ack="4"]')).not.toBeNull())
    expect(screen.getByTestId('reactions')).toHaveTextContent('❤️')
    expect(screen.queryByText('outro')).toBeNull()
    expect(screen.getAllByTestId('bubble')).toHaveLength(2)
  })

  test("a customer's message arriving in the open conversation is marked read (one fetch per burst)", async () => {
    const calls = mockFetch({
      ...base,
      'GET /api/messages/5': () => page([makeMessage({ id: 1, body: 'Oi' })]),
    })
    startLive()
    const ws = sockets().at(-1)!
    act(() => ws.open())
    show()
    await screen.findByText('Oi')
    const fetches = () => calls.filter((c) => c.path === '/api/messages/5').length
    expect(fetches()).toBe(1)
    for (const id of [2, 3])
      act(() =>
        ws.receive({
          event: 'company-7-appMessage',
          data: {
            action: 'create',
            message: makeMessage({ id, body: `m${id}` }),
            ticket: makeTicket(),
            contact: makeTicket().contact,
          },
        }),
      )
    await screen.findByText('m3')
    await waitFor(() => expect(fetches()).toBe(2), { timeout: 2000 })
    await new Promise((r) => setTimeout(r, 900))
    expect(fetches()).toBe(2)
  })

  test('pending: accept assigns the ticket to me and opens the input', async () => {
    const calls = mockFetch({
      ...base,
      'GET /api/messages/5': () =>
        page(
          [makeMessage({ id: 1, body: 'Oi' })],
          makeTicket({ status: 'pending', userId: null, user: null }),
        ),
      'PUT /api/tickets/5': () => ({ body: makeTicket({ status: 'open' }) }),
    })
    show()
    const box = await screen.findByRole('textbox', { name: 'Mensagem' })
    expect(box).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Aceitar' }))
    await waitFor(() =>
      expect(put(calls)).toEqual([{ path: '/api/tickets/5', body: { status: 'open', userId: 1 } }]),
    )
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Mensagem' })).toBeEnabled())
  })

  test('open: return to queue and resolve (with or without farewell) leave the view', async () => {
    const calls = mockFetch({
      ...base,
      'GET /api/messages/5': () => page([makeMessage({ id: 1 })]),
      'PUT /api/tickets/5': () => ({ body: {} }),
    })
    const { onClosed } = show()
    await userEvent.click(await screen.findByRole('button', { name: 'Devolver à fila' }))
    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1))
    await userEvent.click(screen.getByRole('button', { name: /Resolver/ }))
    await userEvent.click(screen.getByRole('menuitem', { name: 'Resolver sem despedida' }))
    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(2))
    await userEvent.click(screen.getByRole('button', { name: /Resolver/ }))
    await userEvent.click(screen.getByRole('menuitem', { name: 'Resolver com mensagem de despedida' }))
    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(3))
    expect(put(calls).map((c) => c.body)).toEqual([
      { status: 'pending', userId: null },
      { status: 'closed', userId: 1, sendFarewellMessage: false },
      { status: 'closed', userId: 1, sendFarewellMessage: true },
    ])
  })

  test('closed: reopen; deleting the ticket needs the permission and asks first', async () => {
    const calls = mockFetch({
      ...base,
      'GET /api/messages/5': () => page([makeMessage({ id: 1 })], makeTicket({ status: 'closed' })),
      'PUT /api/tickets/5': () => ({ body: makeTicket({ status: 'open' }) }),
      'DELETE /api/tickets/5': () => ({ body: {} }),
    })
    const { onClosed } = show()
    await userEvent.click(await screen.findByRole('button', { name: 'Reabrir' }))
    await waitFor(() => expect(put(calls)[0]?.body).toEqual({ status: 'open', userId: 1 }))
    await userEvent.click(screen.getByRole('button', { name: 'Mais opções' }))
    await userEvent.click(screen.getByRole('menuitem', { name: 'Excluir atendimento' }))
    expect(await screen.findByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }))
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/tickets/5')).toBe(true),
    )
    await waitFor(() => expect(onClosed).toHaveBeenCalled())
  })

  test('an attendant has no delete', async () => {
    signIn(makeUser({ id: 2, profile: 'user', queues: [{ id: 2, name: 'Vendas', color: '#000' }] }))
    mockFetch({ ...base, 'GET /api/messages/5': () => page([makeMessage({ id: 1 })]) })
    show()
    await userEvent.click(await screen.findByRole('button', { name: 'Mais opções' }))
    expect(screen.queryByRole('menuitem', { name: 'Excluir atendimento' })).toBeNull()
  })

  test('transfer: queue required, one own queue preselected, users searched from 3 characters', async () => {
    signIn(makeUser({ id: 2, profile: 'user', queues: [{ id: 2, name: 'Vendas', color: '#000' }] }))
    const calls = mockFetch({
      ...base,
      'GET /api/queue': () => ({
        body: [
          { id: 2, name: 'Vendas', color: '#1d6ce5', orderQueue: 1 },
          { id: 4, name: 'Suporte', color: '#0f7b6c', orderQueue: 2 },
        ],
      }),
      'GET /api/whatsapp': () => ({ body: [{ id: 3, name: 'Loja' }] }),
      'GET /api/users/list': () => ({
        body: [makeUser({ id: 8, name: 'Bruno Silva' }), makeUser({ id: 9, name: 'Carla Brito' })],
      }),
      'GET /api/messages/5': () => page([makeMessage({ id: 1 })]),
      'PUT /api/tickets/5': () => ({ body: {} }),
    })
    const { onClosed } = show()
    await userEvent.click(await screen.findByRole('button', { name: 'Transferir' }))
    const dialog = await screen.findByRole('dialog')
    expect(
      within(dialog)
        .getAllByRole('button')
        .some((b) => b.textContent?.includes('Vendas')),
    ).toBe(true)
    const search = within(dialog).getByRole('searchbox')
    await userEvent.type(search, 'br')
    await new Promise((r) => setTimeout(r, 650))
    expect(calls.some((c) => c.path === '/api/users/list')).toBe(false)
    await userEvent.type(search, 'u')
    await waitFor(() => expect(calls.some((c) => c.path === '/api/users/list')).toBe(true), { timeout: 1500 })
    await userEvent.click(await within(dialog).findByRole('button', { name: /Bruno Silva/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transferir' }))
    await waitFor(() =>
      expect(put(calls)).toEqual([
        { path: '/api/tickets/5', body: { queueId: 2, whatsappId: 3, userId: 8, status: 'open' } },
      ]),
    )
    await waitFor(() => expect(onClosed).toHaveBeenCalled())
  })

  test('forward: select up to 4, the spec messages, then one call per message', async () => {
    const messages = [1, 2, 3, 4, 5].map((id) =>
      makeMessage({ id, body: `m${id}`, createdAt: day(1, 9, id) }),
    )
    const calls = mockFetch({
      ...base,
      'GET /api/messages/5': () => page(messages),
      'GET /api/contacts': (c) => ({
        body: {
          contacts:
            c.query.get('searchParam') === 'jos'
              ? [{ id: 44, name: 'José', number: '5511', profilePicUrl: '', isGroup: false }]
              : [],
          count: 1,
          hasMore: false,
        },
      }),
      'POST /api/message/forward': () => ({ body: {} }),
    })
    show()
    const first = await screen.findByText('m1')
    const bubble = first.closest('[data-testid="bubble"]') as HTMLElement
    await userEvent.click(within(bubble).getByRole('button', { name: 'Opções da mensagem' }))
    await userEvent.click(screen.getByRole('menuitem', { name: /Encaminhar/ }))
    const boxes = screen.getAllByRole('checkbox', { name: 'Selecionar mensagem' })
    expect(boxes[0]).toBeChecked()
    for (const box of boxes.slice(1, 4)) await userEvent.click(box)
    expect(screen.getByText('4 selecionadas')).toBeInTheDocument()
    await userEvent.click(boxes[4]!)
    expect(
      await screen.findByText('Não é possível selecionar mais de 4 mensagens para encaminhar.'),
    ).toBeInTheDocument()
    expect(boxes[4]).not.toBeChecked()
    for (const box of boxes.slice(0, 4)) await userEvent.click(box)
    await userEvent.click(screen.getByRole('button', { name: 'Encaminhar' }))
    expect(await screen.findByText('Nenhuma mensagem selecionada')).toBeInTheDocument()
    await userEvent.click(boxes[0]!)
    await userEvent.click(boxes[1]!)
    await userEvent.click(screen.getByRole('button', { name: 'Encaminhar' }))
    const dialog = await screen.findByRole('dialog')
    const search = within(dialog).getByRole('searchbox')
    await userEvent.type(search, 'jo')
    await new Promise((r) => setTimeout(r, 600))
    expect(calls.some((c) => c.path === '/api/contacts')).toBe(false)
    await userEvent.type(search, 's')
    await userEvent.click(await within(dialog).findByRole('button', { name: /José/ }, { timeout: 1500 }))
    const started = Date.now()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }))
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/message/forward')).toHaveLength(2), {
      timeout: 3000,
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(850)
    expect(calls.filter((c) => c.path === '/api/message/forward').map((c) => c.body)).toEqual([
      { messageId: 1, contactId: 44 },
      { messageId: 2, contactId: 44 },
    ])
    await waitFor(() => expect(screen.queryByTestId('forward-bar')).toBeNull())
  })

  test('tags: adding puts one, removing clears and puts the rest back', async () => {
    const tags = [
      { id: 1, name: 'VIP', color: '#b3541e', kanban: 0, companyId: 7, createdAt: '', updatedAt: '' },
      { id: 2, name: 'Atacado', color: '#0f7b6c', kanban: 0, companyId: 7, createdAt: '', updatedAt: '' },
    ]
    const calls = mockFetch({
      ...base,
      'GET /api/tags/list': () => ({ body: tags }),
      'GET /api/messages/5': () =>
        page([makeMessage({ id: 1 })], makeTicket({ tags: [{ id: 1, name: 'VIP', color: '#b3541e' }] })),
      'PUT /api/ticket-tags/5/:tag': () => ({ body: {} }),
      'DELETE /api/ticket-tags/5': () => ({ body: {} }),
    })
    show()
    const row = await screen.findByTestId('ticket-tags')
    expect(row).toHaveTextContent('VIP')
    await userEvent.click(within(row).getByRole('button', { name: 'Alterar tags' }))
    await userEvent.click(await screen.findByRole('option', { name: /Atacado/ }))
    await waitFor(() =>
      expect(
        calls.filter((c) => c.path.startsWith('/api/ticket-tags')).map((c) => `${c.method} ${c.path}`),
      ).toEqual(['PUT /api/ticket-tags/5/2']),
    )
    await userEvent.click(screen.getByRole('option', { name: /VIP/ }))
    await waitFor(() =>
      expect(
        calls.filter((c) => c.path.startsWith('/api/ticket-tags')).map((c) => `${c.method} ${c.path}`),
      ).toEqual(['PUT /api/ticket-tags/5/2', 'DELETE /api/ticket-tags/5', 'PUT /api/ticket-tags/5/2']),
    )
  })

  test("deleted by someone else while shown: 'Ticket deleted sucessfully.' and back to the list", async () => {
    mockFetch({ ...base, 'GET /api/messages/5': () => page([makeMessage({ id: 1, body: 'Oi' })]) })
    startLive()
    const ws = sockets().at(-1)!
    act(() => ws.open())
    const { onClosed } = show()
    await screen.findByText('Oi')
    expect(onClosed).not.toHaveBeenCalled()
    act(() => ws.receive({ event: 'company-7-ticket', data: { action: 'delete', ticketId: 5 } }))
    expect(await screen.findByText('Ticket deleted sucessfully.')).toBeInTheDocument()
    expect(onClosed).toHaveBeenCalled()
  })

  test('the message being answered is flagged in the list; the flag clears after 10 s, the reply stays', async () => {
    mockFetch({
      ...base,
      'GET /api/messages/5': () => page([makeMessage({ id: 1, body: 'Qual o prazo?' })]),
    })
    show()
    const bubble = (await screen.findByText('Qual o prazo?')).closest('[data-testid="bubble"]')!
    expect(bubble).not.toHaveAttribute('data-highlighted')
    await userEvent.click(within(bubble as HTMLElement).getByRole('button', { name: 'Opções da mensagem' }))
    const reply = await screen.findByRole('menuitem', { name: 'Responder' })
    jest.useFakeTimers()
    try {
      act(() => {
        fireEvent.click(reply)
      })
      expect(bubble).toHaveAttribute('data-highlighted', 'true')
      act(() => jest.advanceTimersByTime(9_999))
      expect(bubble).toHaveAttribute('data-highlighted', 'true')
      act(() => jest.advanceTimersByTime(1))
      expect(bubble).not.toHaveAttribute('data-highlighted')
      expect(screen.getByText('Respondendo')).toBeInTheDocument()
    } finally {
      jest.useRealTimers()
    }
  })

  test("a ticket of another queue: 'Acesso não permitido' and back to the list", async () => {
    mockFetch({
      ...base,
      'GET /api/messages/5': () => ({ status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'no' } }),
    })
    const { onClosed } = show()
    expect(await screen.findByText('Acesso não permitido')).toBeInTheDocument()
    expect(onClosed).toHaveBeenCalled()
  })

  test('the contact drawer: number as a phone link, e-mail as a mail link, extra info', async () => {
    mockFetch({
      ...base,
      'GET /api/messages/5': () => page([makeMessage({ id: 1 })]),
      'GET /api/contacts/9': () => ({
        body: {
          ...makeTicket().contact,
          extraInfo: [{ id: 1, name: 'CPF', value: '123.456.789-00' }],
          disableBot: false,
          tags: [],
        },
      }),
    })
    show()
    await userEvent.click(await screen.findByRole('button', { name: 'Dados do contato' }))
    const drawer = screen.getByTestId('contact-drawer')
    expect(within(drawer).getByRole('link', { name: /5511999990001/ })).toHaveAttribute(
      'href',
      'tel:+5511999990001',
    )
    expect(within(drawer).getByRole('link', { name: /maria@example.com/ })).toHaveAttribute(
      'href',
      'mailto:maria@example.com',
    )
    expect(await within(drawer).findByText('123.456.789-00')).toBeInTheDocument()
    expect(within(drawer).getByText('CPF')).toBeInTheDocument()
    expect(within(drawer).getByRole('button', { name: 'Editar contato' })).toBeEnabled()
  })

  test("the contact drawer lists the contact's appointments and schedules one through the ticket's connection", async () => {
    const appointment = makeSchedule(40, { contactId: 9, contact: { id: 9, name: 'Maria Souza' } })
    const calls = mockFetch({
      ...base,
      'GET /api/whatsapp': () => ({ body: [{ id: 3, name: 'Loja', status: 'CONNECTED' }] }),
      'GET /api/users/list': () => ({ body: [] }),
      'GET /api/messages/5': () => page([makeMessage({ id: 1 })]),
      'GET /api/contacts/9': () => ({ body: { ...makeTicket().contact, extraInfo: [], disableBot: false } }),
      'GET /api/schedules/': () => ({ body: { schedules: [appointment], count: 1, hasMore: false } }),
      'POST /api/schedules': (c) => ({
        status: 201,
        body: { ...appointment, id: 41, body: (c.body as { body: string }).body, whatsappId: 3 },
      }),
    })
    show()
    await userEvent.click(await screen.findByRole('button', { name: 'Dados do contato' }))
    const section = await within(screen.getByTestId('contact-drawer')).findByTestId('appointments')
    expect(await within(section).findByText('Lembrete: sua consulta é …')).toBeInTheDocument()
    expect(within(section).getByText('Mensagem PENDENTE')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/schedules/')?.query.get('contactId')).toBe('9')
    await userEvent.click(within(section).getByRole('button', { name: 'Agendar' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('Maria Souza')).toBeInTheDocument()
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Conexão' })).toHaveTextContent('Loja'),
    )
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Mensagem/ }), 'Confirmando amanhã')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1))
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      contactId: 9,
      body: 'Confirmando amanhã',
      whatsappIds: [3],
    })
    expect(await within(section).findByText('Confirmando amanhã')).toBeInTheDocument()
  })

  test('spy dialog: read-only (no input, no actions), nothing marked read', async () => {
    const calls = mockFetch({
      ...base,
      'GET /api/messages/5': () => page([makeMessage({ id: 1, body: 'Oi' })]),
    })
    render(<SpyDialog ticketId={5} open onClose={() => {}} />)
    expect(await screen.findByText('Oi')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/messages/5')?.query.get('spy')).toBe('true')
    expect(screen.queryByRole('textbox', { name: 'Mensagem' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Mais opções' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Opções da mensagem' })).toBeNull()
  })
})
