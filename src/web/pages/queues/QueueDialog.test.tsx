import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { defaultSchedules } from '../../../shared/schedules'
import { Toaster } from '../../components/ui/Toast'
import { setSettings } from '../../state/settings'
import { makeUser, mockFetch, resetState, signIn } from '../../test/utils'
import { QueueDialog } from './QueueDialog'
import { maskTime } from './ScheduleEditor'

const QUEUE = {
  id: 9,
  name: 'Vendas',
  color: '#22C55E',
  orderQueue: 1,
  greetingMessage: 'Olá',
  outOfHoursMessage: '',
  schedules: defaultSchedules(),
  integrationId: null,
  promptId: null,
  fileListId: null,
  companyId: 7,
  createdAt: '',
  updatedAt: '',
}

function renderDialog() {
  const onSaved = mock(() => {})
  const onClose = mock(() => {})
  render(
    <>
      <QueueDialog open onClose={onClose} onSaved={onSaved} />
      <Toaster />
    </>,
  )
  return { onSaved, onClose }
}

describe('QueueDialog', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
    setSettings([{ key: 'scheduleType', value: 'disabled' }])
  })
  afterEach(resetState)

  test('requires a name and a colour; a palette swatch fills the hex field', async () => {
    const calls = mockFetch({})
    renderDialog()
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2)
    // only the file lists and the integrations for the selects were asked for: nothing saved
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      'GET /api/files/list',
      'GET /api/prompt',
      'GET /api/queueIntegration',
    ])
    await userEvent.click(screen.getByRole('radio', { name: '#22C55E' }))
    expect(screen.getByLabelText('Código da cor')).toHaveValue('#22C55E')
    expect(screen.getAllByText('Obrigatório')).toHaveLength(1)
  })

  test('saves with the spec toast', async () => {
    const calls = mockFetch({
      'POST /api/queue': (c) => ({
        body: { id: 4, companyId: 7, createdAt: '', updatedAt: '', ...(c.body as object) },
      }),
    })
    const { onSaved } = renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Suporte')
    await userEvent.type(screen.getByLabelText('Código da cor'), '#0ea5e9')
    await userEvent.type(screen.getByLabelText('Ordem'), '2')
    await userEvent.type(screen.getByLabelText('Mensagem de saudação'), 'Olá!')
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const post = calls.find((c) => c.method === 'POST')
    expect(post?.body).toEqual({
      name: 'Suporte',
      color: '#0EA5E9',
      orderQueue: 2,
      greetingMessage: 'Olá!',
      outOfHoursMessage: '',
      integrationId: null,
      promptId: null,
      fileListId: null,
    })
    expect(post?.body).not.toHaveProperty('schedules')
    expect(await screen.findByText('Fila salva com sucesso')).toBeInTheDocument()
  })

  test('a colour already in use is reported in words', async () => {
    mockFetch({
      'POST /api/queue': () => ({
        status: 409,
        body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS', message: 'color' },
      }),
    })
    const { onClose } = renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Vendas')
    await userEvent.click(screen.getByRole('radio', { name: '#3284FE' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect((await screen.findAllByText('Esta cor já está em uso, escolha outra.')).length).toBeGreaterThan(0)
    expect(onClose).not.toHaveBeenCalled()
  })

  test('the out-of-hours message appears only when service hours are managed', () => {
    mockFetch({})
    const view = render(<QueueDialog open onClose={() => {}} />)
    expect(screen.queryByLabelText('Mensagem fora do expediente')).not.toBeInTheDocument()
    view.unmount()
    setSettings([{ key: 'scheduleType', value: 'queue' }])
    render(<QueueDialog open onClose={() => {}} />)
    expect(screen.getByLabelText('Mensagem fora do expediente')).toBeInTheDocument()
  })

  test('creating shows only the data tab, with integration and prompt set to none', () => {
    mockFetch({})
    render(<QueueDialog open onClose={() => {}} />)
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Dados da fila'])
    expect(screen.getByRole('button', { name: 'Integração' })).toHaveTextContent('Nenhum')
    expect(screen.getByRole('button', { name: 'Prompt' })).toHaveTextContent('Nenhum')
  })

  test("the file list select: 'Nenhuma' by default, the company's lists to choose, sent as fileListId", async () => {
    const calls = mockFetch({
      'GET /api/files/list': () => ({
        body: [
          { id: 3, name: 'Catálogo' },
          { id: 5, name: 'Boletos' },
        ],
      }),
      'GET /api/queue/9': () => ({ body: { ...QUEUE, fileListId: 5 } }),
      'GET /api/queue-options': () => ({ body: [] }),
      'PUT /api/queue/9': (c) => ({ body: { ...QUEUE, ...(c.body as object) } }),
    })
    const onSaved = mock(() => {})
    const view = render(<QueueDialog open onClose={() => {}} />)
    expect(screen.getByRole('button', { name: 'Lista de arquivos' })).toHaveTextContent('Nenhuma')
    view.unmount()
    render(<QueueDialog open queueId={9} onClose={() => {}} onSaved={onSaved} />)
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Lista de arquivos' })).toHaveTextContent('Boletos'),
    )
    await userEvent.click(screen.getByRole('button', { name: 'Lista de arquivos' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Catálogo' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ fileListId: 3 })
  })

  test("the integration select: the company's queue integrations, sent as integrationId", async () => {
    const calls = mockFetch({
      'GET /api/files/list': () => ({ body: [] }),
      'GET /api/queueIntegration': () => ({
        body: { queueIntegrations: [{ id: 4, name: 'Typebot vendas' }], count: 1, hasMore: false },
      }),
      'GET /api/queue/9': () => ({ body: QUEUE }),
      'GET /api/queue-options': () => ({ body: [] }),
      'PUT /api/queue/9': (c) => ({ body: { ...QUEUE, ...(c.body as object) } }),
    })
    const onSaved = mock(() => {})
    render(<QueueDialog open queueId={9} onClose={() => {}} onSaved={onSaved} />)
    const select = await screen.findByRole('button', { name: 'Integração' })
    await waitFor(() => expect(select).toHaveTextContent('Nenhum'))
    await userEvent.click(select)
    await userEvent.click(await screen.findByRole('option', { name: 'Typebot vendas' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ integrationId: 4 })
  })

  test("the prompt select: the company's AI prompts, sent as promptId", async () => {
    const calls = mockFetch({
      'GET /api/files/list': () => ({ body: [] }),
      'GET /api/queueIntegration': () => ({ body: { queueIntegrations: [], count: 0, hasMore: false } }),
      'GET /api/prompt': () => ({
        body: { prompts: [{ id: 6, name: 'Assistente IA' }], count: 1, hasMore: false },
      }),
      'GET /api/queue/9': () => ({ body: QUEUE }),
      'GET /api/queue-options': () => ({ body: [] }),
      'PUT /api/queue/9': (c) => ({ body: { ...QUEUE, ...(c.body as object) } }),
    })
    const onSaved = mock(() => {})
    render(<QueueDialog open queueId={9} onClose={() => {}} onSaved={onSaved} />)
    const select = await screen.findByRole('button', { name: 'Prompt' })
    await waitFor(() => expect(select).toHaveTextContent('Nenhum'))
    await userEvent.click(select)
    await userEvent.click(await screen.findByRole('option', { name: 'Assistente IA' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ promptId: 6 })
  })

  test('the HH:MM mask', () => {
    expect(maskTime('0830')).toBe('08:30')
    expect(maskTime('8')).toBe('8')
    expect(maskTime('08')).toBe('08')
    expect(maskTime('083')).toBe('08:3')
    expect(maskTime('8:30')).toBe('08:30')
    expect(maskTime('ab12:345')).toBe('12:34')
  })

  test('editing: the hours tab shows the defaults, checks HH:MM and saves the schedules', async () => {
    const calls = mockFetch({
      'GET /api/queue/9': () => ({ body: QUEUE }),
      'GET /api/queue-options': () => ({ body: [] }),
      'PUT /api/queue/9': (c) => ({ body: { ...QUEUE, ...(c.body as object) } }),
    })
    const onSaved = mock(() => {})
    render(<QueueDialog open queueId={9} onClose={() => {}} onSaved={onSaved} />)
    await userEvent.click(await screen.findByRole('tab', { name: 'Horários de atendimento' }))
    const start = screen.getByLabelText('Início de Segunda-feira')
    expect(start).toHaveValue('08:00')
    expect(screen.getByLabelText('Fim de Sábado')).toHaveValue('12:00')
    expect(screen.getByTestId('hours-sunday')).toHaveTextContent('Fechado')
    await userEvent.clear(start)
    await userEvent.type(start, '9')
    expect(start).toHaveValue('9')
    // Go to the first tab and save: the hours are wrong, so their tab comes back with the error.
    await userEvent.click(screen.getByRole('tab', { name: 'Dados da fila' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Use HH:MM, de 00:00 a 23:59')).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: /Horários de atendimento/ })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await userEvent.type(screen.getByLabelText('Início de Segunda-feira'), '30')
    expect(screen.getByLabelText('Início de Segunda-feira')).toHaveValue('93:0')
    await userEvent.clear(screen.getByLabelText('Início de Segunda-feira'))
    await userEvent.type(screen.getByLabelText('Início de Segunda-feira'), '0930')
    expect(screen.getByLabelText('Início de Segunda-feira')).toHaveValue('09:30')
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const put = calls.find((c) => c.method === 'PUT')!
    const body = put.body as { schedules: { weekdayEn: string; startTime: string }[]; integrationId: null }
    expect(body.schedules).toHaveLength(7)
    expect(body.schedules[0]).toMatchObject({ weekdayEn: 'monday', startTime: '09:30', endTime: '18:00' })
    expect(body.integrationId).toBeNull()
  })
})
