/**
 * Browser test of the messages API page against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test messages-api.test.ts`): the admin pastes a paired sandbox connection's token into the
 * text tester, sends to a number, sees 'Mensagem enviada com sucesso', and the message reaches the sandbox and
 * shows up in the tickets screen; a number WhatsApp does not know is refused in words. Screenshots land in
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
  startBalcao,
} from './support'

/** The browser's admin: signing ADMIN in there would end the API client's session (one session per user). */
const BROWSER_ADMIN = { email: 'integra@balcao.local', password: 'Integra-123' }
const NUMBER = '5511977776666'
const TEXT = 'Seu pedido 1234 saiu para entrega pela API.'

let server: Balcao
let browser: Browser
let page: Page
let api: Api
let connectionId = 0
let token = ''

const shot = (name: string) =>
  page.screenshot({ path: join(ARTIFACTS, `messages-api-${name}.png`), fullPage: true })

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-messages-api-data-' })
  api = await adminApi(server.url)
  connectionId = await pairedSandbox(api)
  token = (await api<{ token: string }>(`/whatsapp/${connectionId}`)).token
  expect(token.length).toBeGreaterThan(10)
  await api('/users', { body: { name: 'Integradora', ...BROWSER_ADMIN, profile: 'admin' } })
  const launched = await launchPage()
  browser = launched
  page = launched.page
  await page.goto(`${server.url}/login`)
  await page.getByLabel('E-mail').fill(BROWSER_ADMIN.email)
  await page.getByLabel('Senha', { exact: true }).fill(BROWSER_ADMIN.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the messages API page (sandbox)', () => {
  test('the page documents the call for this server, reached from the menu', async () => {
    await page.getByRole('link', { name: 'API de mensagens' }).first().click()
    await page.waitForURL('**/messages-api')
    await page.getByRole('heading', { name: 'API de mensagens' }).waitFor()
    const curl = await page.getByRole('figure', { name: 'Exemplo curl de texto' }).textContent()
    expect(curl).toContain(`${server.url}/api/messages/send`)
    await shot('page')
  })

  test('the text tester sends through the sandbox and the message shows up', async () => {
    const form = page.getByRole('form', { name: 'Testar mensagem de texto' })
    await form.getByLabel(/Token da conexão/).fill(token)
    await form.getByRole('textbox', { name: /Número/ }).fill('+55 (11) 97777-6666')
    await form.getByRole('textbox', { name: /Mensagem/ }).fill(TEXT)
    await form.getByRole('button', { name: 'Enviar' }).click()
    await form.getByText(/Use só dígitos, sem máscara/).waitFor()
    await form.getByRole('textbox', { name: /Número/ }).fill(NUMBER)
    await form.getByRole('button', { name: 'Enviar' }).click()
    await form
      .getByRole('status')
      .filter({ hasText: 'Mensagem enviada com sucesso' })
      .waitFor({ timeout: 15_000 })
    await shot('sent')

    // the sandbox carried it to the number
    const outbound = await api<{ to: string; body?: string }[]>(
      `/sandbox/connections/${connectionId}/outbound`,
    )
    const sent = outbound.filter((m) => m.body === TEXT)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.to).toMatch(/11977776666|@lid$/)

    // and it is in the tickets screen, in the contact's conversation
    await page.goto(`${server.url}/tickets`)
    await page.getByRole('tab', { name: /Aguardando/ }).click()
    await page.getByText(TEXT).first().waitFor({ timeout: 10_000 })
    await shot('ticket')
  })

  test('a number WhatsApp does not know is refused in words', async () => {
    await page.goto(`${server.url}/messages-api`)
    const form = page.getByRole('form', { name: 'Testar mensagem de texto' })
    await form.getByLabel(/Token da conexão/).fill(token)
    await form.getByRole('textbox', { name: /Número/ }).fill('5511988880000')
    await form.getByRole('textbox', { name: /Mensagem/ }).fill('Olá')
    await form.getByRole('button', { name: 'Enviar' }).click()
    await form
      .getByRole('alert')
      .filter({ hasText: 'Este não é um número de WhatsApp válido.' })
      .waitFor({ timeout: 15_000 })
    // a wrong token too
    await form.getByLabel(/Token da conexão/).fill('not-a-token')
    await form.getByRole('textbox', { name: /Número/ }).fill(NUMBER)
    await form.getByRole('button', { name: 'Enviar' }).click()
    await form.getByRole('alert').filter({ hasText: 'Token inválido' }).waitFor({ timeout: 15_000 })
    await shot('refused')
  })
})
