import { describe, expect, test } from 'bun:test'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { parseDailyLimit, parseSendWindow, variableKeyErrors } from './CampaignSettingsPage'

const DEFAULTS = [
  { key: 'messageInterval', value: 20 },
  { key: 'longerIntervalAfter', value: 20 },
  { key: 'greaterInterval', value: 60 },
  { key: 'dailyLimit', value: null },
  { key: 'sendWindow', value: null },
  { key: 'variables', value: [] },
]

function serve(items: unknown = DEFAULTS) {
  return mockFetch({
    'GET /api/campaign-settings': () => ({ body: items }),
    'POST /api/campaign-settings': (c) => {
      const s = (c.body as { settings: Record<string, unknown> }).settings
      return { body: Object.entries(s).map(([key, value]) => ({ key, value })) }
    },
  })
}

describe('CampaignSettingsPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('the three intervals with the spec defaults; the menu links it', async () => {
    serve()
    renderAt('/campaigns-config')
    expect(await screen.findByRole('button', { name: /Intervalo randômico de disparo/ })).toHaveTextContent(
      '20 segundos',
    )
    expect(screen.getByRole('button', { name: /Intervalo maior após/ })).toHaveTextContent('20 mensagens')
    expect(screen.getByRole('button', { name: /Intervalo de disparo maior/ })).toHaveTextContent(
      '60 segundos',
    )
    expect(screen.getByText('Nenhuma variável ainda.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ajustes de campanhas' })).toHaveAttribute(
      'href',
      '/campaigns-config',
    )
  })

  test('the options are the spec lists', async () => {
    serve()
    renderAt('/campaigns-config')
    await userEvent.click(await screen.findByRole('button', { name: /Intervalo randômico de disparo/ }))
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent)
    expect(options).toEqual(['Sem intervalo', '5 segundos', '10 segundos', '15 segundos', '20 segundos'])
    await userEvent.keyboard('{Escape}')
    await userEvent.click(screen.getByRole('button', { name: /Intervalo de disparo maior/ }))
    expect((await screen.findAllByRole('option')).length).toBe(12)
  })

  test('change an interval, add variables (unique keys), save: POST { settings } and the toast', async () => {
    const calls = serve()
    renderAt('/campaigns-config')
    await userEvent.click(await screen.findByRole('button', { name: /Intervalo randômico de disparo/ }))
    await userEvent.click(await screen.findByRole('option', { name: '5 segundos' }))
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar variável' }))
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar variável' }))
    const keys = screen.getAllByRole('textbox', { name: 'Chave' })
    const values = screen.getAllByRole('textbox', { name: 'Conteúdo' })
    await userEvent.type(keys[0]!, 'loja')
    await userEvent.type(values[0]!, 'Centro')
    await userEvent.type(keys[1]!, 'loja')
    expect(await screen.findByText('Já existe uma variável com esta chave.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.clear(keys[1]!)
    await userEvent.type(keys[1]!, 'cupom')
    await userEvent.type(values[1]!, 'BF10')
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação atualizada com sucesso.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      settings: {
        messageInterval: 5,
        longerIntervalAfter: 20,
        greaterInterval: 60,
        dailyLimit: null,
        sendWindow: null,
        variables: [
          { key: 'loja', value: 'Centro' },
          { key: 'cupom', value: 'BF10' },
        ],
      },
    })
  })

  test('remove a variable; an empty key is pointed out on save', async () => {
    const calls = serve([...DEFAULTS.slice(0, 5), { key: 'variables', value: [{ key: 'a', value: '1' }] }])
    renderAt('/campaigns-config')
    expect(await screen.findByDisplayValue('a')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Remover variável a' }))
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar variável' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Obrigatório')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: /Remover variável/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toBeDefined())
    const posted = calls.find((c) => c.method === 'POST')!.body as { settings: { variables: unknown[] } }
    expect(posted.settings.variables).toEqual([])
  })

  test('daily limit: empty is the warm-up (explained); a whole number 1..10000 is saved, anything else is pointed out', async () => {
    const calls = serve()
    renderAt('/campaigns-config')
    const limit = await screen.findByRole('textbox', { name: 'Limite diário por conexão' })
    expect(limit).toHaveValue('')
    expect(limit).toHaveAttribute('placeholder', 'Aquecimento automático')
    expect(
      screen.getByText(/Vazio: aquecimento automático, 50 no primeiro dia .* mais 50 .* até 500\./),
    ).toBeInTheDocument()
    await userEvent.type(limit, '0')
    expect(await screen.findByText('Um número inteiro de 1 a 10000, ou vazio.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.clear(limit)
    await userEvent.type(limit, '10001')
    expect(screen.getByText('Um número inteiro de 1 a 10000, ou vazio.')).toBeInTheDocument()
    await userEvent.clear(limit)
    await userEvent.type(limit, '120')
    expect(screen.queryByText('Um número inteiro de 1 a 10000, ou vazio.')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toBeDefined())
    const posted = calls.find((c) => c.method === 'POST')!.body as { settings: Record<string, unknown> }
    expect(posted.settings).toMatchObject({ dailyLimit: 120, sendWindow: null })
  })

  test('sending window: off by default; on, two times (across midnight allowed) are saved; off again sends null', async () => {
    const calls = serve([
      ...DEFAULTS.slice(0, 3),
      { key: 'dailyLimit', value: 300 },
      { key: 'sendWindow', value: null },
      DEFAULTS[5],
    ])
    renderAt('/campaigns-config')
    const toggle = await screen.findByRole('switch', { name: 'Janela de envio' })
    expect(screen.getByRole('textbox', { name: 'Limite diário por conexão' })).toHaveValue('300')
    expect(toggle).not.toBeChecked()
    expect(screen.getByText('Desligada: as campanhas enviam a qualquer hora.')).toBeInTheDocument()
    expect(screen.queryByLabelText('Início')).toBeNull()
    await userEvent.click(toggle)
    const start = screen.getByLabelText('Início')
    const end = screen.getByLabelText('Fim')
    expect(screen.getByText(/atravessa a meia-noite/)).toBeInTheDocument()
    fireEvent.change(start, { target: { value: '22:00' } })
    fireEvent.change(end, { target: { value: '22:00' } })
    expect(await screen.findByText('Informe dois horários diferentes (HH:MM).')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    fireEvent.change(end, { target: { value: '06:00' } })
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1))
    const body = (n: number) =>
      (calls.filter((c) => c.method === 'POST')[n]!.body as { settings: Record<string, unknown> }).settings
    expect(body(0)).toMatchObject({ dailyLimit: 300, sendWindow: { start: '22:00', end: '06:00' } })
    // The saved window comes back on; switched off it is saved as null (any hour).
    const again = await screen.findByRole('switch', { name: 'Janela de envio' })
    expect(again).toBeChecked()
    expect(screen.getByLabelText('Início')).toHaveValue('22:00')
    await userEvent.click(again)
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2))
    expect(body(1)).toMatchObject({ dailyLimit: 300, sendWindow: null })
  })

  test('parseDailyLimit and parseSendWindow', () => {
    expect(['', ' ', '1', '10000', '0', '10001', '1.5', '-3', 'abc'].map(parseDailyLimit)).toEqual([
      null,
      null,
      1,
      10000,
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ])
    expect(parseSendWindow(false, 'x', 'y')).toBeNull()
    expect(parseSendWindow(true, '22:00', '06:00')).toEqual({ start: '22:00', end: '06:00' })
    expect(parseSendWindow(true, '08:00', '08:00')).toBe('invalid')
    expect(parseSendWindow(true, '', '08:00')).toBe('invalid')
    expect(parseSendWindow(true, '24:00', '08:00')).toBe('invalid')
  })

  test('another admin’s save arrives live', async () => {
    serve()
    renderAt('/campaigns-config')
    await screen.findByRole('button', { name: /Intervalo randômico de disparo/ })
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-campaignSettings',
          data: { action: 'update', settings: [{ key: 'messageInterval', value: 10 }] },
        }),
      ),
    )
    expect(await screen.findByRole('button', { name: /Intervalo randômico de disparo/ })).toHaveTextContent(
      '10 segundos',
    )
  })

  test('an attendant neither sees the menu item nor the screen', async () => {
    serve()
    resetState()
    signIn(makeUser({ id: 2, profile: 'user' }))
    renderAt('/campaigns-config')
    expect(await screen.findByText('Você não tem permissão para acessar este recurso.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Ajustes de campanhas' })).toBeNull()
  })

  test('variableKeyErrors: required, one word, unique', () => {
    expect(
      variableKeyErrors([{ key: '' }, { key: 'a b' }, { key: 'x' }, { key: ' x ' }, { key: '{y}' }]),
    ).toEqual(['required', 'invalid', null, 'taken', 'invalid'])
  })
})
