import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import i18n from '../../i18n'
import { mockFetch, renderAt, resetState } from '../../test/utils'

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

const plan = (
  id: number,
  name: string,
  value: number,
  users: number,
  connections: number,
  queues: number,
) => ({
  id,
  name,
  value,
  users,
  connections,
  queues,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
})
const PLANS = [plan(1, 'Básico', 49.9, 1, 1, 0), plan(2, 'Pro', 99.9, 5, 2, 4)]

async function fill(fields: Partial<Record<string, string>> = {}) {
  const values = {
    'Seu nome': 'Maria Souza',
    'Nome da empresa': 'Padaria Central',
    'E-mail': 'maria@padaria.test',
    Senha: 'Segredo1',
    'Telefone (WhatsApp)': '(11) 91234-5678',
    ...fields,
  }
  for (const [label, value] of Object.entries(values))
    if (value) await userEvent.type(screen.getByLabelText(label), value)
}

describe('SignupPage', () => {
  beforeEach(resetState)
  afterEach(resetState)

  test('plans show their price in BRL and limits; request a code, sign up, toast and go to /login', async () => {
    const calls = mockFetch({
      'GET /api/plans/list': () => ({ body: PLANS }),
      'POST /api/signup/code': () => ({ status: 202, body: { status: 'accepted' } }),
      'POST /api/companies/cadastro': () => ({ status: 201, body: { id: 9 } }),
    })
    renderAt('/signup', <Where />)
    const pro = await screen.findByRole('radio', { name: /Pro/ })
    const group = screen.getByRole('radiogroup')
    expect(within(group).getByText(/R\$\s99,90/)).toBeInTheDocument()
    expect(within(group).getByText('5 usuários · 2 conexões · 4 filas')).toBeInTheDocument()
    expect(within(group).getByText('1 usuário · 1 conexão · filas ilimitadas')).toBeInTheDocument()
    await fill()
    await userEvent.click(pro)
    await userEvent.click(screen.getByRole('button', { name: 'Solicitar código' }))
    expect(await screen.findByText(/o código chega em instantes nesse número/)).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/signup/code')?.body).toEqual({ phone: '(11) 91234-5678' })
    await userEvent.type(screen.getByLabelText('Código de validação'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }))
    expect(
      await screen.findByText('Cadastro realizado com sucesso! Entre com seu e-mail e senha.'),
    ).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/login')
    expect(calls.find((c) => c.path === '/api/companies/cadastro')?.body).toEqual({
      name: 'Maria Souza',
      companyName: 'Padaria Central',
      email: 'maria@padaria.test',
      password: 'Segredo1',
      phone: '(11) 91234-5678',
      planId: 2,
      code: '123456',
    })
  })

  test("the spec's validation messages, before anything is sent", async () => {
    const calls = mockFetch({ 'GET /api/plans/list': () => ({ body: PLANS }) })
    renderAt('/signup')
    await screen.findByRole('radiogroup')
    await fill({ 'Seu nome': 'M', 'E-mail': 'maria@padaria', 'Telefone (WhatsApp)': '12345' })
    await userEvent.type(screen.getByLabelText('Nome da empresa'), 'x'.repeat(40))
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }))
    expect(await screen.findByText('Muito curto!')).toBeInTheDocument()
    expect(screen.getByText('Muito extenso!')).toBeInTheDocument()
    expect(screen.getByText('Email inválido')).toBeInTheDocument()
    expect(screen.getByText(/^Número de telefone inválido/)).toBeInTheDocument()
    expect(screen.getByText('Escolha um plano')).toBeInTheDocument()
    expect(screen.getByText('Informe o código de validação')).toBeInTheDocument()
    expect(screen.getByLabelText('Seu nome')).toHaveFocus()
    // The phone field holds 15 characters at most; an empty phone has its own message.
    expect(screen.getByLabelText('Telefone (WhatsApp)')).toHaveAttribute('maxLength', '15')
    await userEvent.clear(screen.getByLabelText('Telefone (WhatsApp)'))
    expect(await screen.findByText('O número de telefone é obrigatório')).toBeInTheDocument()
    // Asking for a code with no phone says so, and sends nothing.
    await userEvent.click(screen.getByRole('button', { name: 'Solicitar código' }))
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  test('a wrong code shows the spec text under the code; a taken e-mail under the e-mail', async () => {
    let answer = { error: 'ERR_SIGNUP_INVALID_CODE', message: 'x' }
    mockFetch({
      'GET /api/plans/list': () => ({ body: [PLANS[0]] }),
      'POST /api/companies/cadastro': () => ({
        status: answer.error === 'ERR_SIGNUP_INVALID_CODE' ? 400 : 409,
        body: answer,
      }),
    })
    renderAt('/signup', <Where />)
    // A single plan is chosen already.
    expect(await screen.findByRole('radio', { name: /Básico/ })).toBeChecked()
    await fill()
    await userEvent.type(screen.getByLabelText('Código de validação'), '654321')
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }))
    expect(
      await screen.findByText('Código de validação inválido. Não foi possível registrar.'),
    ).toBeInTheDocument()
    expect(screen.getByLabelText('Código de validação')).toHaveFocus()
    expect(screen.getByTestId('where')).toHaveTextContent('/signup')
    answer = { error: 'ERR_EMAIL_ALREADY_EXISTS', message: 'x' }
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }))
    expect(await screen.findByText('Já existe um usuário com este e-mail.')).toBeInTheDocument()
    expect(screen.getByLabelText('E-mail')).toHaveFocus()
  })

  test('plans that cannot load offer a retry; the page is translated', async () => {
    let fail = true
    mockFetch({
      'GET /api/plans/list': () =>
        fail ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } } : { body: PLANS },
    })
    renderAt('/signup')
    expect(await screen.findByText('Não foi possível carregar os planos.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Tentar de novo' }))
    expect(await screen.findByRole('radio', { name: /Pro/ })).toBeInTheDocument()
    await i18n.changeLanguage('en')
    expect(await screen.findByRole('button', { name: 'Request code' })).toBeInTheDocument()
    expect(screen.getByText('5 users · 2 connections · 4 queues')).toBeInTheDocument()
  })
})
