import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ContactDto } from '../../../shared/api'
import { stopLive } from '../../api/live'
import { resetLiveLists } from '../../state/liveList'
import { makeUser, mockFetch, renderAt, resetState, signIn, sockets } from '../../test/utils'

function contact(overrides: Partial<ContactDto> = {}): ContactDto {
  return {
    id: 1,
    uuid: 'u1',
    name: 'Maria Souza',
    number: '5511999990001',
    email: 'maria@example.com',
    profilePicUrl: '',
    isGroup: false,
    disableBot: false,
    lgpdConsent: null,
    lgpdConsentAt: null,
    whatsappId: null,
    companyId: 7,
    extraInfo: [],
    tags: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  }
}

const people = [contact(), contact({ id: 2, name: 'João Lima', number: '5521988887777', email: '' })]
const listRoute = { 'GET /api/contacts/': () => ({ body: { contacts: people, count: 2, hasMore: false } }) }

describe('ContactsPage', () => {
  beforeEach(() => {
    resetState()
    resetLiveLists()
    sockets().length = 0
    signIn(makeUser({ id: 1, companyId: 7 }))
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  test('lists contacts with the count; numbers shown as the server gives them (masked)', async () => {
    mockFetch({
      'GET /api/contacts/': () => ({
        body: { contacts: [contact({ number: '55119999****' }), people[1]], count: 2, hasMore: false },
      }),
    })
    renderAt('/contacts')
    const table = await screen.findByRole('table', { name: 'Contatos' })
    expect(await within(table).findByText('55119999****')).toBeInTheDocument()
    expect(screen.getByText('2 contatos')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Contatos' })).toBeInTheDocument()
  })

  test('live contact events add, change and remove rows', async () => {
    mockFetch(listRoute)
    renderAt('/contacts')
    await screen.findByText('João Lima')
    const ws = sockets().at(-1)!
    act(() => ws.open())
    act(() =>
      ws.receive({
        event: 'company-7-contact',
        data: { action: 'update', contact: contact({ id: 3, name: 'Ana Nova' }) },
      }),
    )
    expect(await screen.findByText('Ana Nova')).toBeInTheDocument()
    act(() =>
      ws.receive({
        event: 'company-7-contact',
        data: { action: 'update', contact: { ...people[1]!, name: 'João L.' } },
      }),
    )
    expect(await screen.findByText('João L.')).toBeInTheDocument()
    act(() => ws.receive({ event: 'company-7-contact', data: { action: 'delete', contactId: 3 } }))
    await waitFor(() => expect(screen.queryByText('Ana Nova')).toBeNull())
  })

  test('delete needs contacts-page:deleteContact and asks first', async () => {
    const calls = mockFetch({ ...listRoute, 'DELETE /api/contacts/2': () => ({ body: {} }) })
    renderAt('/contacts')
    await screen.findByText('João Lima')
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: João Lima' }))
    expect(await screen.findByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Contato excluído com sucesso.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/contacts/2')).toBe(true)
    await waitFor(() => expect(screen.queryByText('João Lima')).toBeNull())
  })

  test('an attendant cannot delete', async () => {
    signIn(makeUser({ id: 2, profile: 'user' }))
    mockFetch(listRoute)
    renderAt('/contacts')
    await screen.findByText('João Lima')
    expect(screen.queryByRole('button', { name: 'Excluir: João Lima' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Editar: João Lima' })).toBeInTheDocument()
  })

  test('start ticket: with one queue it opens the new ticket at once', async () => {
    signIn(
      makeUser({
        id: 2,
        profile: 'user',
        queues: [{ id: 4, name: 'Suporte', color: '#000' }],
        whatsappId: 3,
      }),
    )
    const calls = mockFetch({
      ...listRoute,
      'POST /api/tickets': () => ({ status: 201, body: { id: 50, uuid: 'abc-uuid' } }),
      'GET /api/tickets/:x': () => ({ body: {} }),
    })
    renderAt('/contacts')
    await screen.findByText('João Lima')
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar atendimento: João Lima' }))
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/tickets')).toBe(true),
    )
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/tickets')?.body).toEqual({
      contactId: 2,
      queueId: 4,
      whatsappId: 3,
      userId: 2,
      status: 'open',
    })
  })

  test("start ticket: another user's open ticket is reported with its user and queue", async () => {
    signIn(makeUser({ id: 2, profile: 'user', queues: [{ id: 4, name: 'Suporte', color: '#000' }] }))
    mockFetch({
      ...listRoute,
      'POST /api/tickets': () => ({
        status: 409,
        body: {
          error: JSON.stringify({ id: 9, userId: 5, user: { name: 'Bruno' }, queue: { name: 'Vendas' } }),
          code: 'ERR_OTHER_OPEN_TICKET',
          message: 'x',
        },
      }),
    })
    renderAt('/contacts')
    await screen.findByText('João Lima')
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar atendimento: João Lima' }))
    expect(
      await screen.findByText('Este contato já tem um atendimento aberto com Bruno na fila Vendas.'),
    ).toBeInTheDocument()
  })
})

describe('ContactDialog', () => {
  beforeEach(() => {
    resetState()
    resetLiveLists()
    signIn(makeUser({ id: 1, companyId: 7 }))
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  async function openAdd() {
    const calls = mockFetch({
      ...listRoute,
      'POST /api/contacts': (c) => ({ status: 201, body: contact({ id: 10, ...(c.body as object) }) }),
    })
    renderAt('/contacts')
    await screen.findByText('João Lima')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar contato' })[0]!)
    const dialog = await screen.findByRole('dialog')
    return { calls, dialog }
  }

  const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label, { exact: false })

  test("the spec's messages: 'Obrigatório', 'Muito curto!', 'Demasiado longo!', 'E-mail inválido'", async () => {
    const { calls, dialog } = await openAdd()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Obrigatório')).toBeInTheDocument()
    await userEvent.type(field(dialog, 'Nome'), 'A')
    expect(await within(dialog).findByText('Muito curto!')).toBeInTheDocument()
    await userEvent.type(field(dialog, 'Nome'), 'x'.repeat(50))
    expect(await within(dialog).findByText('Demasiado longo!')).toBeInTheDocument()
    await userEvent.clear(field(dialog, 'Nome'))
    await userEvent.type(field(dialog, 'Nome'), 'Carla')
    await userEvent.type(field(dialog, 'Número'), '1234')
    expect(await within(dialog).findByText('Muito curto!')).toBeInTheDocument()
    await userEvent.type(field(dialog, 'Número'), '5'.repeat(50))
    expect(await within(dialog).findByText('Demasiado longo!')).toBeInTheDocument()
    await userEvent.clear(field(dialog, 'Número'))
    await userEvent.type(field(dialog, 'E-mail'), 'carla@')
    expect(await within(dialog).findByText('E-mail inválido')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  test('a valid contact is saved with its extra info; empty rows are dropped', async () => {
    const { calls, dialog } = await openAdd()
    await userEvent.type(field(dialog, 'Nome'), '  Carla Dias ')
    await userEvent.type(field(dialog, 'Número'), '5511977776666')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Adicionar informação' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Adicionar informação' }))
    const names = within(dialog).getAllByLabelText('Nome do campo')
    const values = within(dialog).getAllByLabelText('Valor')
    await userEvent.type(values[0]!, 'Centro')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    // A value needs its name.
    expect(await within(dialog).findByText('Obrigatório')).toBeInTheDocument()
    await userEvent.type(names[0]!, 'Bairro')
    await userEvent.click(within(dialog).getByRole('switch'))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/contacts')).toBe(true),
    )
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Carla Dias',
      number: '5511977776666',
      email: '',
      disableBot: true,
      extraInfo: [{ name: 'Bairro', value: 'Centro' }],
    })
    expect(await screen.findByText('Contato salvo com sucesso.')).toBeInTheDocument()
  })

  test('a duplicated number is shown under the number', async () => {
    mockFetch({
      ...listRoute,
      'POST /api/contacts': () => ({
        status: 409,
        body: { error: 'ERR_DUPLICATED_CONTACT', message: 'dup' },
      }),
    })
    renderAt('/contacts')
    await screen.findByText('João Lima')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar contato' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await userEvent.type(field(dialog, 'Nome'), 'Carla')
    await userEvent.type(field(dialog, 'Número'), '5511999990001')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Já existe um contato com este número.')).toBeInTheDocument()
  })
})
