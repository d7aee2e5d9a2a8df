import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { QueueDto } from '../../../shared/api'
import { Toaster } from '../../components/ui/Toast'
import { resetHealth } from '../../state/health'
import { type Call, makeUser, mockFetch, resetState, signIn } from '../../test/utils'
import { ConnectionDialog, maskToken } from './ConnectionDialog'
import { makeConnection } from './fixtures'

const queues: QueueDto[] = [
  { id: 11, name: 'Suporte', color: '#3284FE' },
  { id: 12, name: 'Vendas', color: '#22C55E' },
].map((q) => ({
  ...q,
  companyId: 7,
  orderQueue: null,
  greetingMessage: '',
  outOfHoursMessage: '',
  createdAt: '',
  updatedAt: '',
})) as unknown as QueueDto[]

function renderDialog(connectionId?: number) {
  const onSaved = mock(() => {})
  const onClose = mock(() => {})
  render(
    <>
      <ConnectionDialog open connectionId={connectionId} onClose={onClose} onSaved={onSaved} />
      <Toaster />
    </>,
  )
  return { onSaved, onClose }
}

const tab = (name: string) => screen.getByRole('tab', { name })
const save = () => userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
const writes = (calls: Call[]) => calls.filter((c) => c.method !== 'GET')

describe('ConnectionDialog', () => {
  beforeEach(() => {
    resetState()
    resetHealth()
    signIn(makeUser())
  })
  afterEach(() => {
    resetState()
    resetHealth()
  })

  test('the name is required, 2 to 50 characters', async () => {
    const calls = mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    renderDialog()
    await save()
    expect(await screen.findByText('Obrigatório')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'A')
    expect(screen.getByText('Muito curto!')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'x'.repeat(50))
    expect(screen.getByText('Muito longo!')).toBeInTheDocument()
    expect(writes(calls)).toHaveLength(0)
  })

  test('a redirect time needs a queue, and the reverse; the dialog opens that tab', async () => {
    const calls = mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Loja')
    await userEvent.click(tab('Filas e bot'))
    const time = screen.getByLabelText('Redirecionar após (minutos)')
    await userEvent.clear(time)
    await userEvent.type(time, '15')
    await userEvent.click(tab('Geral'))
    await save()
    await waitFor(() => expect(tab('Filas e bot')).toHaveAttribute('aria-selected', 'true'))
    expect(screen.getByText('Escolha a fila para onde redirecionar')).toBeInTheDocument()
    // The reverse: a queue without a time.
    await userEvent.clear(screen.getByLabelText('Redirecionar após (minutos)'))
    await userEvent.type(screen.getByLabelText('Redirecionar após (minutos)'), '0')
    expect(screen.queryByText('Escolha a fila para onde redirecionar')).toBeNull()
    await userEvent.click(screen.getByLabelText('Fila de destino'))
    await userEvent.click(await screen.findByRole('option', { name: 'Vendas' }))
    expect(await screen.findByText('Informe o tempo antes de redirecionar')).toBeInTheDocument()
    expect(writes(calls)).toHaveLength(0)
  })

  test('NPS needs a time and a rating message', async () => {
    const calls = mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Loja')
    await userEvent.click(tab('Avaliação (NPS)'))
    expect(screen.getByText('Escala 0 a 10')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Mensagem de avaliação'), 'De 0 a 10, que nota você nos dá?')
    await save()
    expect(await screen.findByText('A avaliação precisa de um tempo maior que 0')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('Mensagem de avaliação'))
    const time = screen.getByLabelText('Tempo para avaliar (minutos)')
    await userEvent.clear(time)
    await userEvent.type(time, '10')
    expect(await screen.findByText('A avaliação precisa de uma mensagem')).toBeInTheDocument()
    expect(writes(calls)).toHaveLength(0)
  })

  test('a greeting is required when the connection has more than one queue', async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/whatsapp/1': () => ({
        body: makeConnection({ id: 1, queues: [queues[0]!, queues[1]!], greetingMessage: '' }),
      }),
      'PUT /api/whatsapp/1': (c) => ({ body: makeConnection({ id: 1, ...(c.body as object) }) }),
    })
    const { onSaved } = renderDialog(1)
    await screen.findByDisplayValue('Loja Centro')
    await userEvent.click(tab('Integração'))
    await save()
    await waitFor(() => expect(tab('Geral')).toHaveAttribute('aria-selected', 'true'))
    expect(screen.getByText('Obrigatória quando a conexão tem mais de uma fila')).toBeInTheDocument()
    expect(writes(calls)).toHaveLength(0)
    await userEvent.type(screen.getByLabelText(/^Mensagem de saudação/), 'Olá! 1 Suporte, 2 Vendas')
    await save()
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const put = writes(calls)[0]!
    expect(put.method).toBe('PUT')
    expect(put.body).toMatchObject({ queueIds: [11, 12], greetingMessage: 'Olá! 1 Suporte, 2 Vendas' })
    expect(put.body).not.toHaveProperty('provider')
    expect(await screen.findByText('Conexão salva com sucesso!')).toBeInTheDocument()
  })

  test("a server field error lands on its field and the dialog shows that field's tab", async () => {
    mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/whatsapp/1': () => ({ body: makeConnection({ id: 1 }) }),
      'PUT /api/whatsapp/1': () => ({
        status: 400,
        body: {
          error: 'ERR_VALIDATION',
          message: 'invalid',
          fields: [{ field: 'collectiveVacationMessage', message: 'Too long for the server' }],
        },
      }),
    })
    const { onClose } = renderDialog(1)
    await screen.findByDisplayValue('Loja Centro')
    await save()
    await waitFor(() => expect(tab('Férias coletivas')).toHaveAttribute('aria-selected', 'true'))
    expect(screen.getByText('Too long for the server')).toBeInTheDocument()
    expect(onClose).not.toHaveBeenCalled()
  })

  test('ERR_WAPP_GREETING_REQUIRED from the server shows on the greeting field', async () => {
    mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/whatsapp/1': () => ({ body: makeConnection({ id: 1 }) }),
      'PUT /api/whatsapp/1': () => ({
        status: 400,
        body: {
          error: 'ERR_WAPP_GREETING_REQUIRED',
          message: 'A greeting is required',
          fields: [{ field: 'greetingMessage', message: 'A greeting is required' }],
        },
      }),
    })
    renderDialog(1)
    await screen.findByDisplayValue('Loja Centro')
    await userEvent.click(tab('Importar mensagens'))
    await save()
    await waitFor(() => expect(tab('Geral')).toHaveAttribute('aria-selected', 'true'))
    expect(
      (await screen.findAllByText('A mensagem de saudação é obrigatória quando há mais de uma fila.')).length,
    ).toBeGreaterThan(0)
    expect(screen.getByLabelText(/^Mensagem de saudação/)).toHaveAttribute('aria-invalid', 'true')
  })

  test('creating sends the provider; a server refusal of the sandbox lands on that field', async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'POST /api/whatsapp': () => ({
        status: 400,
        body: {
          error: 'ERR_VALIDATION',
          message: 'x',
          fields: [{ field: 'provider', message: 'The sandbox is not enabled on this server' }],
        },
      }),
    })
    renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Teste')
    await userEvent.click(screen.getByLabelText('Tipo de conexão'))
    await userEvent.click(await screen.findByRole('option', { name: 'Sandbox (simulado)' }))
    await save()
    expect(await screen.findByText('The sandbox is not enabled on this server')).toBeInTheDocument()
    expect(writes(calls)[0]?.body).toMatchObject({ name: 'Teste', provider: 'sandbox', maxUseBotQueues: 3 })
  })

  test('the name and the numbers are checked with the server schema and the spec messages', async () => {
    const calls = mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), '   ')
    await userEvent.click(tab('Filas e bot'))
    const max = screen.getByLabelText('Máximo de envios do menu')
    await userEvent.clear(max)
    await userEvent.type(max, '101')
    await save()
    // The first error's tab opens: the name, on Geral.
    await waitFor(() => expect(tab('Geral')).toHaveAttribute('aria-selected', 'true'))
    expect(screen.getByText('Obrigatório')).toBeInTheDocument()
    expect(tab('Filas e bot').querySelector('.bg-danger')).not.toBeNull()
    await userEvent.click(tab('Filas e bot'))
    expect(screen.getByText('Informe um número inteiro de 0 a 100')).toBeInTheDocument()
    expect(writes(calls)).toHaveLength(0)
  })

  test('on a --sandbox server a new connection defaults to the sandbox provider', async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/health': () => ({ body: { status: 'ok', version: '1', uptimeMs: 1, sandbox: true } }),
      'POST /api/whatsapp': (c) => ({ status: 201, body: makeConnection({ id: 5, ...(c.body as object) }) }),
    })
    const { onSaved } = renderDialog()
    await waitFor(() =>
      expect(screen.getByLabelText('Tipo de conexão')).toHaveTextContent('Sandbox (simulado)'),
    )
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Demo')
    await save()
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(writes(calls)[0]?.body).toMatchObject({ name: 'Demo', provider: 'sandbox' })
  })

  test('without the sandbox a new connection is a real WhatsApp one', async () => {
    mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/health': () => ({ body: { status: 'ok', version: '1', uptimeMs: 1, sandbox: false } }),
    })
    renderDialog()
    await new Promise((r) => setTimeout(r, 20))
    expect(screen.getByLabelText('Tipo de conexão')).toHaveTextContent('WhatsApp (Baileys)')
  })

  test('no token input: "Gerar novo token" asks first, then shows the new token with copy', async () => {
    const token = 'old-token-0123456789abcdefWXYZ'
    const fresh = 'new-token-9876543210zyxwvuABCD'
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/whatsapp/1': () => ({ body: makeConnection({ id: 1, token }) }),
      'POST /api/whatsapp/1/token': () => ({ body: makeConnection({ id: 1, token: fresh }) }),
    })
    renderDialog(1)
    await screen.findByDisplayValue('Loja Centro')
    await userEvent.click(tab('Integração'))
    expect(screen.queryByRole('textbox', { name: /Token/ })).toBeNull()
    expect(document.querySelector('input[name=token]')).toBeNull()
    expect(screen.getByTestId('token-masked')).toHaveTextContent(maskToken(token))
    expect(screen.queryByText(token)).toBeNull()

    await userEvent.click(screen.getByRole('button', { name: 'Gerar novo token' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(calls.some((c) => c.path.endsWith('/token'))).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Gerar' }))
    expect(await screen.findByTestId('new-token')).toHaveTextContent(fresh)
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/whatsapp/1/token'])
    expect(screen.getByText('Novo token gerado')).toBeInTheDocument() // the toast

    let copied = ''
    Object.defineProperty(navigator, 'clipboard', {
      value: {
        writeText: async (text: string) => {
          copied = text
        },
      },
      configurable: true,
    })
    await userEvent.click(
      within(screen.getByTestId('new-token')).getByRole('button', { name: 'Copiar token' }),
    )
    expect(copied).toBe(fresh)
    expect(await screen.findByText('Token copiado')).toBeInTheDocument()
    // Saving the form never sends a token.
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0)
  })

  test("the AI prompt select: the company's prompts, sent as promptId", async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/prompt': () => ({
        body: { prompts: [{ id: 3, name: 'Assistente IA' }], count: 1, hasMore: false },
      }),
      'POST /api/whatsapp': (c) => ({ status: 201, body: makeConnection({ id: 5, ...(c.body as object) }) }),
    })
    const { onSaved } = renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Loja IA')
    await userEvent.click(tab('Filas e bot'))
    const select = screen.getByLabelText('Prompt de IA')
    expect(select).toHaveTextContent('Nenhum')
    await userEvent.click(select)
    await userEvent.click(await screen.findByRole('option', { name: 'Assistente IA' }))
    await save()
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(writes(calls)[0]?.body).toMatchObject({ name: 'Loja IA', promptId: 3 })
  })

  test('LGPD tab: consent needs a message; the fields are sent', async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/whatsapp/1': () => ({ body: makeConnection({ id: 1 }) }),
      'PUT /api/whatsapp/1': (c) => ({ body: makeConnection({ id: 1, ...(c.body as object) }) }),
    })
    const { onSaved } = renderDialog(1)
    await screen.findByDisplayValue('Loja Centro')
    await userEvent.click(tab('LGPD'))
    await userEvent.click(screen.getByRole('switch', { name: /Enviar mensagem de LGPD/ }))
    await userEvent.click(screen.getByRole('switch', { name: /Exigir consentimento/ }))
    await userEvent.type(screen.getByLabelText(/^Link da política de privacidade/), 'ftp://x')
    await save()
    expect(await screen.findByText('Escreva a mensagem que o contato vai responder')).toBeInTheDocument()
    expect(screen.getByText('Informe um endereço http(s)')).toBeInTheDocument()
    expect(writes(calls)).toHaveLength(0)
    await userEvent.type(screen.getByLabelText(/^Mensagem de consentimento/), 'Podemos tratar seus dados?')
    const link = screen.getByLabelText(/^Link da política de privacidade/)
    await userEvent.clear(link)
    await userEvent.type(link, 'https://loja.example/privacidade')
    await save()
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(writes(calls)[0]!.body).toMatchObject({
      enableLGPD: true,
      lgpdConsent: true,
      lgpdMessage: 'Podemos tratar seus dados?',
      lgpdLink: 'https://loja.example/privacidade',
    })
  }, 20_000)

  test("hours tab: the connection's service hours with the queues' editor, sent as schedules", async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/whatsapp/1': () => ({ body: makeConnection({ id: 1 }) }),
      'PUT /api/whatsapp/1': (c) => ({ body: makeConnection({ id: 1, ...(c.body as object) }) }),
    })
    const { onSaved } = renderDialog(1)
    await screen.findByDisplayValue('Loja Centro')
    await userEvent.click(tab('Horários'))
    const start = screen.getByLabelText('Início de Segunda-feira')
    expect(start).toHaveValue('08:00')
    await userEvent.clear(start)
    await userEvent.type(start, '1400')
    await save()
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const sent = (writes(calls)[0]!.body as { schedules: { weekdayEn: string; startTime: string }[] })
      .schedules
    expect(sent.find((d) => d.weekdayEn === 'monday')!.startTime).toBe('14:00')
  }, 20_000)

  test('the dialog keeps one height across its tabs', async () => {
    mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    renderDialog()
    const panel = document.querySelector('[id^=headlessui-dialog-panel]')!
    expect(panel.className).toContain('sm:h-[min(90dvh,720px)]')
    expect(panel.className).not.toContain('sm:h-auto')
  })
})
