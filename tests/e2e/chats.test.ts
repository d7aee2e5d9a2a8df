/**
 * Browser test of the internal chat against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test chats.test.ts`): two users of one company in two browsers. A creates a chat with B
 * and writes; B, who never reloads, gets the menu dot and the top bar's count live, opens the chat (the dot
 * clears) and answers; A sees the answer arrive in the open chat. Screenshots land in tests/e2e/artifacts/.
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

const BRUNA = { name: 'Bruna Souza', email: 'bruna@balcao.local', password: 'Bruna-123' }
const TITLE = 'Plantão de sábado'

let server: Balcao
const browsers: Browser[] = []
let ana: Page
let bruna: Page

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `chats-${name}.png`) })
const chatsLink = (p: Page) => p.getByRole('navigation').getByRole('link', { name: /Chat Interno/ })

beforeAll(async () => {
  artifactsDir()
  server = await startBalcao({ prefix: 'balcao-e2e-chats-data-' })
  // A second user of the same company, made through the API before anyone signs in in a browser.
  const api = await adminApi(server.url)
  await api('/users', { body: { ...BRUNA, profile: 'user' } })

  const a = await launchPage({ colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-chat-a-' })
  const b = await launchPage({ colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-chat-b-' })
  browsers.push(a, b)
  ana = a.page
  bruna = b.page
  await signIn(ana, server.url, ADMIN)
  await signIn(bruna, server.url, BRUNA)
}, 90_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await server?.stop()
})

/** Sent: the composer is cleared (until then it holds the same text, and getByText would match it too). */
async function composerCleared(page: Page) {
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-testid="chat-pane"] textarea') as HTMLTextAreaElement | null)?.value ===
      '',
    undefined,
    { timeout: 5_000 },
  )
}

describe('internal chat in two browsers', () => {
  test('A creates a chat with B (after the dialog refuses an empty one) and writes', async () => {
    expect(await chatsLink(bruna).getByTestId('menu-badge').count()).toBe(0)
    await chatsLink(ana).click()
    await ana.waitForURL('**/chats')
    await ana.getByText('Nenhuma conversa ainda').waitFor({ timeout: 10_000 })
    await ana.getByRole('button', { name: 'Nova conversa' }).first().click()
    const dialog = ana.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await dialog.getByText('Por favor, preencha o título da conversa.').waitFor()
    await dialog.getByText('Por favor, selecione pelo menos um usuário.').waitFor()
    await dialog.getByRole('textbox', { name: /Título/ }).fill(TITLE)
    await dialog.getByRole('button', { name: 'Usuários' }).click()
    await ana.getByRole('option', { name: BRUNA.name }).click()
    await ana.keyboard.press('Escape')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await ana.waitForURL(/\/chats\/[0-9a-f-]{36}$/)
    const pane = ana.getByTestId('chat-pane')
    await pane.getByRole('heading', { name: TITLE }).waitFor()
    const box = pane.getByRole('textbox', { name: 'Mensagem' })
    await box.fill('   ')
    await box.press('Enter')
    await box.fill('Bruna, você cobre o sábado?')
    await box.press('Enter')
    await composerCleared(ana)
    await pane.getByText('Bruna, você cobre o sábado?').waitFor()
    expect(await box.inputValue()).toBe('')
    await shot(ana, 'a-sent')
  }, 30_000)

  test('B sees it live: the menu dot and the top bar count appear, the chat shows one unread', async () => {
    // Bruna is still on the tickets page and never reloaded.
    await chatsLink(bruna).getByTestId('menu-badge').waitFor({ timeout: 10_000 })
    await bruna.getByTestId('chats-notifications-button').getByText('1').waitFor()
    await shot(bruna, 'b-dot')
    await bruna.getByTestId('chats-notifications-button').click()
    await bruna.getByRole('link', { name: new RegExp(TITLE) }).waitFor()
    await shot(bruna, 'b-popover')
    await bruna.keyboard.press('Escape')
    await chatsLink(bruna).click()
    const row = bruna.getByTestId('chat-row').filter({ hasText: TITLE })
    await row.getByTestId('chat-unreads').getByText('1').waitFor({ timeout: 10_000 })
    await row.getByText('Bruna, você cobre o sábado?').waitFor()
  }, 30_000)

  test('B opens the chat: the message is there and the dot clears; B answers and A sees it live', async () => {
    await bruna.getByTestId('chat-row').filter({ hasText: TITLE }).click()
    const pane = bruna.getByTestId('chat-pane')
    await pane.getByText('Bruna, você cobre o sábado?').waitFor({ timeout: 10_000 })
    await chatsLink(bruna).getByTestId('menu-badge').waitFor({ state: 'detached', timeout: 10_000 })
    expect(await bruna.getByTestId('chat-unreads').count()).toBe(0)
    // Not the owner: no edit or delete.
    expect(await pane.getByRole('button', { name: 'Editar conversa' }).count()).toBe(0)
    const box = pane.getByRole('textbox', { name: 'Mensagem' })
    await box.fill('Cubro sim!')
    await box.press('Shift+Enter')
    await box.pressSequentially('Até sábado.')
    await box.press('Enter')
    await composerCleared(bruna)
    await pane.getByText(/Cubro sim!/).waitFor()
    await shot(bruna, 'b-replied')

    // Ana has the chat open: the answer arrives without a reload, on the left, with Bruna's name.
    const anaPane = ana.getByTestId('chat-pane')
    await anaPane.getByText(/Cubro sim!/).waitFor({ timeout: 10_000 })
    expect(await anaPane.getByTestId('chat-sender').last().textContent()).toBe(BRUNA.name)
    // She was reading it: it is marked read for her at once, so no dot for her.
    await ana.waitForTimeout(500)
    expect(await chatsLink(ana).getByTestId('menu-badge').count()).toBe(0)
    await shot(ana, 'a-received')
  }, 30_000)
})
