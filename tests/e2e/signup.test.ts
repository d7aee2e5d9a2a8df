/**
 * Browser test of the public sign-up: a visitor fills the form, asks for a code (the platform has no WhatsApp
 * connection here, so the operator gives it: the super user's POST /api/signup/codes), signs up, signs in,
 * and sees the 7-day trial on the Subscription page. Runs against the built dist/balcao.
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { browserSuite } from './suite'
import { ARTIFACTS, adminApi } from './support'

const suite = browserSuite({ browser: { colorScheme: 'light', locale: 'pt-BR' } })
const shot = (name: string) =>
  suite.page.screenshot({ path: join(ARTIFACTS, `signup-${name}.png`), fullPage: true })

const visitor = {
  name: 'Maria Souza',
  company: 'Padaria Central',
  email: 'maria@padaria.example',
  password: 'Segredo1',
  phone: '(11) 91234-5678',
}

describe('sign-up in a browser', () => {
  test('a visitor signs up with a code, signs in and sees the trial', async () => {
    const page = suite.page
    const api = await adminApi(suite.base)
    await api('/plans', { body: { name: 'Essencial', value: 89.9, users: 3, connections: 1, queues: 2 } })

    await page.goto(`${suite.base}/login`)
    await page.getByRole('link', { name: 'Criar Conta' }).click()
    await page.waitForURL('**/signup')
    await page.getByRole('radio', { name: /Essencial/ }).waitFor({ state: 'attached' })
    expect(await page.getByRole('radiogroup').textContent()).toMatch(/R\$\s89,90/)

    // The form refuses what the spec refuses, before anything is sent.
    await page.getByRole('button', { name: 'Cadastrar' }).click()
    await page.getByText('O número de telefone é obrigatório').waitFor()
    await page.getByText('Escolha um plano').waitFor()

    await page.getByLabel('Seu nome').fill(visitor.name)
    await page.getByLabel('Nome da empresa').fill(visitor.company)
    await page.getByLabel('E-mail').fill(visitor.email)
    await page.getByLabel('Senha', { exact: true }).fill(visitor.password)
    await page.getByLabel('Telefone (WhatsApp)').fill(visitor.phone)
    await page.getByText('Essencial').click()
    await page.getByRole('button', { name: 'Solicitar código' }).click()
    await page.getByText(/o código chega em instantes nesse número/).waitFor()

    // A wrong code first: the spec's message.
    const issued = await api<{ code: string; phone: string }>('/signup/codes', {
      body: { phone: visitor.phone },
    })
    expect(issued.phone).toBe('5511912345678')
    await page.getByLabel('Código de validação').fill(issued.code === '000000' ? '111111' : '000000')
    await page.getByRole('button', { name: 'Cadastrar' }).click()
    await page.getByText('Código de validação inválido. Não foi possível registrar.').waitFor()
    await page.getByLabel('Código de validação').fill(issued.code)
    await shot('form')
    await page.getByRole('button', { name: 'Cadastrar' }).click()
    await page.waitForURL('**/login')
    await page.getByText('Cadastro realizado com sucesso!', { exact: false }).waitFor()

    await page.getByLabel('E-mail').fill(visitor.email)
    await page.getByLabel('Senha', { exact: true }).fill(visitor.password)
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.waitForURL('**/tickets')
    // The session carries the trial.
    const company = await page.evaluate(async () => {
      const res = await fetch('/api/auth/me', {
        headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
      })
      return ((await res.json()) as { company: { name: string; trialExpiration: string | null } }).company
    })
    expect(company.name).toBe(visitor.company)
    const inSeven = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
    expect(company.trialExpiration).toBe(inSeven)

    await page.goto(`${suite.base}/subscription`)
    await page.getByText('Restam 7 dias do seu período de teste').waitFor()
    expect(await page.getByText(visitor.email).count()).toBeGreaterThan(0)
    await shot('subscription')

    // The code is spent: the operator sees the company in the super user's list.
    const list = await api<{ name: string; trialExpiration: string | null }[]>('/companies/list')
    expect(list.find((c) => c.name === visitor.company)?.trialExpiration).toBe(inSeven)
  }, 60_000)
})
