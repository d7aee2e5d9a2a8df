import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { stopLive } from '../../api/live'
import { resetLiveLists } from '../../state/liveList'
import { type Call, makeUser, mockFetch, resetState, signIn, sockets } from '../../test/utils'
import { queueRef } from './list/fixtures'
import { NewTicketDialog } from './NewTicketDialog'

const contacts = [
  { id: 31, name: 'Mariana Souza', number: '5511988880001', profilePicUrl: '' },
  { id: 32, name: 'Maria Clara', number: '5511988880002', profilePicUrl: '' },
]
const connections = [
  { id: 1, name: 'Loja Centro', status: 'CONNECTED', isDefault: false },
  { id: 2, name: 'Loja Norte', status: 'CONNECTED', isDefault: true },
]

function serve(post: (c: Call) => { status?: number; body?: unknown }) {
  return mockFetch({
    'GET /api/contacts': (c) => ({
      body: {
        contacts: contacts.filter((x) =>
          x.name.toLowerCase().includes((c.query.get('searchParam') ?? '').toLowerCase()),
        ),
        count: 2,
        hasMore: false,
      },
    }),
    'GET /api/whatsapp': () => ({ body: connections }),
    'GET /api/queue': () => ({ body: [{ ...queueRef(10, 'Suporte'), orderQueue: 1 }] }),
    'POST /api/tickets': post,
  })
}

function open(onOpenTicket = mock((_t: { uuid?: string; id?: number }) => {}), onClose = mock(() => {})) {
  render(<NewTicketDialog open onClose={onClose} onOpenTicket={onOpenTicket} />)
  return { onOpenTicket, onClose }
}

async function pickContact(name: string) {
  const input = screen.getByRole('combobox')
  await userEvent.type(input, 'mar')
  await userEvent.click(await screen.findByRole('option', { name: new RegExp(name) }, { timeout: 2000 }))
}

describe('NewTicketDialog', () => {
  beforeEach(() => {
    resetState()
    resetLiveLists()
    sockets().length = 0
  })
  afterEach(() => {
    stopLive()
    resetLiveLists()
    resetState()
  })

  test('the contact search starts at 3 characters (after the 500 ms pause)', async () => {
    signIn(makeUser({ id: 1, profile: 'admin' }))
    const calls = serve(() => ({ body: {} }))
    open()
    const input = screen.getByRole('combobox')
    await userEvent.type(input, 'ma')
    expect(await screen.findByText('Digite ao menos 3 caracteres')).toBeInTheDocument()
    await new Promise((r) => setTimeout(r, 600))
    expect(calls.filter((c) => c.path === '/api/contacts')).toHaveLength(0)
    await userEvent.type(input, 'r')
    expect(
      await screen.findByRole('option', { name: /Mariana Souza/ }, { timeout: 2000 }),
    ).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/contacts')?.query.get('searchParam')).toBe('mar')
  })

  test("an attendant must choose a queue: 'Selecione uma fila'", async () => {
    signIn(makeUser({ id: 3, profile: 'user', queues: [queueRef(10, 'Suporte'), queueRef(11, 'Vendas')] }))
    const calls = serve(() => ({ status: 201, body: { id: 9, uuid: 'u-9' } }))
    open()
    await pickContact('Mariana Souza')
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar atendimento' }))
    expect(await screen.findAllByText('Selecione uma fila')).not.toHaveLength(0)
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  test("an admin may leave the queue empty; the body is the spec's, and the new ticket opens", async () => {
    signIn(makeUser({ id: 1, profile: 'admin', whatsappId: null }))
    const calls = serve(() => ({ status: 201, body: { id: 9, uuid: 'u-9' } }))
    const { onOpenTicket, onClose } = open()
    await pickContact('Mariana Souza')
    // The company's default connection is chosen.
    await waitFor(() => expect(screen.getByText('Loja Norte')).toBeInTheDocument())
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar atendimento' }))
    await waitFor(() => expect(onOpenTicket).toHaveBeenCalledWith({ id: 9, uuid: 'u-9' }))
    expect(onClose).toHaveBeenCalled()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      contactId: 31,
      queueId: null,
      whatsappId: 2,
      userId: 1,
      status: 'open',
    })
  })

  test("another user's open ticket: the dialog says who holds it and in which queue", async () => {
    signIn(makeUser({ id: 1, profile: 'admin' }))
    const held = {
      id: 4,
      uuid: 'u-4',
      userId: 8,
      user: { name: 'Bruno Atendente' },
      queue: { name: 'Vendas' },
    }
    serve(() => ({
      status: 409,
      body: {
        error: JSON.stringify(held),
        code: 'ERR_OTHER_OPEN_TICKET',
        message: 'There is already an open ticket',
      },
    }))
    const { onOpenTicket } = open()
    await pickContact('Mariana Souza')
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar atendimento' }))
    expect(
      await screen.findByText('Este contato já está em atendimento com Bruno Atendente na fila Vendas.'),
    ).toBeInTheDocument()
    expect(onOpenTicket).not.toHaveBeenCalled()
  })

  test('a ticket the user may not see comes as its holder and queue only: the dialog says the same', async () => {
    signIn(makeUser({ id: 1, profile: 'admin' }))
    const held = {
      userId: 8,
      user: { id: 8, name: 'Bruno Atendente' },
      queueId: 3,
      queue: { id: 3, name: 'Vendas' },
    }
    serve(() => ({ status: 409, body: { error: JSON.stringify(held), code: 'ERR_OTHER_OPEN_TICKET' } }))
    const { onOpenTicket } = open()
    await pickContact('Mariana Souza')
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar atendimento' }))
    expect(
      await screen.findByText('Este contato já está em atendimento com Bruno Atendente na fila Vendas.'),
    ).toBeInTheDocument()
    expect(onOpenTicket).not.toHaveBeenCalled()
  })

  test('my own open ticket simply opens', async () => {
    signIn(makeUser({ id: 1, profile: 'admin' }))
    const held = { id: 4, uuid: 'u-4', userId: 1, user: { name: 'Ana Admin' }, queue: null }
    serve(() => ({ status: 409, body: { error: JSON.stringify(held), code: 'ERR_OTHER_OPEN_TICKET' } }))
    const { onOpenTicket } = open()
    await pickContact('Mariana Souza')
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar atendimento' }))
    await waitFor(() => expect(onOpenTicket).toHaveBeenCalledWith(held))
  })
})
