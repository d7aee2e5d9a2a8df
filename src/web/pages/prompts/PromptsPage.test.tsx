import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { QueueDto } from '../../../shared/api'
import type { PromptDto } from '../../../shared/prompts'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { EMPTY_PROMPT, promptBodyOf } from './PromptDialog'

const prompt = (id: number, name: string, extra: Partial<PromptDto> = {}): PromptDto => ({
  id,
  companyId: 7,
  name,
  prompt: 'Você é a assistente da loja.',
  queueId: 1,
  queue: { id: 1, name: 'Vendas' },
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  voice: 'texto',
  voiceKey: '',
  voiceKeySet: false,
  voiceRegion: '',
  apiKey: 'sk-…WXYZ',
  apiKeySet: true,
  baseUrl: '',
  model: '',
  createdAt: '',
  updatedAt: '',
  ...extra,
})

const queue = (id: number, name: string): QueueDto =>
  ({ id, name, color: '#0EA5E9', orderQueue: id, greetingMessage: '', schedules: [] }) as unknown as QueueDto

const ROWS = [
  prompt(1, 'Assistente de vendas', { maxTokens: 250 }),
  prompt(2, 'Suporte noturno', {
    queueId: 2,
    queue: { id: 2, name: 'Suporte' },
    apiKey: '',
    apiKeySet: false,
  }),
]

function serve(extra = {}) {
  return mockFetch({
    'GET /api/prompt': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = ROWS.filter((r) => r.name.toLowerCase().includes(term))
      return { body: { prompts: list, count: list.length, hasMore: false } }
    },
    'GET /api/prompt/:id': (c) => {
      const found = ROWS.find((r) => r.id === Number(c.path.split('/').pop()))
      return found ? { body: found } : { status: 404, body: { error: 'ERR_NO_PROMPT_FOUND' } }
    },
    'GET /api/queue': () => ({ body: [queue(1, 'Vendas'), queue(2, 'Suporte')] }),
    ...extra,
  })
}

describe('PromptsPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('the table shows name, queue and max tokens; a prompt without a key says so; search; the menu links it', async () => {
    const calls = serve()
    renderAt('/prompts')
    const table = await screen.findByRole('table', { name: 'Prompts de IA' })
    expect(within(table).getByText('Assistente de vendas')).toBeInTheDocument()
    expect(within(table).getByText('Suporte')).toBeInTheDocument()
    expect(within(table).getByText('250')).toBeInTheDocument()
    expect(within(table).getByText('Sem chave')).toBeInTheDocument()
    expect(screen.getByText('2 prompts')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Prompts de IA' })).toHaveAttribute('href', '/prompts')
    // no key is ever shown
    expect(document.body.textContent).not.toContain('sk-…WXYZ')
    await userEvent.type(screen.getByPlaceholderText('Pesquisar...'), 'notur')
    await waitFor(() => expect(calls.some((c) => c.query.get('searchParam') === 'notur')).toBe(true))
    await waitFor(() => expect(within(table).queryByText('Assistente de vendas')).toBeNull())
  })

  test('add: the queue is required (Informe o setor); the defaults are sent; the toast', async () => {
    const calls = serve({
      'POST /api/prompt': (c: { body: unknown }) => ({
        status: 201,
        body: prompt(9, (c.body as { name: string }).name),
      }),
    })
    renderAt('/prompts')
    await screen.findByText('Assistente de vendas')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar prompt' })[0]!)
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('spinbutton', { name: /Máximo de tokens/ })).toHaveValue(100)
    expect(within(dialog).getByRole('spinbutton', { name: /Temperatura/ })).toHaveValue(1)
    expect(within(dialog).getByRole('spinbutton', { name: /Máximo de mensagens/ })).toHaveValue(10)
    expect(within(dialog).getByRole('button', { name: 'Voz' })).toHaveTextContent('Texto')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'Atendente virtual')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Prompt/ }), 'Seja gentil.')
    await userEvent.type(within(dialog).getByLabelText(/Chave da API/), 'sk-new-key-1234567890')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Informe o setor')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Setor' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Suporte' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voz' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Francisca' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Prompt adicionado com sucesso.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Atendente virtual',
      prompt: 'Seja gentil.',
      queueId: 2,
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      voice: 'pt-BR-FranciscaNeural',
      voiceRegion: '',
      apiKey: 'sk-new-key-1234567890',
      baseUrl: '',
      model: '',
    })
  })

  test('edit: the stored key shows only masked and is kept unless replaced or removed', async () => {
    const calls = serve({
      'PUT /api/prompt/:id': (c: { body: unknown }) => ({ body: { ...ROWS[0]!, ...(c.body as object) } }),
    })
    renderAt('/prompts')
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: Assistente de vendas' }))
    const dialog = await screen.findByRole('dialog')
    const key = await within(dialog).findByLabelText(/Chave da API/)
    expect(key).toHaveValue('')
    expect(key).toHaveAttribute('placeholder', 'sk-…WXYZ')
    expect(within(dialog).getByText(/Chave guardada \(sk-…WXYZ\)/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await screen.findByText('Prompt editado com sucesso.')
    const first = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>
    expect('apiKey' in first && first.apiKey !== undefined).toBe(false)
    expect(first).toMatchObject({ name: 'Assistente de vendas', queueId: 1, maxTokens: 250 })
    // remove it
    await userEvent.click(screen.getByRole('button', { name: 'Editar: Assistente de vendas' }))
    const again = await screen.findByRole('dialog')
    await within(again).findByLabelText(/Chave da API/)
    await userEvent.click(within(again).getAllByRole('button', { name: 'Remover' })[0]!)
    expect(within(again).getByText('A chave será removida ao salvar.')).toBeInTheDocument()
    await userEvent.click(within(again).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2))
    expect((calls.filter((c) => c.method === 'PUT')[1]!.body as { apiKey: string }).apiKey).toBe('')
  })

  test('delete asks first, then removes; live create and delete', async () => {
    const calls = serve({ 'DELETE /api/prompt/:id': () => ({ body: { message: 'ok' } }) })
    renderAt('/prompts')
    const table = await screen.findByRole('table', { name: 'Prompts de IA' })
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: Suporte noturno' }))
    const confirm = await screen.findByRole('alertdialog')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Prompt excluído com sucesso.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/prompt/2')).toBe(true)
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-prompt',
          data: { action: 'create', prompt: prompt(5, 'Novo robô') },
        }),
      ),
    )
    expect(await within(table).findByText('Novo robô')).toBeInTheDocument()
    act(() =>
      dispatch(JSON.stringify({ event: 'company-7-prompt', data: { action: 'delete', promptId: 1 } })),
    )
    await waitFor(() => expect(within(table).queryByText('Assistente de vendas')).toBeNull())
  })

  test('without the plan flag: a message and no menu item', async () => {
    serve()
    resetState()
    signIn(makeUser({ company: { ...makeUser().company!, plan: { useOpenAi: false } as never } }))
    renderAt('/prompts')
    expect(await screen.findByText('O plano da sua empresa não inclui os prompts de IA.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Prompts de IA' })).toBeNull()
  })

  test('promptBodyOf: numbers parsed (comma decimals), keys left out unless typed or removed', () => {
    expect(
      promptBodyOf({
        ...EMPTY_PROMPT,
        name: ' A ',
        prompt: ' p ',
        queueId: 3,
        temperature: '0,7',
        maxTokens: '',
      }),
    ).toEqual({
      name: 'A',
      prompt: 'p',
      queueId: 3,
      maxTokens: 100,
      temperature: 0.7,
      maxMessages: 10,
      voice: 'texto',
      voiceKey: undefined,
      voiceRegion: '',
      apiKey: undefined,
      baseUrl: '',
      model: '',
    })
  })
})
