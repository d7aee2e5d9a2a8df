/**
 * Browser test of the foundation: the BUILT executable (dist/balcao, `npm run build`) driven by Debian's
 * chromium through playwright-core. Run with `npm run test:e2e`.
 * Screenshots land in tests/e2e/artifacts/ (gitignored).
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { browserSuite } from './suite'
import { ADMIN, ARTIFACTS } from './support'

const suite = browserSuite({ browser: { colorScheme: 'light', locale: 'pt-BR' } })

const shot = (name: string) => suite.page.screenshot({ path: join(ARTIFACTS, `foundation-${name}.png`) })

describe('foundation in a browser', () => {
  test('sign in lands on /tickets', async () => {
    await suite.page.goto(`${suite.base}/tickets`)
    // A private route without a session goes to /login.
    await suite.page.waitForURL('**/login')
    await suite.page.getByLabel('E-mail').fill(ADMIN.email)
    await suite.page.getByLabel('Senha', { exact: true }).fill(ADMIN.password)
    await shot('login')
    await suite.page.getByRole('button', { name: 'Entrar' }).click()
    await suite.page.waitForURL('**/tickets')
    await suite.page.getByRole('tab', { name: 'Abertos' }).waitFor()
    expect(await suite.page.getByTestId('greeting').textContent()).toContain('Admin')
    await shot('tickets')
  })

  test('Users: an admin creates an attendant and the row appears', async () => {
    await suite.page
      .getByRole('navigation', { name: 'Navegação principal' })
      .getByRole('link', { name: 'Usuários' })
      .click()
    await suite.page.waitForURL('**/users')
    await suite.page.getByRole('table', { name: 'Usuários' }).getByText(ADMIN.email).waitFor()
    await suite.page.getByRole('button', { name: 'Adicionar usuário' }).first().click()
    const dialog = suite.page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Adicionar usuário' }).waitFor()
    // Client-side validation first.
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    expect(await dialog.getByText('Obrigatório').count()).toBe(3)
    await dialog.getByLabel(/^Nome/).fill('Beatriz Atendente')
    await dialog.getByLabel(/^E-mail/).fill('beatriz@loja.example')
    await dialog.getByLabel(/^Senha/).fill('Segredo123')
    await shot('user-dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await suite.page.getByText('Usuário salvo com sucesso!').waitFor()
    const row = suite.page.getByRole('row').filter({ hasText: 'beatriz@loja.example' })
    await row.waitFor()
    expect(await row.textContent()).toContain('Beatriz Atendente')
    expect(await row.textContent()).toContain('Usuário')
    await shot('users')
  })

  test('theme and language switch', async () => {
    expect(await suite.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false)
    await suite.page.getByTestId('theme-toggle').click()
    expect(await suite.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    expect(await suite.page.evaluate(() => localStorage.getItem('preferredTheme'))).toBe('dark')

    await suite.page.getByRole('button', { name: 'Conta' }).click()
    await suite.page.getByRole('menuitem', { name: 'English' }).click()
    const nav = suite.page.getByRole('navigation', { name: 'Main navigation' })
    await nav.getByRole('link', { name: 'Users' }).waitFor()
    await suite.page.getByRole('heading', { name: 'Users' }).waitFor()
    expect(await suite.page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en')
    await shot('users-dark-en')

    // Both choices survive a reload (the refresh cookie restores the session too).
    await suite.page.reload()
    await suite.page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Users' })
      .waitFor()
    expect(await suite.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
  })

  test('sign out returns to /login', async () => {
    await suite.page.getByRole('button', { name: 'Account' }).click()
    await suite.page.getByRole('menuitem', { name: 'Sign out' }).click()
    await suite.page.waitForURL('**/login')
    await suite.page.getByRole('button', { name: 'Sign in' }).waitFor()
    expect(await suite.page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    // The private pages are closed again, even after a reload.
    await suite.page.goto(`${suite.base}/users`)
    await suite.page.waitForURL('**/login')
    await shot('signed-out')
  })
})
