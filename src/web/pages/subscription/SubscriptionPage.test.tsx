import { describe, expect, test } from 'bun:test'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { SubscriptionDto } from '../../../shared/invoices'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'
import { localToday } from '../financeiro/FinanceiroPage'

const inDays = (days: number) => {
  const d = new Date()
  d.setDate(d.getDate() + days)
  return localToday(d)
}

const subscription = (extra: Partial<SubscriptionDto> = {}): SubscriptionDto => ({
  company: {
    id: 7,
    name: 'Alpha',
    email: 'financeiro@alpha.test',
    dueDate: inDays(6),
    trialExpiration: inDays(6),
    recurrence: 'MENSAL',
  },
  plan: { id: 2, name: 'Ouro', value: 99.9 },
  openInvoice: {
    id: 3,
    companyId: 7,
    detail: 'Plano Ouro — mensal',
    value: 99.9,
    dueDate: inDays(6),
    status: 'open',
    paidAt: null,
    txid: 'BLC7D3',
    plan: { id: 2, name: 'Ouro', value: 99.9 },
    recurrence: 'MENSAL',
    createdAt: '',
    updatedAt: '',
  },
  pixConfigured: true,
  ...extra,
})

describe('SubscriptionPage', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'admin' })

  test('days left in the trial, the billing e-mail, and Assinar opens the checkout for the open invoice', async () => {
    mockFetch({ 'GET /api/subscription': () => ({ body: subscription() }) })
    renderAt('/subscription')
    expect(await screen.findByText('Restam 6 dias do seu período de teste')).toBeInTheDocument()
    expect(screen.getByText('financeiro@alpha.test')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Assinatura', level: 1 })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Assinar' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog.querySelector('[aria-current="step"]')?.textContent).toContain('Personalizar')
    expect(within(dialog).getByText('Ouro')).toBeInTheDocument()
  })

  test('without an open invoice Assinar leads to the invoices; a missing Pix setup is said', async () => {
    mockFetch({
      'GET /api/subscription': () => ({ body: subscription({ openInvoice: null, pixConfigured: false }) }),
      'GET /api/invoices/all': () => ({ body: { invoices: [], count: 0, hasMore: false } }),
    })
    renderAt('/subscription')
    expect(await screen.findByText('Em dia')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Assinar' }))
    expect(await screen.findByRole('heading', { name: 'Faturas', level: 1 })).toBeInTheDocument()
  })
})
