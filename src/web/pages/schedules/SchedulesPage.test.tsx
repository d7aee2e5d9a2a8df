import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import type { ScheduleDto } from '../../../shared/scheduled-messages'
import { dispatch } from '../../api/live'
import { makeSchedule } from '../../test/schedules'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'

function Where() {
  const at = useLocation()
  return <output data-testid="where">{at.pathname + at.search}</output>
}

const schedule = makeSchedule

const ROWS = [
  schedule(1),
  schedule(2, {
    body: 'Promoção',
    status: 'ENVIADA',
    sentAt: '2026-11-20T10:00:00.000Z',
    sendAt: '2026-11-20T10:00:00.000Z',
  }),
  schedule(3, { body: 'Falhou', status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG: boom' }),
]

function serve(rows: () => ScheduleDto[] = () => ROWS, extra = {}) {
  return mockFetch({
    'GET /api/schedules/': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = rows().filter((s) => s.body.toLowerCase().includes(term))
      return { body: { schedules: list, count: list.length, hasMore: false } }
    },
    'GET /api/users/list': () => ({ body: [{ id: 1, name: 'Ana Admin' }] }),
    'GET /api/queue': () => ({ body: [] }),
    ...extra,
  })
}

describe('SchedulesPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'user' })

  test('lists contact, body cut at 25 characters, date in the company zone, spec status titles', async () => {
    serve()
    renderAt('/schedules')
    const table = await screen.findByRole('table', { name: 'Agendamentos' })
    const row = within(table).getAllByText('Maria Souza')[0]!.closest('tr')!
    expect(within(row).getByText('Lembrete: sua consulta é …')).toBeInTheDocument()
    expect(within(row).getByText('21/11/2026 12:00:00')).toBeInTheDocument()
    expect(within(row).getByText('Mensagem PENDENTE')).toBeInTheDocument()
    expect(within(table).getByText('Mensagem ENVIADA')).toBeInTheDocument()
    expect(within(table).getByText('Erro de Envio')).toBeInTheDocument()
    expect(screen.getByText('3 agendamentos')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Agendamentos' })).toHaveAttribute('href', '/schedules')
  })

  test('empty state, then a live create adds the row', async () => {
    serve(() => [])
    renderAt('/schedules')
    expect(await screen.findByText('Nenhum agendamento')).toBeInTheDocument()
    act(() =>
      dispatch(
        JSON.stringify({ event: 'company-7-schedule', data: { action: 'create', schedule: schedule(9) } }),
      ),
    )
    expect(await screen.findByText('Mensagem PENDENTE')).toBeInTheDocument()
    act(() =>
      dispatch(JSON.stringify({ event: 'company-7-schedule', data: { action: 'delete', scheduleId: 9 } })),
    )
    await waitFor(() => expect(screen.queryByText('Mensagem PENDENTE')).toBeNull())
  })

  test('?contactId= opens the create dialog with the contact; a short body is refused; saving returns to /schedules', async () => {
    const calls = serve(() => [], {
      'GET /api/contacts/:id': () => ({ body: { id: 5, name: 'Maria Souza' } }),
      'POST /api/schedules': (c: { body: unknown }) => ({
        status: 201,
        body: schedule(10, c.body as Partial<ScheduleDto>),
      }),
    })
    renderAt('/schedules?contactId=5', <Where />)
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('Maria Souza')).toBeInTheDocument()
    const body = within(dialog).getByRole('textbox', { name: /Mensagem/ })
    await userEvent.type(body, 'oi')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Mensagem muito curta')).toBeInTheDocument()
    await userEvent.type(body, ' Maria, tudo bem?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 3000 })
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.body).toMatchObject({
      contactId: 5,
      body: 'oi Maria, tudo bem?',
      openTicket: 'enabled',
      statusTicket: 'closed',
    })
    // The default send time is one hour ahead.
    const sendAt = Date.parse((post.body as { sendAt: string }).sendAt)
    expect(Math.abs(sendAt - (Date.now() + 3_600_000))).toBeLessThan(120_000)
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/schedules$/))
  })

  test("the dialog picks the connection it is sent through (the spec's whatsappIds); none is the default", async () => {
    const calls = serve(() => [], {
      'GET /api/whatsapp': () => ({
        body: [
          { id: 3, name: 'Loja Centro', status: 'CONNECTED' },
          { id: 4, name: 'Loja Norte', status: 'CONNECTED' },
        ],
      }),
      'GET /api/contacts/:id': () => ({ body: { id: 5, name: 'Maria Souza' } }),
      'GET /api/schedules/:id': () => ({ body: schedule(1, { whatsappId: 4 }) }),
      'POST /api/schedules': () => ({ status: 201, body: schedule(10) }),
      'PUT /api/schedules/:id': () => ({ body: schedule(1) }),
    })
    renderAt('/schedules?contactId=5')
    const dialog = await screen.findByRole('dialog')
    const picker = within(dialog).getByRole('button', { name: 'Conexão' })
    expect(picker).toHaveTextContent('Conexão padrão')
    await userEvent.click(picker)
    await userEvent.click(await screen.findByRole('option', { name: 'Loja Norte' }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Mensagem/ }), 'Bom dia, Maria!')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1))
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ whatsappIds: [4] })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 3000 })
    // An existing one shows its connection, and back to the default sends an empty list.
    await userEvent.click((await screen.findAllByRole('button', { name: 'Editar: Maria Souza' }))[0]!)
    const edit = await screen.findByRole('dialog')
    await waitFor(() =>
      expect(within(edit).getByRole('button', { name: 'Conexão' })).toHaveTextContent('Loja Norte'),
    )
    await userEvent.click(within(edit).getByRole('button', { name: 'Conexão' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Conexão padrão' }))
    await userEvent.click(within(edit).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1))
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ whatsappIds: [] })
  })

  test('a sent record opens read-only, without a save button', async () => {
    serve(undefined, { 'GET /api/schedules/:id': () => ({ body: ROWS[1] }) })
    renderAt('/schedules')
    await userEvent.click(await screen.findByRole('button', { name: 'Ver: Maria Souza' }))
    const dialog = await screen.findByRole('dialog')
    expect(
      await within(dialog).findByText('Esta mensagem já foi enviada e não pode mais ser alterada.'),
    ).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Salvar' })).toBeNull()
  })

  test('turning openTicket off disables user, queue and ticket status', async () => {
    serve()
    renderAt('/schedules')
    await screen.findByRole('table', { name: 'Agendamentos' })
    await userEvent.click(screen.getAllByRole('button', { name: 'Novo agendamento' })[0]!)
    const dialog = await screen.findByRole('dialog')
    const user = within(dialog).getByRole('button', { name: 'Atendente' })
    expect(user).not.toBeDisabled()
    await userEvent.click(within(dialog).getByRole('switch', { name: /Abrir ticket/ }))
    expect(within(dialog).getByRole('button', { name: 'Atendente' })).toBeDisabled()
    expect(within(dialog).getByRole('button', { name: 'Fila' })).toBeDisabled()
    expect(within(dialog).getByRole('button', { name: 'Status do ticket' })).toBeDisabled()
  })

  test('a failed one can be retried from the table', async () => {
    const calls = serve(undefined, {
      'POST /api/schedules/:id/retry': () => ({ body: { ...ROWS[2], status: 'PENDENTE', error: null } }),
    })
    renderAt('/schedules')
    await userEvent.click(await screen.findByRole('button', { name: 'Tentar novamente: Maria Souza' }))
    await waitFor(() => expect(calls.some((c) => c.path === '/api/schedules/3/retry')).toBe(true))
    expect(await screen.findByText('O envio será tentado novamente')).toBeInTheDocument()
  })
})
