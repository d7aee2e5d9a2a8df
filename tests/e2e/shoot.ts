/**
 * Screenshots of every page at 1280x800 and 375x812, light and dark, for a human to look at.
 *   bun tests/e2e/shoot.ts http://127.0.0.1:18080 admin@balcao.local admin12345
 * The server must be running; the pictures land in tests/e2e/artifacts/shots/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { ARTIFACTS, artifactsDir, launchBrowser } from './support'

const [base = 'http://127.0.0.1:18080', email = 'admin@balcao.local', password = 'admin12345'] =
  process.argv.slice(2)
const out = artifactsDir(join(ARTIFACTS, 'shots'))

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
]

async function signIn(page: Page) {
  await page.goto(`${base}/login`)
  await page.fill('input[name=email]', email)
  await page.fill('input[name=password]', password)
  await page.click('button[type=submit]')
  await page.waitForURL('**/tickets')
}

for (const theme of ['light', 'dark'] as const) {
  for (const size of sizes) {
    const browser = await launchBrowser({
      viewport: { width: size.width, height: size.height },
      colorScheme: theme,
      prefix: 'balcao-shots-',
    })
    const ctx = browser.context
    const page = ctx.pages()[0] ?? (await ctx.newPage())
    page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()))
    const shot = (name: string) => page.screenshot({ path: join(out, `${name}-${size.name}-${theme}.png`) })
    await page.goto(`${base}/login`)
    await page.waitForSelector('input[name=email]')
    await shot('login')
    await signIn(page)
    // The profile's theme wins over the system's: switch it the way a person would.
    const isDark = (await page.locator('html.dark').count()) > 0
    if (isDark !== (theme === 'dark')) await page.getByTestId('theme-toggle').click()
    await page.waitForTimeout(300)
    await shot('tickets')
    await page.goto(`${base}/users`)
    await page.waitForSelector('table, ul[aria-label]')
    await page.waitForTimeout(300)
    await shot('users')
    await page
      .getByRole('button', { name: /Adicionar usuário/ })
      .first()
      .click()
    await page.waitForSelector('[role=dialog] h2')
    await page.waitForTimeout(300)
    await shot('users-dialog')
    await page.getByRole('button', { name: 'Salvar' }).click()
    await page.waitForTimeout(200)
    await shot('users-dialog-errors')
    await page.keyboard.press('Escape')
    await page
      .getByRole('button', { name: /^Editar: / })
      .last()
      .click()
    await page.waitForSelector('[role=dialog] h2')
    await page.waitForTimeout(400)
    await shot('users-dialog-edit')
    await page.keyboard.press('Escape')
    await page.goto(`${base}/queues`)
    await page.waitForTimeout(500)
    await shot('queues')
    await page
      .getByRole('button', { name: /Adicionar fila/ })
      .first()
      .click()
    await page.waitForTimeout(300)
    await shot('queues-dialog')
    await page.keyboard.press('Escape')
    await page.goto(`${base}/connections`)
    await page.waitForSelector('table, ul[aria-label]')
    await page.waitForTimeout(400)
    await shot('connections')
    await page
      .getByRole('button', { name: /Saúde da conexão/ })
      .first()
      .click()
    await page.waitForTimeout(400)
    await shot('connections-health')
    await page.keyboard.press('Escape')
    await page.goto(`${base}/tags`)
    await page.waitForTimeout(500)
    await shot('tags')
    await page.goto(`${base}/connections`)
    await page.waitForSelector('table, ul[aria-label]')
    // The QR dialog: a connection waiting for its scan, or a fresh QR code for a connected one.
    const qrButton = page.getByRole('button', { name: /^QR CODE:/ }).first()
    if ((await qrButton.count()) > 0) await qrButton.click()
    else {
      const disconnect = page.getByRole('button', { name: /^Desconectar:/ }).first()
      if ((await disconnect.count()) > 0) {
        await disconnect.click()
        await page.getByRole('alertdialog').getByRole('button', { name: 'Desconectar' }).click()
        await page.waitForTimeout(500)
      }
      await page
        .getByRole('button', { name: /^Novo QR CODE:/ })
        .first()
        .click()
    }
    await page.getByTestId('qrcode').waitFor({ timeout: 10_000 })
    await page.waitForTimeout(300)
    await shot('connections-qr')
    await page.keyboard.press('Escape')
    // Let the session toasts go (3 s) so they do not cover the dialog.
    await page.waitForTimeout(3200)
    await page
      .getByRole('button', { name: /^Editar:/ })
      .first()
      .click()
    await page.waitForSelector('[role=dialog] [role=tab]')
    await page.waitForTimeout(300)
    await shot('connections-dialog')
    await page.getByRole('tab', { name: 'Filas e bot' }).click()
    await page.waitForTimeout(200)
    await shot('connections-dialog-queues')
    await page.getByRole('tab', { name: 'Integração' }).click()
    await page.waitForTimeout(200)
    await shot('connections-dialog-integration')
    await page.keyboard.press('Escape')
    await page.waitForTimeout(300)
    await page.goto(`${base}/settings`)
    await page.waitForTimeout(500)
    await shot('settings')
    if (size.name === 'phone') {
      await page.getByRole('button', { name: 'Abrir menu' }).click()
      await page.waitForTimeout(300)
      await shot('drawer')
      await page.keyboard.press('Escape')
    }
    await page.getByRole('button', { name: 'Conta' }).click()
    await page.waitForTimeout(250)
    await shot('profile-menu')
    await browser.close()
  }
}
console.log('screenshots in', out)
