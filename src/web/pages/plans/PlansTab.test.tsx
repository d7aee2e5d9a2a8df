import { describe, expect, test } from 'bun:test'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { PlanDto } from '../../../shared/api'
import { PLAN_FLAGS } from '../../../shared/plans'
import { defaultSettings } from '../../../shared/settings'
import { type Call, livePageSuite, mockFetch, renderAt } from '../../test/utils'
import { formatBrl, parseBrl } from './money'

const plan = (id: number, name: string, extra: Partial<PlanDto> = {}): PlanDto => ({
  id,
  name,
  value: 99.9,
  users: 5,
  connections: 2,
  queues: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, true])) as Record<(typeof PLAN_FLAGS)[number], boolean>),
  ...extra,
})

const ROWS = [
  plan(1, 'Básico', { useCampaigns: false, useKanban: false, useOpenAi: false, useIntegrations: false }),
  plan(2, 'Empresarial', { value: 1234.5, users: 0, connections: 0 }),
]

function serve(extra = {}) {
  return mockFetch({
    'GET /api/settings': () => ({ body: defaultSettings() }),
    'GET /api/plans': () => ({ body: { plans: ROWS, count: ROWS.length, hasMore: false } }),
    ...extra,
  })
}

async function openTab() {
  renderAt('/settings')
  await userEvent.click(await screen.findByRole('tab', { name: 'Planos' }))
  return screen.findByRole('table', { name: 'Planos' })
}

const nbsp = (s: string) => s.replace(/\s/g, ' ')

describe('plan prices in BRL', () => {
  test('typed the Brazilian way or with a dot', () => {
    expect(parseBrl('99,90')).toBe(99.9)
    expect(parseBrl('99.90')).toBe(99.9)
    expect(parseBrl('R$ 1.234,56')).toBe(1234.56)
    expect(parseBrl('1,234.56')).toBe(1234.56)
    expect(parseBrl('1.234')).toBe(1234)
    expect(parseBrl('0')).toBe(0)
    expect(parseBrl('49')).toBe(49)
  })

  test('anything else is not a price', () => {
    for (const bad of ['', 'abc', '-5', '9,999', '1.23.4', '12,3,4', '99,9x', '1e3', '2000000'])
      expect(parseBrl(bad)).toBeNull()
  })

  test('shown with Intl pt-BR', () => {
    expect(nbsp(formatBrl(99.9))).toBe('R$ 99,90')
    expect(nbsp(formatBrl(1234.5))).toBe('R$ 1.234,50')
  })
})

describe('Settings: Plans tab', () => {
  livePageSuite({ id: 1, companyId: 1, profile: 'admin', super: true })

  test('lists price, limits (0 is Ilimitado) and the features as badges', async () => {
    serve()
    const table = await openTab()
    const basic = (await within(table).findByText('Básico')).closest('tr')!
    expect(nbsp(basic.textContent ?? '')).toContain('R$ 99,90/mês')
    expect(within(basic).getByText('Ilimitado')).toBeInTheDocument()
    expect(within(basic).getByText('WhatsApp')).toBeInTheDocument()
    expect(within(basic).getByText('Agendamentos')).toBeInTheDocument()
    expect(within(basic).queryByText('Campanhas')).toBeNull()
    const big = within(table).getByText('Empresarial').closest('tr')!
    expect(nbsp(big.textContent ?? '')).toContain('R$ 1.234,50')
    expect(within(big).getAllByText('Ilimitado')).toHaveLength(3)
    expect(within(big).getByText('Todos os recursos')).toBeInTheDocument()
  })

  test("add: '99,90' is sent as 99.9, with the limits and every flag", async () => {
    const calls = serve({
      'POST /api/plans': (c: Call) => ({ status: 201, body: plan(9, 'Pro', c.body as Partial<PlanDto>) }),
    })
    await openTab()
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar plano' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Obrigatório')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText(/^Nome/), 'Pro')
    const value = within(dialog).getByLabelText(/^Valor mensal/)
    await userEvent.clear(value)
    await userEvent.type(value, 'dez reais')
    expect(
      await within(dialog).findByText('Informe um valor em reais, por exemplo 99,90'),
    ).toBeInTheDocument()
    await userEvent.clear(value)
    await userEvent.type(value, '99,90')
    const users = within(dialog).getByLabelText(/^Usuários/)
    await userEvent.clear(users)
    await userEvent.type(users, '-1')
    expect(await within(dialog).findByText('Use um número inteiro de 0 a 100000')).toBeInTheDocument()
    await userEvent.clear(users)
    await userEvent.type(users, '10')
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Kanban' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>
    expect(body).toMatchObject({
      name: 'Pro',
      value: 99.9,
      users: 10,
      connections: 0,
      queues: 0,
      useKanban: false,
    })
    for (const f of PLAN_FLAGS) expect(typeof body[f]).toBe('boolean')
  }, 20_000)

  test('edit: a taken name shows under the field with the spec toast', async () => {
    const calls = serve({
      'PUT /api/plans/:id': () => ({
        status: 409,
        body: {
          error: 'ERR_PLAN_NAME_ALREADY_EXISTS',
          message: 'x',
          fields: [{ field: 'name', message: 'x' }],
        },
      }),
    })
    const table = await openTab()
    const row = (await within(table).findByText('Básico')).closest('tr')!
    await userEvent.click(within(row).getByRole('button', { name: 'Editar: Básico' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByLabelText(/^Valor mensal/)).toHaveValue('99,90')
    expect(within(dialog).getByRole('switch', { name: 'Campanhas' })).not.toBeChecked()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Já existe um plano com este nome.')).toBeInTheDocument()
    expect(
      await screen.findByText(
        'Não foi possível realizar a operação. Verifique se já existe um plano com o mesmo nome ou se os campos foram preenchidos corretamente',
      ),
    ).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ value: 99.9, useCampaigns: false })
  })

  test('a plan in use cannot be deleted, and the toast says why', async () => {
    serve({
      'DELETE /api/plans/:id': () => ({
        status: 409,
        body: { error: 'ERR_PLAN_IN_USE', message: '3 companies use this plan', details: { companies: 3 } },
      }),
    })
    const table = await openTab()
    const row = (await within(table).findByText('Básico')).closest('tr')!
    await userEvent.click(within(row).getByRole('button', { name: 'Excluir: Básico' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(within(confirm).getByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    await userEvent.click(within(confirm).getByRole('button', { name: /Excluir|Confirmar/ }))
    expect(
      await screen.findByText(
        'Este plano é usado por 3 empresas e não pode ser excluído. Mude as empresas de plano antes.',
      ),
    ).toBeInTheDocument()
    await waitFor(() => expect(within(table).getByText('Básico')).toBeInTheDocument())
  })
})
