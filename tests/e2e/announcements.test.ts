/**
 * Browser test of the announcements against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test announcements.test.ts`): the platform's super admin writes an announcement with an
 * image on /announcements; the admin of another company, with the bell popover open, sees it arrive live, opens
 * it and sees the whole text and the image; a second one lights the bell's unread dot; a non-super user sent to
 * /announcements is told off and taken back. Screenshots land in tests/e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
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

const NEIGHBOUR = { name: 'Loja Vizinha', email: 'dona@vizinha.local', password: 'Vizinha-123' }
const TITLE = 'Manutenção programada no sábado'
const TEXT =
  'O sistema ficará fora do ar das 22h às 23h.\nAs mensagens recebidas nesse período chegam depois.'

let server: Balcao
let api: Api
const browsers: Browser[] = []
let root: Page
let reader: Page

/** A real PNG (a blue-to-green gradient) so the browser can draw it. */
function gradientPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(Bun.hash.crc32(body) >>> 0, 8 + data.length)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const at = y * (width * 3 + 1)
    for (let x = 0; x < width; x++) {
      rows[at + 1 + x * 3] = 50
      rows[at + 2 + x * 3] = Math.round(100 + (120 * x) / width)
      rows[at + 3 + x * 3] = Math.round(240 - (140 * y) / height)
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `announcements-${name}.png`) })

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ prefix: 'balcao-e2e-announcements-data-' })
  api = await adminApi(server.url)
  // Another company and its admin, made by the super user through the API.
  const plans = await api<{ id: number }[]>('/plans/list')
  await api('/companies', { body: { ...NEIGHBOUR, planId: plans[0]!.id } })

  const readerBrowser = await launchPage({
    colorScheme: 'light',
    locale: 'pt-BR',
    prefix: 'balcao-e2e-ann-r-',
  })
  browsers.push(readerBrowser)
  reader = readerBrowser.page
  await signIn(reader, server.url, NEIGHBOUR)

  // Signing in ends the super user's API session: everything the API had to do is done.
  const rootBrowser = await launchPage({ colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-ann-s-' })
  browsers.push(rootBrowser)
  root = rootBrowser.page
  await signIn(root, server.url, ADMIN)
}, 90_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await server?.stop()
})

describe('announcements in a browser', () => {
  test("the other company's bell is empty to begin with", async () => {
    await reader.getByTestId('announcements-button').click()
    await reader.getByText('Nenhum informativo').waitFor({ timeout: 10_000 })
    expect(await reader.getByTestId('announcements-unread').count()).toBe(0)
  }, 20_000)

  test("the super user writes an announcement with an image; it appears live in the other company's open bell", async () => {
    await root.getByRole('link', { name: 'Informativos' }).click()
    await root.waitForURL('**/announcements')
    await root.getByText('Nenhum informativo ainda').waitFor({ timeout: 10_000 })
    await root.getByRole('button', { name: 'Adicionar' }).first().click()
    const dialog = root.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    expect(await dialog.getByText('Obrigatório').count()).toBe(2)
    await dialog.getByRole('textbox', { name: /Título/ }).fill(TITLE)
    await dialog.getByRole('textbox', { name: /Texto/ }).fill(TEXT)
    await dialog.getByRole('button', { name: 'Prioridade' }).click()
    await root.getByRole('option', { name: 'Alta' }).click()
    await dialog
      .getByTestId('announcement-file')
      .setInputFiles({ name: 'manutencao.png', mimeType: 'image/png', buffer: gradientPng(480, 200) })
    await dialog.getByTestId('announcement-preview').waitFor()
    await shot(root, 'dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await root.getByText('Informativo salvo com sucesso!').waitFor({ timeout: 10_000 })
    const row = root.getByRole('row').filter({ hasText: TITLE })
    await row.getByText('Alta').waitFor()
    await row.getByText('Ativo').waitFor()
    await shot(root, 'page')

    // The reader never reloaded: the bell's open list gets it from the live socket.
    const entry = reader
      .getByRole('list', { name: 'Informativos' })
      .getByRole('button', { name: new RegExp(TITLE) })
    await entry.waitFor({ timeout: 10_000 })
    expect(await entry.getAttribute('data-priority')).toBe('1')
    await shot(reader, 'bell')
    await entry.click()
    const detail = reader.getByRole('dialog', { name: TITLE })
    // (The dialog's own element has no height: its panel is fixed. Wait for what it shows.)
    await detail.getByRole('heading', { name: TITLE }).waitFor()
    expect(await detail.getByText(/O sistema ficará fora do ar/).textContent()).toBe(TEXT)
    const image = detail.getByRole('img', { name: 'manutencao.png' })
    await image.waitFor()
    // The signed link is served: the image was decoded.
    await reader.waitForFunction(
      (el) => !!el && (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 480,
      await image.elementHandle(),
      { timeout: 10_000 },
    )
    await shot(reader, 'detail')
    await reader.keyboard.press('Escape')
    await detail.getByRole('heading', { name: TITLE }).waitFor({ state: 'detached' })
  }, 60_000)

  test('a second one while the bell is closed lights its unread dot; opening the bell clears it', async () => {
    expect(await reader.getByTestId('announcements-unread').count()).toBe(0)
    await root.getByRole('button', { name: 'Adicionar' }).first().click()
    const dialog = root.getByRole('dialog')
    await dialog.getByRole('textbox', { name: /Título/ }).fill('Novo recurso: respostas rápidas com imagem')
    await dialog
      .getByRole('textbox', { name: /Texto/ })
      .fill('Agora você pode anexar imagens às respostas rápidas.')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await root.getByText('Informativo salvo com sucesso!').first().waitFor({ timeout: 10_000 })
    await reader.getByTestId('announcements-unread').waitFor({ timeout: 10_000 })
    await shot(reader, 'unread')
    await reader.getByTestId('announcements-button').click()
    const items = reader.getByRole('list', { name: 'Informativos' }).getByRole('button')
    await items.first().getByText('Novo recurso: respostas rápidas com imagem').waitFor()
    expect(await items.count()).toBe(2)
    await reader.getByTestId('announcements-unread').waitFor({ state: 'detached', timeout: 5_000 })
    await reader.keyboard.press('Escape')
  }, 30_000)

  test('a user who is not super is told off on /announcements and taken back', async () => {
    await reader.goto(`${server.url}/announcements`)
    await reader
      .getByText('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.')
      .first()
      .waitFor({ timeout: 10_000 })
    // '/' is the dashboard for an admin.
    await reader.waitForURL((url) => url.pathname === '/', { timeout: 5_000 })
    expect(await reader.getByRole('link', { name: 'Informativos' }).count()).toBe(0)
  }, 20_000)
})
