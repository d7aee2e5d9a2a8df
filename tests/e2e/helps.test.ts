/**
 * Browser test of the help videos and the to-do list against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test helps.test.ts`): the super user adds a help video in Settings > Help (as a YouTube
 * link); an attendant of another company sees its card on /helps, opens the modal (the iframe is the
 * privacy-enhanced embed; it is not loaded: the test machine has no internet) and closes it with Escape. Then the
 * attendant's to-do list survives a reload. Screenshots land in tests/e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import {
  ADMIN,
  ARTIFACTS,
  adminApi,
  artifactsDir,
  type Balcao,
  type Browser,
  launchPage,
  signIn,
  startBalcao,
} from './support'

const PASSWORD = 'Ajuda-123'
const OWNER = { email: 'dono@verde.test', password: PASSWORD }
const AGENT = { email: 'atendente@verde.test', password: PASSWORD }
const VIDEO_ID = 'dQw4w9WgXcQ'
const TITLE = 'Como transferir um atendimento'

let server: Balcao
const browsers: Browser[] = []
/** Every request the pages made to YouTube's hosts (aborted: there is no internet here). */
const youtube: string[] = []

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `helps-${name}.png`) })

async function open(user: { email: string; password: string }): Promise<Page> {
  const browser = await launchPage()
  browsers.push(browser)
  await browser.context.route(
    /^https:\/\/([a-z0-9-]+\.)*(ytimg\.com|youtube-nocookie\.com|youtube\.com)\//,
    (route) => {
      youtube.push(route.request().url())
      return route.abort()
    },
  )
  await signIn(browser.page, server.url, user)
  return browser.page
}

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ prefix: 'balcao-e2e-helps-data-' })
  // Another company, with an attendant: help videos are the platform's, seen by every company.
  const api = await adminApi(server.url)
  const [plan] = await api<{ id: number }[]>('/plans/list')
  await api('/companies', {
    body: {
      name: 'Loja Verde',
      email: OWNER.email,
      password: PASSWORD,
      planId: plan!.id,
      dueDate: '2099-12-31',
    },
  })
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  })
  const { token } = (await login.json()) as { token: string }
  const res = await fetch(`${server.url}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ana Atendente', email: AGENT.email, password: PASSWORD, profile: 'user' }),
  })
  if (!res.ok) throw new Error(`POST /users: ${res.status} ${await res.text()}`)
}, 60_000)

afterAll(async () => {
  for (const b of browsers) await b.close()
  await server?.stop()
})

describe('help videos and the to-do list in the browser', () => {
  test('the super user adds a help video in Settings > Help', async () => {
    const page = await open(ADMIN)
    await page.goto(`${server.url}/settings`)
    await page.getByRole('tab', { name: 'Ajuda' }).click()
    await page.getByRole('button', { name: 'Adicionar vídeo' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('textbox', { name: /Título/ }).fill(TITLE)
    await dialog
      .getByRole('textbox', { name: /Descrição/ })
      .fill('Passo a passo para passar o ticket a outra fila.')
    await dialog
      .getByRole('textbox', { name: /Vídeo/ })
      .fill(`https://www.youtube.com/watch?v=${VIDEO_ID}&t=5`)
    await shot(page, 'settings-dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Operação realizada com sucesso!').waitFor()
    const table = page.getByRole('table', { name: 'Ajuda' })
    await table.getByText(TITLE).waitFor()
    expect(await table.getByText(VIDEO_ID).count()).toBe(1)
    await shot(page, 'settings-tab')
  }, 60_000)

  test('an attendant of another company sees the card, opens the video and closes it with Escape', async () => {
    youtube.length = 0
    const page = await open(AGENT)
    // Nothing of YouTube's before the help page is shown.
    expect(youtube).toEqual([])
    await page.getByRole('link', { name: 'Ajuda' }).click()
    await page.waitForURL('**/helps')
    const card = page.getByRole('button', { name: `Assistir: ${TITLE}` })
    await card.waitFor()
    // The thumbnail was asked of YouTube's image host once the page showed (aborted here: the card keeps a
    // placeholder instead of a broken image); the player's host was not contacted.
    const thumbnail = `https://i.ytimg.com/vi/${VIDEO_ID}/hqdefault.jpg`
    for (let i = 0; i < 50 && !youtube.includes(thumbnail); i++) await Bun.sleep(100)
    expect(youtube).toEqual([thumbnail])
    expect(await page.locator('iframe').count()).toBe(0)
    await shot(page, 'grid')

    await card.click()
    // The dialog's outer element has no box of its own: wait for what is inside it.
    const dialog = page.getByRole('dialog')
    const frame = dialog.locator('iframe')
    await frame.waitFor({ state: 'attached' })
    expect(await frame.getAttribute('src')).toBe(
      `https://www.youtube-nocookie.com/embed/${VIDEO_ID}?autoplay=1`,
    )
    expect(await frame.getAttribute('title')).toBe(`Vídeo: ${TITLE}`)
    expect(youtube.filter((u) => u.startsWith('https://www.youtube-nocookie.com/embed/'))).toHaveLength(1)
    await shot(page, 'modal')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await page.locator('iframe').count()).toBe(0)
    // Focus is back on the card: Enter opens it again, Escape closes it again.
    await page.keyboard.press('Enter')
    await page.getByRole('dialog').locator('iframe').waitFor({ state: 'attached' })
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
  }, 60_000)

  test("the attendant's to-do list survives a reload", async () => {
    const page = browsers[browsers.length - 1]!.context.pages()[0]!
    await page.getByRole('link', { name: 'Tarefas' }).click()
    await page.waitForURL('**/todolist')
    await page.getByText('Nenhuma tarefa por aqui').waitFor()
    const input = page.getByRole('textbox', { name: 'Nova tarefa' })
    await input.fill('   ')
    await input.press('Enter')
    await input.fill('Retornar a ligação do cliente')
    await input.press('Enter')
    await input.fill('Conferir a fila de Vendas')
    await input.press('Enter')
    await page.getByRole('button', { name: 'Editar: Conferir a fila de Vendas' }).click()
    const edit = page.getByRole('textbox', { name: 'Editar tarefa' })
    await edit.fill('Conferir a fila de Suporte')
    await edit.press('Enter')
    await shot(page, 'todolist')
    await page.reload()
    await page.getByText('Conferir a fila de Suporte').waitFor()
    const texts = await page
      .getByRole('list', { name: 'Tarefas' })
      .locator('li p:first-of-type')
      .allTextContents()
    expect(texts).toEqual(['Retornar a ligação do cliente', 'Conferir a fila de Suporte'])
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('tasks') ?? 'null'))
    expect(stored.map((t: { text: string }) => t.text)).toEqual(texts)
    expect(Object.keys(stored[0]).sort()).toEqual(['createdAt', 'text', 'updatedAt'])
  }, 60_000)
})
