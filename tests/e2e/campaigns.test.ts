/**
 * Browser test of outreach against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test campaigns.test.ts`): with campaignsEnabled on, a paired sandbox connection and
 * campaign settings without waits, an admin creates a contact list, imports a spreadsheet (generated here with
 * @e965/xlsx: good rows, a number that is not on WhatsApp and a refused row), creates a campaign on the list and
 * the connection with a {nome} message, scheduled for now, and watches its report until every valid contact was
 * delivered and the invalid one is reported. The sandbox then shows one message per valid number, with the name
 * filled in, and none to the invalid one. Screenshots land in tests/e2e/artifacts/campaigns-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as XLSX from '@e965/xlsx'
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

const PASSWORD = 'Campanha-123'
/** Signing in ends the user's other sessions: the API, the desktop and the phone each use their own admin. */
const DESK = { email: 'campanhas@balcao.local', name: 'Clara Campanhas' }
const PHONE = { email: 'campanhas-phone@balcao.local', name: 'Pedro Campanhas' }
const LIST = 'Clientes Black Friday'
const CAMPAIGN = 'Ofertas de novembro'
const CONNECTION = 'Loja Campanhas'
/** The contacts WhatsApp knows (the sandbox: numbers not ending in 0). */
const VALID = [
  { name: 'Ana Souza', number: '5511987650001', email: 'ana@exemplo.com' },
  { name: 'Bruno Lima', number: '5511987650002', email: '' },
  { name: 'Carla Dias', number: '5511987650003', email: 'carla@exemplo.com' },
  { name: 'Davi Rocha', number: '5511987650004', email: '' },
  { name: 'Elisa Melo', number: '5511987650005', email: 'elisa@exemplo.com' },
]
/** Ends in 0: not on WhatsApp in the sandbox, so never sent to. */
const NOT_ON_WHATSAPP = { name: 'Fábio Zero', number: '5511987650010', email: '' }
/** Refused by the import: a one-letter name (row 5 of the sheet, the header being row 1). */
const BAD_ROW = { name: 'X', number: '5511987650006', email: '' }

let server: Balcao
const browsers: Browser[] = []
let page: Page
let api: Api
let connectionId = 0
let timeZone = 'America/Sao_Paulo'
let sheetDir = ''
let sheetPath = ''
let campaignId = 0

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `campaigns-${name}.png`) })

/** 'YYYY-MM-DDTHH:mm' (a datetime-local value) of `at` in `zone`. */
function wallTime(at: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}

/** The spreadsheet to import: the spec's columns nome, numero, email. */
function writeSheet(path: string) {
  const rows = [
    ['nome', 'numero', 'email'],
    ...VALID.slice(0, 3).map((c) => [c.name, c.number, c.email]),
    [BAD_ROW.name, BAD_ROW.number, BAD_ROW.email],
    ...VALID.slice(3).map((c) => [c.name, c.number, c.email]),
    [NOT_ON_WHATSAPP.name, NOT_ON_WHATSAPP.number, NOT_ON_WHATSAPP.email],
  ]
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos')
  writeFileSync(path, new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer))
}

type Outbound = { to: string; kind: string; body?: string }

/** The texts the sandbox recorded as sent to `number`. */
async function sentTo(number: string): Promise<Outbound[]> {
  const all = await api<Outbound[]>(`/sandbox/connections/${connectionId}/outbound`)
  return all.filter((m) => m.to.split('@')[0] === number)
}

beforeAll(async () => {
  artifactsDir()
  sheetDir = mkdtempSync(join(tmpdir(), 'balcao-e2e-campaigns-sheet-'))
  sheetPath = join(sheetDir, 'clientes.xlsx')
  writeSheet(sheetPath)
  server = await startBalcao({ sandbox: true, prefix: 'balcao-e2e-campaigns-data-' })
  api = await adminApi(server.url)
  // The company setting behind the 'cshow' flag, on before the browser's admin signs in.
  await api('/settings/campaignsEnabled', { method: 'PUT', body: { value: 'true' } })
  const settings = await api<{ key: string; value: string }[]>('/settings')
  timeZone = settings.find((s) => s.key === 'timezone')?.value ?? timeZone
  for (const who of [DESK, PHONE])
    await api('/users', { body: { ...who, password: PASSWORD, profile: 'admin' } })
  connectionId = await pairedSandbox(api, { name: CONNECTION })
  // No pacing waits: only the "typing..." before each message (at least 1 s) spaces the sends.
  await api('/campaign-settings', {
    body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 } },
  })

  const browser = await launchPage({ colorScheme: 'light', locale: 'pt-BR', prefix: 'balcao-e2e-campaigns-' })
  browsers.push(browser)
  page = browser.page
  await signIn(page, server.url, { email: DESK.email, password: PASSWORD })
}, 90_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await server?.stop()
  if (sheetDir) rmSync(sheetDir, { recursive: true, force: true })
})

describe('contact list import and a campaign in a browser (sandbox)', () => {
  test("sign-in sets 'cshow'; the menu leads to the contact lists; a list is created", async () => {
    expect(await page.evaluate(() => localStorage.getItem('cshow'))).toBe('true')
    await page.getByRole('link', { name: 'Listas de contatos' }).click()
    await page.waitForURL('**/contact-lists')
    await page.getByText('Nenhuma lista de contatos').waitFor({ timeout: 10_000 })
    await page.getByRole('button', { name: 'Adicionar' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('textbox', { name: /Nome/ }).fill(LIST)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Lista criada.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    const table = page.getByRole('table', { name: 'Listas de contatos' })
    await table.getByText(LIST).waitFor()
  }, 30_000)

  test('a spreadsheet is imported: created and refused counts, the refused row with its reason', async () => {
    await page.getByRole('button', { name: `Contatos: ${LIST}` }).click()
    await page.waitForURL('**/contact-lists/*/contacts')
    await page.getByRole('heading', { name: LIST }).waitFor()
    await page.getByRole('button', { name: 'Importar' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Importar planilha' }).waitFor()
    await dialog.getByTestId('import-file').setInputFiles(sheetPath)
    await dialog.getByText('clientes.xlsx').waitFor()
    await dialog.getByRole('button', { name: 'Importar', exact: true }).click()
    await dialog.getByText('Concluído: 6 criados, 0 atualizados, 1 recusados.').waitFor({ timeout: 15_000 })
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')
    await dialog.getByText('7 de 7 linhas').waitFor()
    const refused = dialog.getByRole('table', { name: 'Linhas recusadas' })
    expect(await refused.locator('tbody tr').allInnerTexts()).toEqual(['5\tNome: Muito curto!'])
    await shot(page, 'import-result')
    await dialog.getByRole('button', { name: 'Fechar' }).first().click()
    await dialog.waitFor({ state: 'detached' })

    // The contacts, checked on WhatsApp through the connection: green for the valid, grey for the 0 one.
    const contacts = page.getByRole('table', { name: 'Contatos' })
    for (const c of [...VALID, NOT_ON_WHATSAPP]) await contacts.getByText(c.name).waitFor()
    expect(await contacts.getByText(BAD_ROW.number).count()).toBe(0)
    await contacts
      .getByRole('img', { name: 'Número válido no WhatsApp' })
      .nth(VALID.length - 1)
      .waitFor({ timeout: 15_000 })
    await contacts.getByRole('img', { name: 'Número não está no WhatsApp' }).waitFor({ timeout: 15_000 })
    expect(await contacts.getByRole('img', { name: 'Número válido no WhatsApp' }).count()).toBe(VALID.length)

    await page.getByRole('button', { name: 'Listas' }).click()
    await page.waitForURL('**/contact-lists')
    const row = page
      .getByRole('table', { name: 'Listas de contatos' })
      .locator('tr')
      .filter({ hasText: LIST })
    await row.getByText('6', { exact: true }).waitFor()
    await shot(page, 'lists')
  }, 45_000)

  test('a campaign on the list and the sandbox connection, scheduled for now, is saved and starts', async () => {
    await page.getByRole('link', { name: 'Campanhas', exact: true }).click()
    await page.waitForURL('**/campaigns')
    await page.getByText('Nenhuma campanha ainda').waitFor({ timeout: 10_000 })
    await page.getByRole('button', { name: 'Nova campanha' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Nova campanha' }).waitFor()
    await dialog.getByRole('textbox', { name: /Nome/ }).fill(CAMPAIGN)
    for (const [label, option] of [
      ['Lista de contatos', LIST],
      ['Conexão', CONNECTION],
    ] as const) {
      await dialog.getByRole('button', { name: label }).click()
      await page.getByRole('option', { name: option }).click()
      await expect(dialog.getByRole('button', { name: label }).textContent()).resolves.toContain(option)
    }
    // Now, to the minute, in the company's zone: the runner starts it at once.
    await dialog.getByLabel('Agendamento').fill(wallTime(Date.now(), timeZone))
    // The {nome} chip inserts the variable into the message being edited.
    const message = dialog.getByRole('textbox', { name: 'Msg. 1' })
    await message.fill('Olá,')
    await dialog.getByRole('button', { name: '{nome}', exact: true }).click()
    await expect(message.inputValue()).resolves.toBe('Olá, {nome}')
    await message.press('End')
    await message.pressSequentially('! Temos ofertas especiais para você.')
    await shot(page, 'dialog')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Campanha salva com sucesso.').waitFor()
    await dialog.waitFor({ state: 'detached' })

    const campaigns = await api<{ records: { id: number; name: string; status: string }[] }>('/campaigns')
    const saved = campaigns.records.find((c) => c.name === CAMPAIGN)
    expect(saved).toBeDefined()
    campaignId = saved!.id
    expect(['PROGRAMADA', 'EM_ANDAMENTO', 'FINALIZADA']).toContain(saved!.status)
    const row = page.getByRole('table', { name: 'Campanhas' }).locator('tr').filter({ hasText: CAMPAIGN })
    await row.getByText(LIST).waitFor()
    await row.getByText(CONNECTION).waitFor()
  }, 30_000)

  test('the report follows the sends live until every valid contact was delivered; the 0 number is invalid', async () => {
    await page.getByRole('button', { name: `Relatório: ${CAMPAIGN}` }).click()
    await page.waitForURL(`**/campaign/${campaignId}/report`)
    await page.getByRole('heading', { name: `Relatório da campanha: ${CAMPAIGN}` }).waitFor()
    const bar = page.getByRole('progressbar', { name: 'Progresso da campanha' })
    const delivered = page.getByTestId('campaign-delivered')
    const seen: number[] = []
    const until = Date.now() + 40_000
    while (Date.now() < until) {
      const now = Number(await bar.getAttribute('aria-valuenow'))
      if (seen.at(-1) !== now) seen.push(now)
      if (now === 100 && (await page.getByText('Finalizada').count()) > 0) break
      await Bun.sleep(100)
    }
    // Live progress: it climbed through values between none and all, and never went back.
    expect(seen.at(-1)).toBe(100)
    expect(seen.some((v) => v > 0 && v < 100)).toBe(true)
    expect([...seen].sort((a, b) => a - b)).toEqual(seen)
    expect(await delivered.textContent()).toBe(`${VALID.length} de ${VALID.length} mensagens entregues`)
    // A card's value: the line under its label.
    const card = (label: string) =>
      page.getByText(label, { exact: true }).locator('xpath=following-sibling::div').textContent()
    expect(await card('Contatos válidos')).toBe(String(VALID.length))
    expect(await card('Contatos inválidos')).toBe('1')
    expect(await card('Entregues')).toBe(String(VALID.length))
    expect(await card('Status')).toBe('Finalizada')
    expect(await card('Conclusão')).not.toBe('Não concluída')
    await Bun.sleep(300) // the bar's 200 ms transition
    await shot(page, 'report')

    const campaign = await api<{
      status: string
      counts: { total: number; valid: number; invalid: number; delivered: number; failed: number }
    }>(`/campaigns/${campaignId}`)
    expect(campaign.status).toBe('FINALIZADA')
    expect(campaign.counts).toMatchObject({ total: 6, valid: 5, invalid: 1, delivered: 5, failed: 0 })

    // The sandbox: one text per valid number with its name, none to the number WhatsApp does not know.
    for (const c of VALID) {
      const sent = await sentTo(c.number)
      expect(sent.map((m) => [m.kind, m.body])).toEqual([
        ['text', `Olá, ${c.name}! Temos ofertas especiais para você.`],
      ])
    }
    expect(await sentTo(NOT_ON_WHATSAPP.number)).toEqual([])
    expect(await sentTo(BAD_ROW.number)).toEqual([])
    const all = await api<Outbound[]>(`/sandbox/connections/${connectionId}/outbound`)
    expect(all.length).toBe(VALID.length)
  }, 60_000)

  test('the report on a phone in the dark theme', async () => {
    const phone = await launchPage({
      colorScheme: 'dark',
      locale: 'pt-BR',
      viewport: { width: 375, height: 812 },
      prefix: 'balcao-e2e-campaigns-phone-',
    })
    browsers.push(phone)
    const p = phone.page
    await signIn(p, server.url, { email: PHONE.email, password: PASSWORD })
    await p.goto(`${server.url}/campaign/${campaignId}/report`)
    await p.getByTestId('campaign-delivered').getByText(`${VALID.length} de ${VALID.length}`).waitFor({
      timeout: 10_000,
    })
    await useDarkTheme(p)
    const overflow = await horizontalOverflow(p)
    expect(overflow).toBeLessThanOrEqual(0)
    await Bun.sleep(400) // the colours' 150 ms transition
    await shot(p, 'report-phone-dark')
  }, 40_000)
})
