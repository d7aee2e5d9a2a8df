import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import i18n from '../../i18n'
import { currentUser, subscriptionWarningDays } from '../../state/session'
import { makeUser, mockFetch, renderAt, resetState, TEST_TOKEN } from '../../test/utils'

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

async function fillAndSubmit() {
  await userEvent.type(screen.getByLabelText('E-mail'), 'ana@example.com')
  await userEvent.type(screen.getByLabelText('Senha'), 'segredo1')
  await userEvent.click(screen.getByRole('button', { name: 'Entrar' }))
}

function isoInDays(days: number) {
  const d = new Date()
  d.setDate(d.getDate() + days)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

describe('LoginPage', () => {
  beforeEach(resetState)
  afterEach(resetState)

  test('signs in, stores token and companyId, and lands on /tickets', async () => {
    const calls = mockFetch({
      'POST /api/auth/login': () => ({ body: { token: TEST_TOKEN, user: makeUser({ companyId: 7 }) } }),
    })
    renderAt('/login', <Where />)
    expect(screen.getByRole('link', { name: 'Criar Conta' })).toHaveAttribute('href', '/signup')
    expect(screen.getByRole('link', { name: 'Esqueceu a senha?' })).toHaveAttribute('href', '/forgetpsw')
    await fillAndSubmit()
    expect(await screen.findByText('Selecione um ticket')).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/tickets')
    expect(localStorage.getItem('token')).toBe(TEST_TOKEN)
    expect(localStorage.getItem('companyId')).toBe('7')
    expect(calls[0]?.body).toEqual({ email: 'ana@example.com', password: 'segredo1' })
    expect(currentUser.value?.name).toBe('Ana Admin')
  })

  test("a malformed e-mail is caught before anything is sent, in the user's language", async () => {
    const calls = mockFetch({})
    renderAt('/login')
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@exemplo')
    await userEvent.type(screen.getByLabelText('Senha'), 'segredo1')
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }))
    expect(await screen.findByText('E-mail inválido')).toBeInTheDocument()
    expect(screen.getByLabelText('E-mail')).toHaveFocus()
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true')
    expect(calls).toHaveLength(0)
    // Empty fields say 'Obrigatório'; fixing the address lets the form through.
    await userEvent.clear(screen.getByLabelText('Senha'))
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }))
    expect(await screen.findByText('Obrigatório')).toBeInTheDocument()
    expect(calls).toHaveLength(0)
    await i18n.changeLanguage('en')
    expect(await screen.findByText('Invalid email')).toBeInTheDocument()
  })

  test('an expired subscription shows the spec message with the date as dd/MM/yyyy', async () => {
    mockFetch({
      'POST /api/auth/login': () => ({
        status: 402,
        body: { error: 'ERR_SUBSCRIPTION_EXPIRED', message: 'expired', details: { dueDate: '2026-03-09' } },
      }),
    })
    renderAt('/login', <Where />)
    await fillAndSubmit()
    expect(
      await screen.findByText(
        'Opss! Sua assinatura venceu 09/03/2026. Entre em contato com o Suporte para mais informações!',
      ),
    ).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/login')
    expect(localStorage.getItem('token')).toBeNull()
  })

  test('too many attempts says how long to wait (Retry-After)', async () => {
    mockFetch({
      'POST /api/auth/login': () => ({
        status: 429,
        body: { error: 'ERR_TOO_MANY_ATTEMPTS', message: 'slow down' },
        headers: { 'Retry-After': '42' },
      }),
    })
    renderAt('/login')
    await fillAndSubmit()
    expect(await screen.findByText(/Aguarde 42 segundos/)).toBeInTheDocument()
  })

  test('wrong credentials show the translated error', async () => {
    mockFetch({
      'POST /api/auth/login': () => ({
        status: 401,
        body: { error: 'ERR_INVALID_CREDENTIALS', message: 'bad' },
      }),
    })
    renderAt('/login')
    await fillAndSubmit()
    expect(await screen.findByText('Erro de autenticação. Por favor, tente novamente.')).toBeInTheDocument()
  })

  test("outside the user's working hours: the spec's 'Fora do Horário de Expediente!', no retry", async () => {
    const calls = mockFetch({
      'POST /api/auth/login': () => ({
        status: 403,
        body: { error: 'ERR_OUT_OF_HOURS', message: 'Outside your working hours' },
      }),
    })
    renderAt('/login')
    await fillAndSubmit()
    expect(await screen.findByText('Fora do Horário de Expediente!')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/auth/refresh_token')).toHaveLength(0)
  })

  test('fewer than 5 days left: a warning toast after sign-in', async () => {
    const base = makeUser()
    mockFetch({
      'POST /api/auth/login': () => ({
        body: { token: TEST_TOKEN, user: { ...base, company: { ...base.company, dueDate: isoInDays(3) } } },
      }),
    })
    renderAt('/login')
    await fillAndSubmit()
    expect(await screen.findByText('Sua assinatura vence em 3 dia(s)')).toBeInTheDocument()
  })

  test('the warning threshold is fewer than 5 days', () => {
    const at = (due: string | null) => {
      const u = makeUser()
      return subscriptionWarningDays({ ...u, company: { ...u.company, dueDate: due } }, new Date(2026, 0, 10))
    }
    expect(at('2026-01-14')).toBe(4)
    expect(at('2026-01-10')).toBe(0)
    expect(at('2026-01-15')).toBeNull()
    expect(at(null)).toBeNull()
  })
})
