/**
 * Browser test of invoices and the Pix checkout against the BUILT executable (`npm run build`, then
 * `cd tests/e2e && bun test invoices.test.ts`): the super user creates a paying company due in 5 days, whose
 * invoice exists at once; its owner opens /financeiro, pays it through the three-step checkout and gets a real
 * BR Code and its QR image; the payment provider's signed webhook confirms it, and the page says the license
 * was renewed and goes to / after 4 s. Screenshots land in tests/e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { parseBrCode } from '../../src/shared/pix'
import {
  ARTIFACTS,
  adminApi,
  artifactsDir,
  type Balcao,
  type Browser,
  launchPage,
  signIn,
  startBalcao,
} from './support'

const SECRET = 'e2e-webhook-secret'
const OWNER = { email: 'dono@azul.test', password: 'Fatura-123' }

let server: Balcao
let browser: Browser & { page: Page }
let companyId = 0

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `invoices-${name}.png`) })

const isoIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
const ddmmyyyy = (iso: string) => iso.split('-').reverse().join('/')

beforeAll(async () => {
  artifactsDir()
  process.env.BALCAO_PIX_KEY = 'financeiro@balcao.example'
  process.env.BALCAO_PIX_MERCHANT_NAME = 'Balcão Serviços'
  process.env.BALCAO_PIX_MERCHANT_CITY = 'São Paulo'
  process.env.BALCAO_PAYMENT_WEBHOOK_SECRET = SECRET
  server = await startBalcao({ prefix: 'balcao-e2e-invoices-data-' })
  const api = await adminApi(server.url)
  const plan = await api<{ id: number }>('/plans', { body: { name: 'Ouro', value: 99.9 } })
  const company = await api<{ id: number }>('/companies', {
    body: {
      name: 'Loja Azul',
      email: OWNER.email,
      password: OWNER.password,
      planId: plan.id,
      dueDate: isoIn(5),
    },
  })
  companyId = company.id
  browser = await launchPage()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('invoices and the Pix checkout', () => {
  test('the owner pays the open invoice by Pix; the signed webhook renews the license and the page goes to /', async () => {
    const { page } = browser
    await signIn(page, server.url, OWNER)
    await page.getByRole('link', { name: 'Financeiro' }).click()
    await page.waitForURL('**/financeiro')
    const row = page.getByRole('row').filter({ hasText: 'Plano Ouro — mensal' })
    await row.getByText('Em Aberto').waitFor()
    expect(await row.getByText('R$ 99,90').count()).toBe(1)
    await shot(page, 'list')

    await row.getByRole('button', { name: 'PAGAR' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.locator('[aria-current="step"]', { hasText: 'Personalizar' }).waitFor()
    await dialog.getByRole('button', { name: 'Voltar' }).click()
    await dialog.getByRole('button', { name: 'Próximo' }).click()
    await dialog.getByText('O Endereço é obrigatório').waitFor()
    await dialog.getByLabel('Endereço').fill('Rua das Flores, 10')
    await dialog.getByLabel('Cidade').fill('Recife')
    await dialog.getByLabel('CEP').fill('50000-000')
    await dialog.getByRole('button', { name: 'Próximo' }).click()
    await dialog.getByRole('button', { name: 'Próximo' }).click()
    await shot(page, 'review')
    await dialog.getByRole('button', { name: 'PAGAR' }).click()

    const pix = page.getByRole('dialog', { name: 'Pague com Pix' })
    await pix.getByTestId('qrcode').waitFor()
    const code = await pix.getByRole('textbox', { name: 'Pix copia e cola' }).inputValue()
    expect(parseBrCode(code)).toMatchObject({
      key: 'financeiro@balcao.example',
      amount: '99.90',
      merchantName: 'Balcao Servicos',
      merchantCity: 'SAO PAULO',
    })
    await page.getByText('Assinatura realizada com sucesso!, aguardando a realização do pagamento').waitFor()
    await shot(page, 'pix')

    // The payment provider confirms it: a wrong signature first (refused), then the right one.
    const invoices = (await (
      await fetch(`${server.url}/api/invoices/all`, {
        headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` },
      })
    ).json()) as { invoices: { id: number }[] }
    const body = JSON.stringify({ invoiceId: invoices.invoices[0]!.id, status: 'paid', amount: '99.90' })
    const post = (signature: string) =>
      fetch(`${server.url}/api/payments/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-balcao-signature': signature },
        body,
      })
    expect((await post('sha256=00')).status).toBe(401)
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`
    const paid = await post(signature)
    expect(paid.status).toBe(200)
    const renewed = (await paid.json()) as { company: { id: number; dueDate: string } }
    expect(renewed.company).toEqual({ id: companyId, dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })
    await pix.getByText(`Sua licença foi renovada até ${ddmmyyyy(renewed.company.dueDate)}!`).waitFor()
    await shot(page, 'renewed')
    await page.waitForURL((url) => !url.pathname.startsWith('/financeiro'), { timeout: 8000 })
    expect((await post(signature)).status).toBe(200) // the same notice again: nothing more
  }, 90_000)
})
