/**
 * Browser test of the Conexões screen against the BUILT executable with the simulated WhatsApp network
 * (`dist/balcao serve --sandbox`): create a sandbox connection, watch its QR code pair by itself, see it
 * connected live, then disconnect it. Build first (`npx bun scripts/build.ts`), then
 * `cd tests/e2e && npx bun test connections.test.ts`. Screenshots land in tests/e2e/artifacts/.
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { browserSuite } from './suite'
import { ADMIN, ARTIFACTS, signIn } from './support'

const NAME = 'Loja Sandbox'

const suite = browserSuite({
  server: { sandbox: true, prefix: 'balcao-e2e-conn-data-' },
  browser: { colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-conn-chromium-' },
})

const shot = (name: string) => suite.page.screenshot({ path: join(ARTIFACTS, `connections-${name}.png`) })
const row = () => suite.page.getByRole('row').filter({ hasText: NAME })

describe('Conexões in a browser (sandbox)', () => {
  test('sign in and open Conexões from the side menu', async () => {
    await signIn(suite.page, suite.base, ADMIN)
    await suite.page
      .getByRole('navigation', { name: 'Navegação principal' })
      .getByRole('link', { name: /Conexões/ })
      .click()
    await suite.page.waitForURL('**/connections')
    await suite.page.getByRole('heading', { name: 'Conexões' }).waitFor()
    await suite.page.getByText('Nenhuma conexão ainda').waitFor()
    // This server runs the sandbox: the empty state says a sandbox connection pairs by itself.
    await suite.page.getByText(/Este servidor tem o sandbox/).waitFor()
    await shot('empty')
  })

  test('create a sandbox connection: its QR code shows, then it pairs by itself', async () => {
    await suite.page.getByRole('button', { name: 'Adicionar WhatsApp' }).first().click()
    const dialog = suite.page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Adicionar WhatsApp' }).waitFor()
    await dialog.getByLabel(/^Nome/).fill(NAME)
    await dialog.getByLabel('Tipo de conexão').click()
    await suite.page.getByRole('option', { name: 'Sandbox (simulado)' }).click()
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await suite.page.getByText('Conexão salva com sucesso!').waitFor()

    const qrDialog = suite.page.getByRole('dialog').filter({ hasText: 'Conectar o WhatsApp' })
    await qrDialog.getByRole('img', { name: `QR Code da conexão ${NAME}` }).waitFor({ timeout: 10_000 })
    expect(await qrDialog.getByTestId('qr-countdown').textContent()).toMatch(/Expira em \d\d:\d\d/)
    expect(await qrDialog.getByText('Dispositivos conectados').count()).toBeGreaterThan(0)
    await shot('qr-dialog')

    // The sandbox pairs about 5 s later: the dialog closes with the spec's toast.
    await suite.page.getByText('WhatsApp conectado com sucesso!').waitFor({ timeout: 15_000 })
    await qrDialog.waitFor({ state: 'detached' })
    await row().getByTestId('status-pill').filter({ hasText: 'Conectado' }).waitFor()
    expect(await row().getByText('Sandbox', { exact: true }).count()).toBe(1)
    expect(
      await row()
        .getByRole('button', { name: `Desconectar: ${NAME}` })
        .count(),
    ).toBe(1)
    await suite.page.waitForTimeout(400)
    await shot('connected')
  }, 40_000)

  test('disconnect asks first, then the row turns DISCONNECTED live', async () => {
    await row()
      .getByRole('button', { name: `Desconectar: ${NAME}` })
      .click()
    // The warning comes once the person confirms, with the request it announces.
    const confirm = suite.page.getByRole('alertdialog')
    await confirm.getByRole('button', { name: 'Desconectar' }).click()
    await suite.page.getByText('Você está prestes a desconectar o WhatsApp.').waitFor()
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
    await suite.page.getByTestId('menu-badge').waitFor({ timeout: 5000 })
    await shot('disconnected')
  }, 30_000)
})
