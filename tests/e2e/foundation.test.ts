/**
 * Browser test of the foundation: the BUILT executable (dist/balcao, `npm run build`) driven by Debian's
 * chromium through playwright-core. Run with `npm run test:e2e`.
 * Screenshots land in tests/e2e/artifacts/ (gitignored).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'

const ROOT = resolve(import.meta.dir, '../..')
const BINARY = join(ROOT, 'dist/balcao')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARTIFACTS = join(import.meta.dir, 'artifacts')
const ADMIN = { email: 'admin@balcao.local', password: 'admin12345' }

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer()
    srv.once('error', fail)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => ok(port))
    })
  })
}

let server: ReturnType<typeof Bun.spawn> | null = null
let context: BrowserContext | null = null
let page: Page
let base = ''
const temps: string[] = []

async function waitHealthy(url: string, ms = 20_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/api/health`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await Bun.sleep(100)
  }
  throw new Error(`server at ${url} did not become healthy`)
}

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `foundation-${name}.png`) })

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error('dist/balcao is missing: run `npm run build` first')
  mkdirSync(ARTIFACTS, { recursive: true })
  const data = mkdtempSync(join(tmpdir(), 'balcao-e2e-data-'))
  const profile = mkdtempSync(join(tmpdir(), 'balcao-e2e-chromium-'))
  temps.push(data, profile)
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  server = Bun.spawn([BINARY, 'serve', '--port', String(port), '--host', '127.0.0.1', '--data', data], {
    cwd: data,
    env: { ...process.env, BALCAO_ADMIN_EMAIL: ADMIN.email, BALCAO_ADMIN_PASSWORD: ADMIN.password },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  await waitHealthy(base)
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    locale: 'pt-BR',
  })
  page = context.pages()[0] ?? (await context.newPage())
}, 60_000)

afterAll(async () => {
  await context?.close().catch(() => {})
  if (server) {
    server.kill()
    await server.exited
  }
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
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
