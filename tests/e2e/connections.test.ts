/**
 * Browser test of the Conexões screen against the BUILT executable with the simulated WhatsApp network
 * (`dist/balcao serve --sandbox`): create a sandbox connection, watch its QR code pair by itself, see it
 * connected live, then disconnect it. Build first (`npx bun scripts/build.ts`), then
 * `cd tests/e2e && npx bun test connections.test.ts`. Screenshots land in tests/e2e/artifacts/.
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

const NAME = 'Loja Sandbox'

let server: Balcao | null = null
let browser: Browser | null = null
let page: Page
let base = ''

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `connections-${name}.png`) })
const row = () => page.getByRole('row').filter({ hasText: NAME })

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-conn-data-' })
  base = server.url
  browser = await launchBrowser({
    colorScheme: 'light',
    locale: 'pt-BR',
    prefix: 'balcao-e2e-conn-chromium-',
  })
  page = browser.context.pages()[0] ?? (await browser.context.newPage())
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('Conexões in a browser (sandbox)', () => {
  test('sign in and open Conexões from the side menu', async () => {
    await page.goto(`${base}/login`)
    await page.getByLabel('E-mail').fill(ADMIN.email)
    await page.getByLabel('Senha', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.waitForURL('**/tickets')
    await page
      .getByRole('navigation', { name: 'Navegação principal' })
      .getByRole('link', { name: /Conexões/ })
      .click()
    await page.waitForURL('**/connections')
    await page.getByRole('heading', { name: 'Conexões' }).waitFor()
    await page.getByText('Nenhuma conexão ainda').waitFor()
    // This server runs the sandbox: the empty state says a sandbox connection pairs by itself.
    await page.getByText(/Este servidor tem o sandbox/).waitFor()
    await shot('empty')
  })

  test('create a sandbox connection: its QR code shows, then it pairs by itself', async () => {
    await page.getByRole('button', { name: 'Adicionar WhatsApp' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Adicionar WhatsApp' }).waitFor()
    await dialog.getByLabel(/^Nome/).fill(NAME)
    await dialog.getByLabel('Tipo de conexão').click()
    await page.getByRole('option', { name: 'Sandbox (simulado)' }).click()
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Conexão salva com sucesso!').waitFor()

    const qrDialog = page.getByRole('dialog').filter({ hasText: 'Conectar o WhatsApp' })
    await qrDialog.getByRole('img', { name: `QR Code da conexão ${NAME}` }).waitFor({ timeout: 10_000 })
    expect(await qrDialog.getByTestId('qr-countdown').textContent()).toMatch(/Expira em \d\d:\d\d/)
    expect(await qrDialog.getByText('Dispositivos conectados').count()).toBeGreaterThan(0)
    await shot('qr-dialog')

    // The sandbox pairs about 5 s later: the dialog closes with the spec's toast.
    await page.getByText('WhatsApp conectado com sucesso!').waitFor({ timeout: 15_000 })
    await qrDialog.waitFor({ state: 'detached' })
    await row().getByTestId('status-pill').filter({ hasText: 'Conectado' }).waitFor()
    expect(await row().getByText('Sandbox', { exact: true }).count()).toBe(1)
    expect(
      await row()
        .getByRole('button', { name: `Desconectar: ${NAME}` })
        .count(),
    ).toBe(1)
    await page.waitForTimeout(400)
    await shot('connected')
  }, 40_000)

  test('disconnect asks first, then the row turns DISCONNECTED live', async () => {
    await row()
      .getByRole('button', { name: `Desconectar: ${NAME}` })
      .click()
    // The warning comes once the person confirms, with the request it announces.
    const confirm = page.getByRole('alertdialog')
    await confirm.getByRole('button', { name: 'Desconectar' }).click()
    await page.getByText('Você está prestes a desconectar o WhatsApp.').waitFor()
    await row().getByTestId('status-pill').filter({ hasText: 'Desconectado' }).waitFor({ timeout: 10_000 })
    expect(
      await row()
        .getByRole('button', { name: `Novo QR CODE: ${NAME}` })
        .count(),
    ).toBe(1)
    expect(
      await row()
        .getByRole('button', { name: `Tentar novamente: ${NAME}` })
        .count(),
    ).toBe(1)
    // A connection that is not connected raises the '!' on the menu item, 2 s later.
    await page.getByTestId('menu-badge').waitFor({ timeout: 5000 })
    await shot('disconnected')
  }, 30_000)
})
