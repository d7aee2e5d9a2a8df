import { describe, expect, jest, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import type { CheckoutResponse, InvoiceDto } from '../../../shared/invoices'
import { dispatch } from '../../api/live'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'
import { billingErrors } from './CheckoutDialog'
import { localToday } from './FinanceiroPage'

function Where() {
  const at = useLocation()
  return <output data-testid="where">{at.pathname}</output>
}

const plusDays = (days: number) => {
  const d = new Date()
  d.setDate(d.getDate() + days)
  return localToday(d)
}

const invoice = (id: number, extra: Partial<InvoiceDto> = {}): InvoiceDto => ({
  id,
  companyId: 7,
  detail: 'Plano Ouro — mensal',
  value: 99.9,
  dueDate: plusDays(5),
  status: 'open',
  paidAt: null,
  txid: `BLC7D${id}`,
  plan: { id: 2, name: 'Ouro', value: 99.9 },
  recurrence: 'MENSAL',
  createdAt: '',
  updatedAt: '',
  ...extra,
})

const ROWS = [
  invoice(3, { dueDate: plusDays(5) }),
  invoice(2, { dueDate: plusDays(-3), detail: 'Plano Ouro — atrasada' }),
  invoice(1, { dueDate: plusDays(-33), status: 'paid', paidAt: '2026-10-20T10:00:00.000Z' }),
  invoice(4, { dueDate: plusDays(-2), status: 'void', detail: 'Plano Ouro — cancelada' }),
]

/** A real BR Code (the Pix manual's static example). */
const BR_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
  '5913Fulano de Tal6008BRASILIA62070503***63041D3D'

function serve(extra = {}) {
  return mockFetch({
    'GET /api/invoices/all': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = ROWS.filter((r) => r.detail.toLowerCase().includes(term))
      return { body: { invoices: list, count: list.length, hasMore: false } }
    },
    ...extra,
  })
}

const rowOf = (table: HTMLElement, id: number) =>
  within(table)
    .getAllByRole('row')
    .find((r) => within(r).queryAllByRole('cell')[0]?.textContent === String(id))!

describe('FinanceiroPage', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'admin' })

  test("the table shows the spec's columns and statuses: Pago, Vencido (reddish row), Em Aberto; PAGAR unless paid", async () => {
    serve()
    renderAt('/financeiro')
    const table = await screen.findByRole('table', { name: 'Faturas' })
    await within(table).findByText('Plano Ouro — atrasada')
    for (const header of ['Id', 'Detalhes', 'Valor', 'Data Venc.', 'Status', 'Ação'])
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument()
    const open = rowOf(table, 3)
    const overdue = rowOf(table, 2)
    const paid = rowOf(table, 1)
    expect(within(open).getByText('Em Aberto')).toBeInTheDocument()
    expect(within(open).getByText('R$ 99,90')).toBeInTheDocument()
    expect(within(overdue).getByText('Vencido')).toBeInTheDocument()
    expect(within(paid).getByText('Pago')).toBeInTheDocument()
    expect(overdue.className).toContain('bg-danger-soft')
    expect(open.className).not.toContain('bg-danger-soft')
    expect(within(open).getByRole('button', { name: 'PAGAR' })).toBeInTheDocument()
    expect(within(overdue).getByRole('button', { name: 'PAGAR' })).toBeInTheDocument()
    expect(within(paid).queryByRole('button', { name: 'PAGAR' })).toBeNull()
    // A void invoice (the company's due date changed since) cannot be paid, and is not overdue either.
    const cancelled = rowOf(table, 4)
    expect(within(cancelled).getByText('Cancelada')).toBeInTheDocument()
    expect(within(cancelled).queryByText('Vencido')).toBeNull()
    expect(cancelled.className).not.toContain('bg-danger-soft')
    expect(within(cancelled).queryByRole('button', { name: 'PAGAR' })).toBeNull()
    expect(screen.getByText('4 faturas')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Financeiro' })).toHaveAttribute('href', '/financeiro')
    expect(screen.getByRole('link', { name: 'Assinatura' })).toHaveAttribute('href', '/subscription')
  })

  test('an empty list says when invoices appear; a live invoice joins the table', async () => {
    mockFetch({ 'GET /api/invoices/all': () => ({ body: { invoices: [], count: 0, hasMore: false } }) })
    renderAt('/financeiro')
    expect(await screen.findByText('Nenhuma fatura ainda')).toBeInTheDocument()
    act(() =>
      dispatch(
        JSON.stringify({ event: 'company-7-invoice', data: { action: 'create', record: invoice(9) } }),
      ),
    )
    expect(await screen.findAllByText('Plano Ouro — mensal')).not.toHaveLength(0)
  })

  test('checkout: starts on Personalizar; step 1 messages; PAGAR posts /subscription and shows the Pix screen', async () => {
    const pix: CheckoutResponse = {
      txid: 'BLC7D3',
      status: 'ATIVA',
      chave: '123e4567-e12b-12d1-a456-426655440000',
      valor: { original: '99.90' },
      qrcode: { qrcode: BR_CODE },
      solicitacaoPagador: 'Fatura 3',
      invoice: ROWS[0]!,
    }
    const calls = serve({ 'POST /api/subscription': () => ({ body: pix }) })
    renderAt('/financeiro')
    const table = await screen.findByRole('table', { name: 'Faturas' })
    await userEvent.click(within(rowOf(table, 3)).getByRole('button', { name: 'PAGAR' }))
    const dialog = await screen.findByRole('dialog')
    const current = () => dialog.querySelector('[aria-current="step"]')?.textContent
    expect(current()).toContain('Personalizar')
    expect(within(dialog).getByText('Ouro')).toBeInTheDocument()

    // Back to Dados: every required field empty shows the spec's messages, and Next stays.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }))
    expect(current()).toContain('Dados')
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Nome completo/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    for (const message of [
      'O nome completo é obrigatório',
      'O Endereço é obrigatório',
      'Cidade é obrigatória',
      'CEP é obrigatório',
    ])
      expect(within(dialog).getByText(message)).toBeInTheDocument()
    expect(current()).toContain('Dados')

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome completo/ }), 'Ana Souza')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Endereço/ }), 'Rua das Flores, 10')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Cidade/ }), 'Recife')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /CEP/ }), '50000-000')
    expect(within(dialog).queryByText('CEP é obrigatório')).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    expect(current()).toContain('Personalizar')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    expect(current()).toContain('Revisar')
    expect(within(dialog).getByText('Rua das Flores, 10')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await userEvent.click(within(dialog).getByRole('button', { name: 'PAGAR' }))
    const pixDialog = await screen.findByRole('dialog', { name: 'Pague com Pix' })
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/subscription')!
    expect(post.body).toEqual({
      firstName: 'Ana Souza',
      address2: 'Rua das Flores, 10',
      city: 'Recife',
      state: '',
      zipcode: '50000-000',
      country: 'BR',
      invoiceId: 3,
    })
    expect(within(pixDialog).getByTestId('qrcode')).toBeInTheDocument()
    expect(within(pixDialog).getByText('R$ 99,90')).toBeInTheDocument()
    expect(within(pixDialog).getByRole('textbox', { name: 'Pix copia e cola' })).toHaveValue(BR_CODE)
    expect(
      await screen.findByText('Assinatura realizada com sucesso!, aguardando a realização do pagamento'),
    ).toBeInTheDocument()

    const writeText = jest.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await userEvent.click(within(pixDialog).getByRole('button', { name: 'Copiar código' }))
    expect(writeText).toHaveBeenCalledWith(BR_CODE)
    expect(await screen.findByText('Código Pix copiado!')).toBeInTheDocument()
  })

  test('a server refusal (no Pix configured) is a toast and the dialog stays', async () => {
    serve({
      'POST /api/subscription': () => ({
        status: 503,
        body: { error: 'ERR_PIX_NOT_CONFIGURED', message: 'Pix payments are not configured' },
      }),
    })
    renderAt('/financeiro')
    const table = await screen.findByRole('table', { name: 'Faturas' })
    await userEvent.click(within(rowOf(table, 3)).getByRole('button', { name: 'PAGAR' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Endereço/ }), 'Rua A')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Cidade/ }), 'Recife')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /CEP/ }), '50000')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'PAGAR' }))
    expect(
      await screen.findByText(
        'O pagamento por Pix ainda não foi configurado pela plataforma. Fale com o suporte.',
      ),
    ).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'PAGAR' })).toBeInTheDocument()
  })

  test("PAGAR with step 1 left incomplete goes back to Dados with the spec's messages", async () => {
    const calls = serve()
    renderAt('/financeiro')
    const table = await screen.findByRole('table', { name: 'Faturas' })
    await userEvent.click(within(rowOf(table, 2)).getByRole('button', { name: 'PAGAR' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'PAGAR' }))
    expect(await within(dialog).findByText('O Endereço é obrigatório')).toBeInTheDocument()
    expect(dialog.querySelector('[aria-current="step"]')?.textContent).toContain('Dados')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  test("a live CONCLUIDA shows 'Sua licença foi renovada até {date}!' and goes to / after 4 s", async () => {
    serve({
      'POST /api/subscription': () => ({
        body: {
          txid: 'x',
          status: 'ATIVA',
          chave: 'k',
          valor: { original: '99.90' },
          qrcode: { qrcode: BR_CODE },
          solicitacaoPagador: 'Fatura 3',
          invoice: ROWS[0],
        },
      }),
    })
    renderAt('/financeiro', <Where />)
    const table = await screen.findByRole('table', { name: 'Faturas' })
    await userEvent.click(within(rowOf(table, 3)).getByRole('button', { name: 'PAGAR' }))
    let dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Endereço/ }), 'Rua A')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Cidade/ }), 'Recife')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /CEP/ }), '50000')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'PAGAR' }))
    dialog = await screen.findByRole('dialog', { name: 'Pague com Pix' })
    jest.useFakeTimers()
    try {
      // Another company's event or another action changes nothing.
      act(() =>
        dispatch(
          JSON.stringify({
            event: 'company-8-payment',
            data: { action: 'CONCLUIDA', company: { id: 8, dueDate: '2027-01-01' } },
          }),
        ),
      )
      expect(within(dialog).queryByText(/Sua licença foi renovada/)).toBeNull()
      act(() =>
        dispatch(
          JSON.stringify({
            event: 'company-7-payment',
            data: { action: 'CONCLUIDA', company: { id: 7, dueDate: '2026-12-25' } },
          }),
        ),
      )
      expect(within(dialog).getByText('Sua licença foi renovada até 25/12/2026!')).toBeInTheDocument()
      act(() => jest.advanceTimersByTime(3999))
      expect(screen.getByTestId('where')).toHaveTextContent('/financeiro')
      act(() => jest.advanceTimersByTime(1))
      expect(screen.getByTestId('where')).not.toHaveTextContent('/financeiro')
    } finally {
      jest.useRealTimers()
    }
    await waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(/^\/(tickets)?$/))
  })

  test('billingErrors: every rule of step 1, country included', () => {
    expect(
      billingErrors({ firstName: ' ', address2: '', city: '', state: '', zipcode: '', country: '' }),
    ).toEqual({
      firstName: 'billing.checkout.fullNameRequired',
      address2: 'billing.checkout.addressRequired',
      city: 'billing.checkout.cityRequired',
      zipcode: 'billing.checkout.zipRequired',
      country: 'billing.checkout.countryRequired',
    })
    expect(
      billingErrors({ firstName: 'A', address2: 'B', city: 'C', state: '', zipcode: 'D', country: 'usa' }),
    ).toEqual({})
  })
})

describe('FinanceiroPage for the super user', () => {
  livePageSuite({ id: 1, companyId: 1, profile: 'admin', super: true })

  test("every company's invoices; 'Marcar como paga' asks first, then PUT {status: 'paid'}", async () => {
    const rows = [invoice(5, { companyId: 2, company: { id: 2, name: 'Alpha' } })]
    const calls = mockFetch({
      'GET /api/invoices': () => ({ body: { invoices: rows, count: 1, hasMore: false } }),
      'PUT /api/invoices/:id': () => ({ body: { ...rows[0], status: 'paid', company: undefined } }),
    })
    renderAt('/financeiro')
    const table = await screen.findByRole('table', { name: 'Faturas' })
    const row = await within(table).findByText('Alpha')
    const tr = row.closest('tr')!
    expect(within(tr).queryByRole('button', { name: 'PAGAR' })).toBeNull()
    await userEvent.click(within(tr).getByRole('button', { name: 'Marcar como paga' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Marcar como paga' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'paid' }))
    expect(await within(tr).findByText('Pago')).toBeInTheDocument()
    expect(within(tr).getByText('Alpha')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Assinatura' })).toBeNull()
  })
})
