/**
 * Browser test of the inbox through the sandbox, against the BUILT executable (`npm run build`, then
 * `npm run test:e2e`): a virtual customer writes, the pending ticket appears live for the attendant of its queue,
 * who accepts, replies (the sandbox records the reply) and resolves; an attendant of another queue, signed in
 * in a second browser the whole time, never sees it. Screenshots land in tests/e2e/artifacts/.
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

const PASSWORD = 'Atende-123'
const SUPORTE = { email: 'suporte@balcao.local', name: 'Sara Suporte' }
const VENDAS = { email: 'vendas@balcao.local', name: 'Victor Vendas' }
const CUSTOMER = { from: '5511988887777', name: 'Joana Cliente' }

let server: Balcao
const browsers: Browser[] = []
let suporte: Page
let vendas: Page
let adminToken = ''
/** Every live frame the other queue's attendant received. */
const vendasFrames: string[] = []
let connectionId = 0

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  if (!res.ok) throw new Error(`${init.method ?? 'POST'} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function signIn(email: string): Promise<Page> {
  const browser = await launchBrowser({ colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-inbox-' })
  browsers.push(browser)
  const page = browser.context.pages()[0] ?? (await browser.context.newPage())
  if (email === VENDAS.email)
    page.on('websocket', (ws) => ws.on('framereceived', (f) => vendasFrames.push(String(f.payload))))
  await page.goto(`${server.url}/login`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Senha', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await page.waitForURL('**/tickets')
  return page
}

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-inbox-data-' })
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  adminToken = ((await login.json()) as { token: string }).token
  const suporteQueue = await api<{ id: number }>('/queue', { body: { name: 'Suporte', color: '#2563eb' } })
  const vendasQueue = await api<{ id: number }>('/queue', { body: { name: 'Vendas', color: '#16a34a' } })
  for (const [who, queue] of [
    [SUPORTE, suporteQueue],
    [VENDAS, vendasQueue],
  ] as const) {
    await api('/users', {
      body: { ...who, password: PASSWORD, profile: 'user', queueIds: [queue.id] },
    })
  }
  const connection = await api<{ id: number }>('/whatsapp', {
    body: { name: 'Loja', provider: 'sandbox', queueIds: [suporteQueue.id] },
  })
  connectionId = connection.id
  await api(`/sandbox/connections/${connectionId}/pair`, { body: {} })
  suporte = await signIn(SUPORTE.email)
  vendas = await signIn(VENDAS.email)
}, 90_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await server?.stop()
})

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `inbox-${name}.png`) })

describe('the inbox in a browser (sandbox)', () => {
  test('a customer writes: the pending ticket appears live for the queue’s attendant', async () => {
    await api(`/sandbox/connections/${connectionId}/inbound`, {
      body: { ...CUSTOMER, body: 'Olá, meu pedido não chegou' },
    })
    await suporte.getByRole('tab', { name: /Aguardando/ }).click()
    await suporte.getByText(CUSTOMER.name).first().waitFor({ timeout: 10_000 })
    await suporte.getByText('Olá, meu pedido não chegou').first().waitFor()
    await shot(suporte, 'pending')
  })

  test('the attendant accepts and replies; the sandbox records the reply', async () => {
    await suporte.getByRole('button', { name: 'Aceitar' }).first().click()
    await suporte.waitForURL(/\/tickets\/[\w-]+$/)
    const input = suporte.getByRole('textbox', { name: /Mensagem/ })
    await input.waitFor()
    await input.fill('Oi Joana, vou verificar agora mesmo.')
    await input.press('Enter')
    let sent: { to: string; body: string }[] = []
    for (let i = 0; i < 100 && sent.length === 0; i++) {
      sent = (
        await api<{ to: string; body: string }[]>(`/sandbox/connections/${connectionId}/outbound`)
      ).filter((m) => m.body?.includes('vou verificar agora mesmo'))
      if (sent.length === 0) await Bun.sleep(100)
    }
    expect(sent).toHaveLength(1)
    // The sandbox, like WhatsApp today, addresses this customer by LID as well as by number.
    expect(sent[0]?.to).toMatch(/11988887777|@lid$/)
    await shot(suporte, 'replied')
  })

  test('the attendant resolves the ticket', async () => {
    await suporte
      .getByRole('button', { name: /^Resolver/ })
      .first()
      .click()
    const withoutFarewell = suporte.getByRole('menuitem', { name: 'Resolver sem despedida' })
    if (await withoutFarewell.isVisible().catch(() => false)) await withoutFarewell.click()
    await suporte.waitForURL('**/tickets')
    const tickets = await api<{ tickets: { status: string; contact: { name: string } }[] }>(
      '/tickets?status=closed&showAll=true',
    )
    expect(tickets.tickets.some((t) => t.contact.name === CUSTOMER.name)).toBe(true)
    await shot(suporte, 'resolved')
  })

  test('the attendant of another queue never saw it', async () => {
    for (const tab of [/Atendendo/, /Aguardando/]) {
      await vendas.getByRole('tab', { name: tab }).click()
      expect(await vendas.getByText(CUSTOMER.name).count()).toBe(0)
    }
    // Not even over the socket: no frame names the customer or carries their messages.
    expect(vendasFrames.filter((f) => f.includes('Joana') || f.includes('pedido não chegou'))).toEqual([])
    await shot(vendas, 'other-queue')
  })
})
