/**
 * Browser test of the dashboard against the BUILT executable (`npm run build`, then `cd tests/e2e && bun test
 * dashboard.test.ts`). Seeded through the API and the sandbox: three customers write (three pending tickets), the
 * admin accepts two and resolves one, whose customer answers the rating question with 9. The admin then opens /
 * and sees the cards, today's chart, the NPS and the attendants; an attendant opening / lands on the tickets.
 * Screenshots (1280x800 and 375x812, light and dark) land in tests/e2e/artifacts/.
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
  pairedSandbox,
  signIn,
  startBalcao,
} from './support'

const PASSWORD = 'Painel-123'
const AGENT = { name: 'Rita Atendente', email: 'rita@painel.test', password: PASSWORD }
const CUSTOMERS = [
  { from: '5511977770001', name: 'Carlos Cliente', body: 'Oi, preciso de ajuda' },
  { from: '5511977770002', name: 'Denise Cliente', body: 'Quero um orçamento' },
  { from: '5511977770003', name: 'Eduardo Cliente', body: 'Meu pedido atrasou' },
]

let server: Balcao
let api: Api
let connectionId: number
const browsers: Browser[] = []

async function until<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = await fn()
    if (value) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(100)
  }
}

type TicketsPage = { tickets: { id: number; status: string; contact: { name: string } }[] }

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-dashboard-data-' })
  api = await adminApi(server.url)
  await api('/users', { body: { ...AGENT, profile: 'user' } })
  await api('/settings/userRating', { method: 'PUT', body: { key: 'userRating', value: 'enabled' } })
  connectionId = await pairedSandbox(api, {
    ratingMessage: 'Como foi o atendimento?',
    expiresTicketNPS: 30,
  })
  for (const c of CUSTOMERS)
    await api(`/sandbox/connections/${connectionId}/inbound`, {
      body: { from: c.from, name: c.name, body: c.body },
    })
  const pending = await until('three pending tickets', async () => {
    const page = await api<TicketsPage>('/tickets?status=pending&showAll=true')
    return page.tickets.length === 3 && page.tickets
  })
  const byName = new Map(pending.map((t) => [t.contact.name, t.id]))
  await api(`/tickets/${byName.get('Carlos Cliente')}`, { method: 'PUT', body: { status: 'open' } })
  await api(`/tickets/${byName.get('Denise Cliente')}`, { method: 'PUT', body: { status: 'open' } })
  await api(`/tickets/${byName.get('Carlos Cliente')}`, {
    method: 'PUT',
    body: { status: 'closed', sendFarewellMessage: false },
  })
  // The customer answers the rating question.
  await until('the rating question', async () => {
    const out = await api<{ to: string; body: string }[]>(`/sandbox/connections/${connectionId}/outbound`)
    return out.some((m) => m.body?.includes('Como foi o atendimento?'))
  })
  await api(`/sandbox/connections/${connectionId}/inbound`, {
    body: { from: CUSTOMERS[0]!.from, name: CUSTOMERS[0]!.name, body: '9' },
  })
  await until('the rating', async () => {
    const d = await api<{ nps: { total: number } }>('/dashboard?days=2')
    return d.nps.total === 1
  })
}, 90_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await server?.stop()
})

async function open(
  user: { email: string; password: string },
  options: { viewport?: { width: number; height: number }; dark?: boolean } = {},
): Promise<Page> {
  const browser = await launchPage({ viewport: options.viewport })
  browsers.push(browser)
  await signIn(browser.page, server.url, user)
  if (options.dark) await browser.page.getByRole('button', { name: 'Usar tema escuro' }).click()
  await browser.page.goto(`${server.url}/`)
  return browser.page
}

const shot = async (page: Page, name: string) => {
  await page.waitForTimeout(300) // the tab's underline and the bars settle
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true })
}

describe('the dashboard in a browser', () => {
  test('the admin sees the cards and today’s chart, loaded 1 s after opening', async () => {
    const page = await open(ADMIN)
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
    await page.getByTestId('card-in-service').waitFor({ timeout: 10_000 })
    const card = (id: string) => page.getByTestId(`card-${id}`).textContent()
    expect(await card('in-service')).toContain('1')
    expect(await card('waiting')).toContain('1')
    expect(await card('finished')).toContain('1')
    expect(await card('online')).toMatch(/de 2/)
    // Three customers wrote, one of them twice (the rating).
    expect(await card('received')).toContain('4')
    expect(await card('leads')).toContain('3')
    expect(await card('avg-wait')).toMatch(/\d\d h \d\d m/)
    expect(await card('avg-service')).toMatch(/\d\d h \d\d m/)
    const bars = page.getByTestId('hour-chart').getByRole('listitem')
    expect(await bars.count()).toBe(24)
    await page.getByText('3 atendimentos hoje').waitFor()
    // The menu has the dashboard, active on /.
    expect(await page.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page')
    await shot(page, 'indicators-desktop-light')

    await page.getByRole('tab', { name: 'NPS' }).click()
    expect(await page.getByTestId('nps-score').textContent()).toBe('100')
    await shot(page, 'nps-desktop-light')
    await page.getByRole('tab', { name: 'Atendentes' }).click()
    const table = page.getByRole('table', { name: 'Atendentes' })
    await table.waitFor()
    expect(await table.getByRole('row').count()).toBe(3)
    await shot(page, 'attendants-desktop-light')

    // No filter: 'Parametrize o filtro'.
    await page.getByRole('button', { name: /Período|Últimos 7 dias/ }).click()
    await page.getByRole('option', { name: 'Nenhum' }).click()
    await page.getByText('Parametrize o filtro').waitFor()
    await shot(page, 'no-filter-desktop-light')
  }, 60_000)

  test('phone and dark theme', async () => {
    for (const dark of [false, true]) {
      const page = await open(ADMIN, { viewport: { width: 375, height: 812 }, dark })
      await page.getByTestId('card-in-service').waitFor({ timeout: 10_000 })
      const theme = dark ? 'dark' : 'light'
      await shot(page, `indicators-phone-${theme}`)
      await page.getByRole('tab', { name: 'NPS' }).click()
      await shot(page, `nps-phone-${theme}`)
      await page.getByRole('tab', { name: 'Atendentes' }).click()
      await shot(page, `attendants-phone-${theme}`)
    }
    const page = await open(ADMIN, { dark: true })
    await page.getByTestId('card-in-service').waitFor({ timeout: 10_000 })
    await shot(page, 'indicators-desktop-dark')
    await page.getByRole('tab', { name: 'NPS' }).click()
    await shot(page, 'nps-desktop-dark')
  }, 90_000)

  test('an attendant opening / lands on the tickets', async () => {
    const page = await open(AGENT)
    await page.waitForURL('**/tickets')
    expect(await page.getByRole('link', { name: 'Dashboard' }).count()).toBe(0)
  }, 30_000)
})
