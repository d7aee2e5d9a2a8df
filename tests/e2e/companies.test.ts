/**
 * Browser test of the super user's Companies tab against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test companies.test.ts`): the super user opens Settings > Empresas, adds a company through
 * the dialog (with its first user), uses '+ Vencimento' on it and sees the due date move by a month; a company
 * due in 5 days (set through the API) has the yellow row and says so in words. Screenshots land in
 * tests/e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import {
  ADMIN,
  type Api,
  ARTIFACTS,
  adminApi,
  artifactsDir,
  type Balcao,
  type Browser,
  launchPage,
  signIn,
  startBalcao,
} from './support'

let server: Balcao
let browser: Browser
let page: Page
let api: Api

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `companies-${name}.png`) })

/** A local calendar date `days` from today, as YYYY-MM-DD (the page counts days on the local calendar). */
function localDate(days: number, from = new Date()): string {
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** dd/MM/yyyy, as the table shows a due date. */
const shown = (iso: string) => iso.split('-').reverse().join('/')

/** One month later, same day (the test picks a day every month has). */
function nextMonth(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number]
  const year = m === 12 ? y + 1 : y
  const month = m === 12 ? 1 : m + 1
  return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`
}

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ prefix: 'balcao-e2e-companies-data-' })
  api = await adminApi(server.url)
  // A company due in 5 days (set through the API before the browser signs in: a new sign-in ends the others).
  const [plan] = await api<{ id: number }[]>('/plans/all')
  const created = await api<{ id: number }>('/companies', {
    body: {
      name: 'Mercado Cinco',
      email: 'dono@cinco.test',
      password: 'Cinco123',
      planId: plan!.id,
      dueDate: localDate(30),
    },
  })
  await api(`/companies/${created.id}`, { method: 'PUT', body: { dueDate: localDate(5) } })
  const launched = await launchPage()
  browser = launched
  page = launched.page
  await signIn(page, server.url, ADMIN)
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('Settings > Empresas (super user)', () => {
  test("adds a company through the dialog and moves its due date with '+ Vencimento'", async () => {
    // A due date 20 days ahead on a day every month has, so one month later is the same day.
    let offset = 20
    while (Number(localDate(offset).slice(8)) > 28) offset++
    const due = localDate(offset)
    const expected = nextMonth(due)

    await page.goto(`${server.url}/settings`)
    await page.getByRole('tab', { name: 'Empresas' }).click()
    const table = page.getByRole('table', { name: 'Empresas' })
    await table.waitFor()

    await page.getByRole('button', { name: 'Adicionar empresa' }).click()
    const dialog = page.getByRole('dialog', { name: 'Adicionar empresa' })
    await dialog.getByRole('textbox', { name: 'Nome', exact: true }).fill('Padaria Aurora')
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('dona@aurora.test')
    await dialog.getByRole('textbox', { name: 'Telefone' }).fill('5511988887777')
    await dialog.getByRole('button', { name: 'Plano' }).click()
    await page.getByRole('option').first().click()
    await dialog.getByLabel('Vencimento').fill(due)
    await dialog.getByRole('textbox', { name: 'Nome do usuário' }).fill('Aurora Souza')
    await dialog.getByLabel('Senha').fill('Aurora123')
    await shot('dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Operação realizada com sucesso!').waitFor()
    await dialog.waitFor({ state: 'detached' })

    const row = table.getByRole('row').filter({ hasText: 'Padaria Aurora' })
    await expect(row.textContent()).resolves.toContain(shown(due))
    // The first user signs in with the company's e-mail and the password given in the dialog.
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dona@aurora.test', password: 'Aurora123' }),
    })
    expect(login.status).toBe(200)

    await row.getByRole('button', { name: '+ Vencimento: Padaria Aurora' }).click()
    await page.getByText(`Vencimento adiado para ${shown(expected)}.`).waitFor()
    await page.waitForFunction(
      ([text]) =>
        [...document.querySelectorAll('tr')].some(
          (tr) => tr.textContent?.includes('Padaria Aurora') && tr.textContent.includes(text as string),
        ),
      [shown(expected)],
    )
    // The server holds the new date (asked with the page's own session: the API client's one has ended).
    const saved = await page.evaluate(async () => {
      const res = await fetch('/api/companies?searchParam=Aurora', {
        headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
      })
      return ((await res.json()) as { companies: { dueDate: string }[] }).companies[0]?.dueDate
    })
    expect(saved).toBe(expected)
    await shot('extended')
  }, 60_000)

  test('a company due in 5 days has the yellow row and says so', async () => {
    await page.goto(`${server.url}/settings`)
    await page.getByRole('tab', { name: 'Empresas' }).click()
    const row = page
      .getByRole('table', { name: 'Empresas' })
      .getByRole('row')
      .filter({ hasText: 'Mercado Cinco' })
    await row.waitFor()
    await expect(row.textContent()).resolves.toContain('Vence em 5 dias')
    expect(await row.getAttribute('class')).toContain('bg-yellow-400/15')
    expect(await row.locator('[data-due-tone]').getAttribute('data-due-tone')).toBe('yellow')
    // The tint is really painted (not only a class name): a yellowish background over the white surface.
    const bg = await row.evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(bg).not.toBe('rgba(0, 0, 0, 0)')
    await shot('due-in-5')
  }, 60_000)
})
