/**
 * Browser test of the foundation: the BUILT executable (dist/balcao, `npm run build`) driven by Debian's
 * chromium through playwright-core. Run with `npm run test:e2e`.
 * Screenshots land in tests/e2e/artifacts/ (gitignored).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import {
  ADMIN,
  ARTIFACTS,
  artifactsDir,
  type Balcao,
  type Browser,
  launchBrowser,
  startBalcao,
} from './support'

let server: Balcao | null = null
let browser: Browser | null = null
let page: Page
let base = ''

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `foundation-${name}.png`) })

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao()
  base = server.url
  browser = await launchBrowser({ colorScheme: 'light', locale: 'pt-BR' })
  page = browser.context.pages()[0] ?? (await browser.context.newPage())
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('foundation in a browser', () => {
  test('sign in lands on /tickets', async () => {
    await page.goto(`${base}/tickets`)
    // A private route without a session goes to /login.
    await page.waitForURL('**/login')
    await page.getByLabel('E-mail').fill(ADMIN.email)
    await page.getByLabel('Senha', { exact: true }).fill(ADMIN.password)
    await shot('login')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.waitForURL('**/tickets')
    await page.getByText('O atendimento chega em breve').waitFor()
    expect(await page.getByTestId('greeting').textContent()).toContain('Admin')
    await shot('tickets')
  })

  test('Users: an admin creates an attendant and the row appears', async () => {
    await page
      .getByRole('navigation', { name: 'Navegação principal' })
      .getByRole('link', { name: 'Usuários' })
      .click()
    await page.waitForURL('**/users')
    await page.getByRole('table', { name: 'Usuários' }).getByText(ADMIN.email).waitFor()
    await page.getByRole('button', { name: 'Adicionar usuário' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Adicionar usuário' }).waitFor()
    // Client-side validation first.
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    expect(await dialog.getByText('Obrigatório').count()).toBe(3)
    await dialog.getByLabel(/^Nome/).fill('Beatriz Atendente')
    await dialog.getByLabel(/^E-mail/).fill('beatriz@loja.example')
    await dialog.getByLabel(/^Senha/).fill('segredo123')
    await shot('user-dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Usuário salvo com sucesso!').waitFor()
    const row = page.getByRole('row').filter({ hasText: 'beatriz@loja.example' })
    await row.waitFor()
    expect(await row.textContent()).toContain('Beatriz Atendente')
    expect(await row.textContent()).toContain('Usuário')
    await shot('users')
  })

  test('theme and language switch', async () => {
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false)
    await page.getByTestId('theme-toggle').click()
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('preferredTheme'))).toBe('dark')

    await page.getByRole('button', { name: 'Conta' }).click()
    await page.getByRole('menuitem', { name: 'English' }).click()
    const nav = page.getByRole('navigation', { name: 'Main navigation' })
    await nav.getByRole('link', { name: 'Users' }).waitFor()
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en')
    await shot('users-dark-en')

    // Both choices survive a reload (the refresh cookie restores the session too).
    await page.reload()
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Users' })
      .waitFor()
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
  })

  test('sign out returns to /login', async () => {
    await page.getByRole('button', { name: 'Account' }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await page.waitForURL('**/login')
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    // The private pages are closed again, even after a reload.
    await page.goto(`${base}/users`)
    await page.waitForURL('**/login')
    await shot('signed-out')
  })
})
