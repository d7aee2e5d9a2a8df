import { afterEach, describe, expect, setSystemTime, test } from 'bun:test'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { CompanyDto, PlanDto } from '../../../shared/api'
import { NO_DUE_DATE, PLAN_FLAGS } from '../../../shared/plans'
import { defaultSettings } from '../../../shared/settings'
import { type Call, livePageSuite, mockFetch, renderAt } from '../../test/utils'
import { formOfCompany } from './CompanyDialog'
import { companyDueDays, dueTone } from './companiesList'

/** The fixed "today" of these tests (local time): 10 March 2026. */
const NOW = new Date(2026, 2, 10, 12, 0, 0)

export const plan = (id: number, name: string, extra: Partial<PlanDto> = {}): PlanDto => ({
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

const company = (id: number, name: string, extra: Partial<CompanyDto> = {}): CompanyDto => ({
  id,
  name,
  email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`,
  phone: '5511999990000',
  planId: 1,
  plan: { id: 1, name: 'Básico' },
  status: true,
  dueDate: '2026-04-10',
  trialExpiration: null,
  recurrence: 'MENSAL',
  document: null,
  lastLogin: null,
  counts: { users: 3, connections: 1, queues: 2 },
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  ...extra,
})

const ROWS = [
  company(7, 'Matriz', { dueDate: null }),
  company(2, 'Cinco dias', { dueDate: '2026-03-15' }),
  company(3, 'Quatro dias', { dueDate: '2026-03-14' }),
  company(4, 'Venceu há 3', { dueDate: '2026-03-07' }),
  company(5, 'Venceu há 4', { dueDate: '2026-03-06' }),
  company(6, 'Venceu há 5', { dueDate: '2026-03-05', status: false }),
  company(8, 'Seis dias', { dueDate: '2026-03-16' }),
]

function serve(rows: () => CompanyDto[] = () => ROWS, extra = {}) {
  return mockFetch({
    'GET /api/settings': () => ({ body: defaultSettings() }),
    'GET /api/plans/all': () => ({ body: [plan(1, 'Básico'), plan(2, 'Pro', { users: 0 })] }),
    'GET /api/companies': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = rows().filter((r) => r.name.toLowerCase().includes(term))
      return { body: { companies: list, count: list.length, hasMore: false } }
    },
    ...extra,
  })
}

async function openTab() {
  renderAt('/settings')
  await userEvent.click(await screen.findByRole('tab', { name: 'Empresas' }))
  return screen.findByRole('table', { name: 'Empresas' })
}

const rowOf = async (table: HTMLElement, name: string) =>
  (await within(table).findByText(name)).closest('tr')!

describe('dueTone (spec: exactly 5 yellow, -3 to 4 orange, exactly -4 red)', () => {
  test('each day from -6 to 7', () => {
    const tones = [-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7].map(dueTone)
    expect(tones).toEqual([
      null,
      null,
      'red',
      'orange',
      'orange',
      'orange',
      'orange',
      'orange',
      'orange',
      'orange',
      'orange',
      'yellow',
      null,
      null,
    ])
    expect(dueTone(null)).toBeNull()
  })

  test('days are counted on the local calendar, whatever the hour', () => {
    expect(companyDueDays({ dueDate: '2026-03-15' }, new Date(2026, 2, 10, 0, 1))).toBe(5)
    expect(companyDueDays({ dueDate: '2026-03-15' }, new Date(2026, 2, 10, 23, 59))).toBe(5)
    expect(companyDueDays({ dueDate: null })).toBeNull()
  })

  test('the API\'s far-ahead date for "no due date" reads as none: no days, an empty field in the dialog', () => {
    expect(companyDueDays({ dueDate: NO_DUE_DATE })).toBeNull()
    const none = { id: 7, name: 'Matriz', dueDate: NO_DUE_DATE, recurrence: 'MENSAL' } as CompanyDto
    expect(formOfCompany(none).dueDate).toBe('')
  })
})

describe('Settings: Companies tab', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin', super: true })
  afterEach(() => setSystemTime())

  test('only super users have the Companies, Plans and Platform tabs, in the spec order', async () => {
    serve()
    renderAt('/settings')
    await screen.findByRole('tab', { name: 'Empresas' })
    const names = screen.getAllByRole('tab').map((tab) => tab.textContent)
    expect(names.indexOf('Empresas')).toBeGreaterThan(names.indexOf('Opções'))
    expect(names.indexOf('Planos')).toBe(names.indexOf('Empresas') + 1)
    expect(names.indexOf('Plataforma')).toBe(names.length - 1)
  })

  test('rows are tinted by the days to the due date, with the state in words', async () => {
    setSystemTime(NOW)
    serve()
    const table = await openTab()
    const tone = async (name: string) => {
      const row = await rowOf(table, name)
      return {
        cls: row.className,
        badge: row.querySelector('[data-due-tone]')?.getAttribute('data-due-tone'),
        text: row.textContent ?? '',
      }
    }
    const five = await tone('Cinco dias')
    expect(five.cls).toContain('bg-yellow-400/15')
    expect(five.badge).toBe('yellow')
    expect(five.text).toContain('Vence em 5 dias')
    expect(five.text).toContain('15/03/2026')
    const four = await tone('Quatro dias')
    expect(four.cls).toContain('bg-orange-500/15')
    expect(four.text).toContain('Vence em 4 dias')
    const minus3 = await tone('Venceu há 3')
    expect(minus3.cls).toContain('bg-orange-500/15')
    expect(minus3.text).toContain('Venceu há 3 dias')
    const minus4 = await tone('Venceu há 4')
    expect(minus4.cls).toContain('bg-red-500/15')
    expect(minus4.badge).toBe('red')
    const minus5 = await tone('Venceu há 5')
    expect(minus5.cls).not.toMatch(/bg-(yellow|orange|red)/)
    expect(minus5.text).toContain('Venceu há 5 dias')
    expect(minus5.text).toContain('Inativa')
    const six = await tone('Seis dias')
    expect(six.cls).not.toMatch(/bg-(yellow|orange|red)/)
    const platform = await rowOf(table, 'Matriz')
    expect(within(platform).getByText('Plataforma')).toBeInTheDocument()
    expect(platform.textContent).toContain('Sem vencimento')
    // The platform company: no '+ Vencimento' (no due date), no delete.
    expect(within(platform).queryByRole('button', { name: /\+ Vencimento/ })).toBeNull()
    expect(within(platform).queryByRole('button', { name: /Excluir/ })).toBeNull()
  })

  test('the plan column shows what the company uses of its limits', async () => {
    serve()
    const table = await openTab()
    const row = await rowOf(table, 'Cinco dias')
    expect(within(row).getByText('Básico')).toBeInTheDocument()
    expect(within(row).getByText('Usuários: 3 de 5')).toBeInTheDocument()
    expect(within(row).getByText('Conexões: 1 de 2')).toBeInTheDocument()
    expect(within(row).getByText('Filas: 2 de ilimitado')).toBeInTheDocument()
    expect(screen.getByText('7 empresas')).toBeInTheDocument()
  })

  test("'+ Vencimento' calls the endpoint, moves the row's date and says the new one", async () => {
    setSystemTime(NOW)
    const calls = serve(undefined, {
      'POST /api/companies/:id/extend': () => ({ body: company(2, 'Cinco dias', { dueDate: '2026-04-15' }) }),
    })
    const table = await openTab()
    const row = await rowOf(table, 'Cinco dias')
    await userEvent.click(within(row).getByRole('button', { name: '+ Vencimento: Cinco dias' }))
    expect(await screen.findByText('Vencimento adiado para 15/04/2026.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/companies/2/extend')).toBe(true)
    const moved = await rowOf(table, 'Cinco dias')
    await waitFor(() => expect(moved.textContent).toContain('15/04/2026'))
    expect(moved.textContent).toContain('Vence em 36 dias')
    expect(moved.className).not.toMatch(/bg-(yellow|orange|red)/)
  })

  test('add: the spec messages for the company and its first user, then POST and the toast', async () => {
    const calls = serve(undefined, {
      'POST /api/companies': (c: Call) => ({
        status: 201,
        body: company(20, 'Nova', { ...(c.body as object), counts: { users: 1, connections: 0, queues: 0 } }),
      }),
    })
    await openTab()
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar empresa' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    const field = (label: RegExp) => within(dialog).getByLabelText(label)
    const errorOf = (el: HTMLElement) =>
      el.closest('div.flex-col')?.querySelector('[role="alert"]')?.textContent ?? null
    await waitFor(() => expect(errorOf(field(/^Nome\*?$/))).toBe('Obrigatório'))
    expect(errorOf(field(/^E-mail/))).toBe('Obrigatório')
    expect(errorOf(field(/^Nome do usuário/))).toBe('Obrigatório')
    expect(errorOf(field(/^Senha/))).toBe('Obrigatório')
    expect(within(dialog).getAllByText('Obrigatório').length).toBeGreaterThanOrEqual(5)
    await userEvent.type(field(/^Nome\*?$/), 'Nova')
    await userEvent.type(field(/^E-mail/), 'nao-e-email')
    await userEvent.type(field(/^Nome do usuário/), 'A')
    await userEvent.type(field(/^Senha/), '1234')
    expect(errorOf(field(/^E-mail/))).toBe('E-mail inválido')
    expect(errorOf(field(/^Nome do usuário/))).toBe('Muito curto!')
    // The one password rule, in the spec's reset wording.
    expect(errorOf(field(/^Senha/))).toBe(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    )
    await userEvent.clear(field(/^E-mail/))
    await userEvent.type(field(/^E-mail/), 'dona@nova.com')
    await userEvent.type(field(/^Nome do usuário/), 'na Souza')
    await userEvent.type(field(/^Senha/), '5Abcd')
    await userEvent.click(within(dialog).getByRole('button', { name: /^Plano/ }))
    await userEvent.click(await screen.findByRole('option', { name: /Pro/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: /^Recorrência/ }))
    await userEvent.click(await screen.findByRole('option', { name: 'Trimestral' }))
    await userEvent.type(field(/^Vencimento/), '2026-05-01')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Nova',
      email: 'dona@nova.com',
      phone: null,
      planId: 2,
      status: true,
      dueDate: '2026-05-01',
      recurrence: 'TRIMESTRAL',
      document: null,
      userName: 'Ana Souza',
      password: '12345Abcd',
    })
    expect(await screen.findByText('Nova')).toBeInTheDocument()
  }, 20_000)

  test('a taken name shows under the field and the spec toast; an empty due date is sent as null', async () => {
    const calls = serve(undefined, {
      'GET /api/companies/:id': () => ({ body: company(3, 'Quatro dias', { dueDate: '2026-03-14' }) }),
      'PUT /api/companies/:id': () => ({
        status: 409,
        body: {
          error: 'ERR_COMPANY_NAME_ALREADY_EXISTS',
          message: 'Another company has this name',
          fields: [{ field: 'name', message: 'Another company has this name' }],
        },
      }),
    })
    const table = await openTab()
    await userEvent.click(
      within(await rowOf(table, 'Quatro dias')).getByRole('button', { name: 'Editar: Quatro dias' }),
    )
    const dialog = await screen.findByRole('dialog')
    const due = await within(dialog).findByLabelText(/^Vencimento/)
    expect(due).toHaveValue('2026-03-14')
    // Editing has no first-user section.
    expect(within(dialog).queryByLabelText(/^Senha/)).toBeNull()
    await userEvent.clear(due)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Já existe uma empresa com este nome.')).toBeInTheDocument()
    expect(
      await screen.findByText(
        'Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente',
      ),
    ).toBeInTheDocument()
    const put = calls.find((c) => c.method === 'PUT')!
    expect((put.body as { dueDate: unknown }).dueDate).toBeNull()
    expect(put.body).not.toHaveProperty('password')
  })

  test("delete asks with the spec's confirmation; a failure shows the spec's message", async () => {
    let fail = true
    const calls = serve(undefined, {
      'DELETE /api/companies/:id': () =>
        fail ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } } : { body: { message: 'ok' } },
    })
    const table = await openTab()
    await userEvent.click(
      within(await rowOf(table, 'Seis dias')).getByRole('button', { name: 'Excluir: Seis dias' }),
    )
    let confirm = await screen.findByRole('alertdialog')
    expect(within(confirm).getByText('Exclusão de Registro')).toBeInTheDocument()
    expect(within(confirm).getByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    await userEvent.click(within(confirm).getByRole('button', { name: /Excluir|Confirmar/ }))
    expect(await screen.findByText('Não foi possível realizar a operação')).toBeInTheDocument()
    // The confirmation stays open after a failure: the user may try again.
    fail = false
    confirm = await screen.findByRole('alertdialog')
    await userEvent.click(within(confirm).getByRole('button', { name: /Excluir|Confirmar/ }))
    expect(await screen.findByText('Empresa excluída com sucesso.')).toBeInTheDocument()
    await waitFor(() => expect(within(table).queryByText('Seis dias')).toBeNull())
    expect(calls.filter((c) => c.method === 'DELETE' && c.path === '/api/companies/8')).toHaveLength(2)
  })

  test("a list that cannot load says the spec's message", async () => {
    serve(undefined, {
      'GET /api/companies': () => ({ status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } }),
    })
    renderAt('/settings')
    await userEvent.click(await screen.findByRole('tab', { name: 'Empresas' }))
    expect(await screen.findByText('Não foi possível carregar a lista de registros')).toBeInTheDocument()
  })
})

describe('Settings: tabs of a company admin', () => {
  livePageSuite({ id: 2, companyId: 7, profile: 'admin', super: false })

  test('an admin who is not super has none of the platform tabs', async () => {
    serve()
    renderAt('/settings')
    await screen.findByRole('tab', { name: 'Opções' })
    expect(screen.queryByRole('tab', { name: 'Empresas' })).toBeNull()
    expect(screen.queryByRole('tab', { name: 'Planos' })).toBeNull()
    expect(screen.queryByRole('tab', { name: 'Plataforma' })).toBeNull()
  })
})
