/**
 * Browser test of the queue dialog's chatbot menu against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test queue-options.test.ts`): an admin opens a queue, builds a two-level menu (option 1
 * 'Vendas' with child 1 'Novos pedidos') with the keyboard and the mouse, and the options are stored (checked
 * through the API). Then a sandbox connection linked to that queue and another one, with a greeting, shows the
 * menu to a virtual customer, who answers with the queue's number, '1' for 'Vendas' and '1' for 'Novos pedidos';
 * the ticket lands in the queue (checked through the API) and appears in the pending list of the queue's
 * attendant, in a second browser. Screenshots at 1280 px and 375 px land in tests/e2e/artifacts/.
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

const PASSWORD = 'Menu-12345'
/** Signing in ends the user's other sessions: the API uses the seeded admin, the browser its own admin. */
const DESK = { email: 'menu@balcao.local', name: 'Marta Menu' }
/** The attendant of the queue with the menu. */
const AGENT = { email: 'vendedora@menu.local', name: 'Alice Atendente' }
const CUSTOMER = { from: '5511988887777', name: 'Joana Cliente' }

let server: Balcao
let browser: Browser | null = null
let agentBrowser: Browser | null = null
let page: Page
let api: Api
let queueId = 0

type Option = { id: number; title: string; option: string; parentId: number; children: Option[] }

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `queue-options-${name}.png`) })

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-queue-options-data-' })
  api = await adminApi(server.url)
  await api('/users', { body: { ...DESK, password: PASSWORD, profile: 'admin' } })
  queueId = (await api<{ id: number }>('/queue', { body: { name: 'Atendimento', color: '#3284FE' } })).id

  const launched = await launchPage({
    colorScheme: 'light',
    locale: 'pt-BR',
    prefix: 'balcao-e2e-queue-options-',
  })
  browser = launched
  page = launched.page
  await page.setViewportSize({ width: 1280, height: 800 })
  await signIn(page, server.url, { email: DESK.email, password: PASSWORD })
}, 90_000)

afterAll(async () => {
  await agentBrowser?.close()
  await browser?.close()
  await server?.stop()
})

describe('the chatbot menu in the queue dialog', () => {
  test("an admin builds a two-level menu: 1 'Vendas' with 1 'Novos pedidos'; the options are stored", async () => {
    await page.goto(`${server.url}/queues`)
    await page.getByRole('button', { name: 'Editar: Atendimento' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('tab', { name: 'Menu do chatbot' }).click()
    await dialog.getByText('Nenhuma opção ainda').waitFor()
    await shot(page, 'empty')

    await dialog.getByRole('button', { name: 'Adicionar opção' }).click()
    await dialog.getByLabel('Título').fill('Vendas')
    await dialog.getByLabel('Mensagem', { exact: false }).first().fill('Escolha o assunto:')
    await page.keyboard.press('Tab')
    await dialog.getByRole('button', { name: 'Salvar opção' }).click()
    const vendas = dialog.locator('li[data-option-id]').filter({ hasText: 'Vendas' }).first()
    await vendas.waitFor()

    await vendas.getByRole('button', { name: 'Adicionar sub-opção' }).first().click()
    const title = dialog.getByLabel('Título')
    await title.fill('Novos pedidos')
    await title.press('Enter') // Enter saves the option, not the queue
    await dialog.getByText('Novos pedidos').waitFor()
    await dialog.getByText('1 sub-opção').waitFor()
    await shot(page, 'two-levels')

    let stored: Option[] = []
    for (let i = 0; i < 30; i++) {
      stored = await api<Option[]>(`/queue-options?queueId=${queueId}&parentId=-1`)
      if (stored[0]?.children.length) break
      await Bun.sleep(100)
    }
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ title: 'Vendas', option: '1', parentId: -1 })
    expect(stored[0]!.children).toHaveLength(1)
    expect(stored[0]!.children[0]).toMatchObject({
      title: 'Novos pedidos',
      option: '1',
      parentId: stored[0]!.id,
    })

    // The dialog is still open (Enter did not save and close the queue) and works on a phone.
    await page.setViewportSize({ width: 375, height: 812 })
    await dialog.getByText('Novos pedidos').waitFor()
    await shot(page, 'phone')
    await page.setViewportSize({ width: 1280, height: 800 })
  }, 40_000)

  test("a sandbox customer walks it: the queue's number, '1' Vendas, '1' Novos pedidos; the ticket lands in the queue", async () => {
    // What the connection needs to show the menu: a greeting and two queues (so the main menu is numbered),
    // a message for the leaf, and the queue's attendant.
    const financeiro = await api<{ id: number }>('/queue', { body: { name: 'Financeiro', color: '#16a34a' } })
    const [vendas] = await api<Option[]>(`/queue-options?queueId=${queueId}&parentId=-1`)
    const novosPedidos = vendas!.children[0]!
    await api(`/queue-options/${novosPedidos.id}`, {
      method: 'PUT',
      body: { message: 'Um vendedor já vai falar com você, {{firstName}}.' },
    })
    await api('/users', { body: { ...AGENT, password: PASSWORD, profile: 'user', queueIds: [queueId] } })
    const connectionId = await pairedSandbox(api, {
      greetingMessage: 'Olá {{firstName}}! Escolha um setor:',
      queueIds: [queueId, financeiro.id],
    })

    const customerWrites = (body: string) =>
      api(`/sandbox/connections/${connectionId}/inbound`, { body: { ...CUSTOMER, body } })
    /** What the customer received, once there are `count` messages. */
    const received = async (count: number) => {
      let bodies: string[] = []
      for (let i = 0; i < 100 && bodies.length < count; i++) {
        bodies = (
          await api<{ kind: string; body?: string }[]>(`/sandbox/connections/${connectionId}/outbound`)
        ).map((m) => m.body ?? '')
        if (bodies.length < count) await Bun.sleep(100)
      }
      expect(bodies).toHaveLength(count)
      return bodies
    }

    await customerWrites('Oi, quero fazer um pedido')
    const greeting = (await received(1))[0]!
    expect(greeting).toStartWith('Olá Joana! Escolha um setor:')
    expect(greeting).toContain('Financeiro')
    const number = /\*\[ (\d+) \]\* - Atendimento/.exec(greeting)?.[1]
    expect(number).toBeDefined()

    await customerWrites(number!)
    expect((await received(2))[1]).toContain('*[ 1 ]* - Vendas')
    await customerWrites('1')
    const submenu = (await received(3))[2]!
    expect(submenu).toStartWith('Escolha o assunto:')
    expect(submenu).toContain('*[ 1 ]* - Novos pedidos')
    await customerWrites('1')
    expect((await received(4))[3]).toBe('Um vendedor já vai falar com você, Joana.')

    type Ticket = { status: string; queueId: number | null; chatbot: boolean; contact: { name: string } }
    const { tickets } = await api<{ tickets: Ticket[] }>('/tickets?status=pending&showAll=true')
    const ticket = tickets.find((t) => t.contact.name === CUSTOMER.name)
    expect(ticket).toMatchObject({ status: 'pending', queueId, chatbot: false })

    // The queue's attendant finds it waiting in their pending list.
    const launched = await launchPage({
      colorScheme: 'light',
      locale: 'pt-BR',
      prefix: 'balcao-e2e-queue-options-agent-',
    })
    agentBrowser = launched
    const agent = launched.page
    await signIn(agent, server.url, { email: AGENT.email, password: PASSWORD })
    await agent.getByRole('tab', { name: /Aguardando/ }).click()
    await agent.getByText(CUSTOMER.name).first().waitFor({ timeout: 10_000 })
    await shot(agent, 'customer-in-queue')
  }, 60_000)
})
