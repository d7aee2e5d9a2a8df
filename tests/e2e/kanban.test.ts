/**
 * Browser test of the Kanban board against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test kanban.test.ts`): a sandbox customer writes, the pending ticket shows in 'Em aberto',
 * the admin drags its card to a lane with the keyboard and then to another lane with the mouse; each move is
 * checked on the server (the ticket's tags) and by the spec's toasts. Screenshots land in tests/e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import {
  type Api,
  ARTIFACTS,
  adminApi,
  artifactsDir,
  type Balcao,
  type Browser,
  horizontalOverflow,
  launchPage,
  pairedSandbox,
  signIn,
  startBalcao,
  useDarkTheme,
} from './support'

const CUSTOMER = { from: '5511977776666', name: 'Bruno Kanban' }
const PASSWORD = 'Quadro-123'
/** Signing in ends the user's other sessions: the API, the desktop and the phone each use their own admin. */
const DESK = { email: 'kanban@balcao.local', name: 'Karla Kanban' }
const PHONE = { email: 'kanban-phone@balcao.local', name: 'Paulo Kanban' }

let server: Balcao
const browsers: Browser[] = []
let page: Page
let api: Api
let lanes: { negociacao: number; fechado: number }
let vip = 0

type BoardTicket = { id: number; contact: { name: string }; tags: { id: number }[] }

/** The customer's ticket as the server has it now. */
async function customerTicket(): Promise<BoardTicket | undefined> {
  const board = await api<{ tickets: BoardTicket[] }>('/ticket/kanban?showAll=true')
  return board.tickets.find((t) => t.contact.name === CUSTOMER.name)
}

async function waitForTags(ids: number[]) {
  let tags: number[] = []
  for (let i = 0; i < 50; i++) {
    tags = ((await customerTicket())?.tags ?? []).map((t) => t.id).sort((a, b) => a - b)
    if (JSON.stringify(tags) === JSON.stringify(ids)) return tags
    await Bun.sleep(100)
  }
  return tags
}

const lane = (name: string) =>
  page.locator('li[data-lane]').filter({ has: page.getByRole('heading', { name }) })
const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `kanban-${name}.png`) })

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-kanban-data-' })
  api = await adminApi(server.url)
  const negociacao = await api<{ id: number }>('/tags', {
    body: { name: 'Negociação', color: '#F59E0B', kanban: 1 },
  })
  const fechado = await api<{ id: number }>('/tags', {
    body: { name: 'Fechado', color: '#22C55E', kanban: 1 },
  })
  lanes = { negociacao: negociacao.id, fechado: fechado.id }
  for (const who of [DESK, PHONE])
    await api('/users', { body: { ...who, password: PASSWORD, profile: 'admin' } })
  const connectionId = await pairedSandbox(api)
  await api(`/sandbox/connections/${connectionId}/inbound`, {
    body: { ...CUSTOMER, body: 'Quero fechar o orçamento' },
  })
  for (let i = 0; i < 100 && !(await customerTicket()); i++) await Bun.sleep(100)
  // An ordinary tag on the ticket: it keeps the card in 'Em aberto' and stays through every move.
  vip = (await api<{ id: number }>('/tags', { body: { name: 'VIP', color: '#8B5CF6' } })).id
  const ticket = await customerTicket()
  if (ticket) await api(`/ticket-tags/${ticket.id}/${vip}`, { method: 'PUT' })

  const browser = await launchPage({ colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-kanban-' })
  browsers.push(browser)
  page = browser.page
  await signIn(page, server.url, { email: DESK.email, password: PASSWORD })
}, 90_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await server?.stop()
})

describe('the Kanban board in a browser (sandbox)', () => {
  test("the customer's pending ticket is in 'Em aberto'; the lanes follow in their colours", async () => {
    expect(await customerTicket()).toBeDefined()
    await page.getByRole('link', { name: 'Kanban', exact: true }).click()
    await page.waitForURL('**/kanban')
    await lane('Em aberto').getByText(CUSTOMER.name).waitFor({ timeout: 10_000 })
    await lane('Em aberto').getByText('Quero fechar o orçamento').waitFor()
    const headings = await page.locator('li[data-lane] h2').allTextContents()
    expect(headings).toEqual(['Em aberto', 'Fechado', 'Negociação'])
    await shot(page, 'board')
  }, 20_000)

  test("the keyboard drags the card from 'Em aberto' to a lane: the ticket gets the tag, with the toast", async () => {
    const handle = page.getByRole('button', { name: `Arrastar o ticket de ${CUSTOMER.name}` })
    await handle.focus()
    await page.keyboard.press('Space')
    await Bun.sleep(100)
    await page.keyboard.press('ArrowRight') // Fechado
    await Bun.sleep(250)
    await page.keyboard.press('ArrowRight') // Negociação
    await Bun.sleep(250)
    await page.keyboard.press('Space')
    await page.getByText('Ticket Tag Adicionado com Sucesso!').waitFor({ timeout: 5_000 })
    const want = [lanes.negociacao, vip].sort((a, b) => a - b)
    expect(await waitForTags(want)).toEqual(want)
    await lane('Negociação').getByText(CUSTOMER.name).waitFor()
    expect(await lane('Em aberto').getByText(CUSTOMER.name).count()).toBe(0)
    await shot(page, 'moved-keyboard')
  }, 20_000)

  test('the mouse drags it on to another lane: the old lane tag goes, the new one comes, both toasts', async () => {
    const card = lane('Negociação').locator('li[data-ticket]').filter({ hasText: CUSTOMER.name })
    const target = lane('Fechado')
    const from = (await card.boundingBox())!
    const to = (await target.boundingBox())!
    await page.mouse.move(from.x + from.width / 2, from.y + 20)
    await page.mouse.down()
    await page.mouse.move(from.x + from.width / 2 - 20, from.y + 30, { steps: 5 })
    await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 15 })
    await page.mouse.up()
    await page.getByText('Ticket Tag Removido!').waitFor({ timeout: 5_000 })
    await page.getByText('Ticket Tag Adicionado com Sucesso!').waitFor()
    const want = [lanes.fechado, vip].sort((a, b) => a - b)
    expect(await waitForTags(want)).toEqual(want)
    await lane('Fechado').getByText(CUSTOMER.name).waitFor()
    await shot(page, 'moved-mouse')
  }, 20_000)

  test('the board and the lanes screen on a phone and in the dark theme', async () => {
    const phone = await launchPage({
      colorScheme: 'dark',
      locale: 'pt-BR',
      viewport: { width: 375, height: 812 },
      prefix: 'balcao-e2e-kanban-phone-',
    })
    browsers.push(phone)
    const p = phone.page
    await signIn(p, server.url, { email: PHONE.email, password: PASSWORD })
    await p.goto(`${server.url}/kanban`)
    await p.getByText(CUSTOMER.name).first().waitFor({ timeout: 10_000 })
    await useDarkTheme(p)
    // Nothing wider than the screen but the lanes' own scroller.
    const overflow = await horizontalOverflow(p)
    expect(overflow).toBeLessThanOrEqual(0)
    await Bun.sleep(400) // the colours' 150 ms transition
    await shot(p, 'phone-dark')
    await p.goto(`${server.url}/TagsKanban`)
    await p.getByText('Negociação').first().waitFor()
    await shot(p, 'lanes-phone-dark')
    await page.goto(`${server.url}/tagsKanban`)
    await page.getByText('Negociação').first().waitFor()
    await shot(page, 'lanes')
  }, 40_000)
})
