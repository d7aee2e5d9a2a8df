/**
 * Browser test of the inbox through the sandbox, against the BUILT executable (`npm run build`, then
 * `npm run test:e2e`): a virtual customer writes, the pending ticket appears live for the attendant of its queue,
 * who accepts, writes a private note (never sent), replies (the sandbox records the reply) and resolves; an
 * attendant of another queue, signed in in a second browser the whole time, never sees it. Screenshots land in
 * tests/e2e/artifacts/.
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
  launchPage,
  pairedSandbox,
  signIn,
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
let api: Api
/** Every live frame the other queue's attendant received. */
const vendasFrames: string[] = []
let connectionId = 0

async function signInAs(email: string): Promise<Page> {
  const browser = await launchPage({ colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-inbox-' })
  browsers.push(browser)
  const { page } = browser
  if (email === VENDAS.email)
    page.on('websocket', (ws) => ws.on('framereceived', (f) => vendasFrames.push(String(f.payload))))
  await signIn(page, server.url, { email, password: PASSWORD })
  return page
}

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-inbox-data-' })
  api = await adminApi(server.url)
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
  connectionId = await pairedSandbox(api, { queueIds: [suporteQueue.id] })
  suporte = await signInAs(SUPORTE.email)
  vendas = await signInAs(VENDAS.email)
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
    // A private note first: note mode ends with it, so the reply below reaches the customer.
    await suporte.getByRole('button', { name: 'Nota privada (não é enviada ao cliente)' }).click()
    await suporte.getByTestId('note-mode').waitFor()
    await input.fill('Nota: cliente com pedido atrasado')
    await input.press('Enter')
    await suporte.getByTestId('note-mode').waitFor({ state: 'detached' })
    await suporte.getByText('Nota: cliente com pedido atrasado').first().waitFor()
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
    const all = await api<{ body: string }[]>(`/sandbox/connections/${connectionId}/outbound`)
    expect(all.filter((m) => m.body?.includes('pedido atrasado'))).toEqual([])
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
    // Not even over the socket: no ticket or message frame names the customer, and no frame carries their
    // messages. Contacts are the company's (every user lists them on the contacts screen), so a contact update
    // (a name or picture fetched a moment later) may reach everyone.
    const contactFrame = (f: string) => /"event":"company-\d+-contact"/.test(f)
    expect(vendasFrames.filter((f) => !contactFrame(f) && f.includes('Joana'))).toEqual([])
    expect(vendasFrames.filter((f) => f.includes('pedido não chegou'))).toEqual([])
    await shot(vendas, 'other-queue')
  })
})
