/**
 * Junk on the subscription routes and the payment webhook: never a 500, nothing paid. The webhook's junk is signed
 * (with a right signature the parser is what refuses it); huge bodies stop at the 2 MiB limit.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies, invoices, plans } from '../../db/schema'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectNo500,
  expectRefused,
  JUNK_BODIES,
  mutations,
  ODD_BODIES,
  rawRequest,
} from '../../test/probe'
import { sweepInvoices } from '../invoices/service'
import { signPaymentBody } from './service'

const SECRET = 'whsec-probe-0123456789'

async function setup() {
  const h = await createHarness()
  h.deps.env = {
    BALCAO_PAYMENT_WEBHOOK_SECRET: SECRET,
    BALCAO_PIX_KEY: 'financeiro@balcao.example',
    BALCAO_PIX_MERCHANT_NAME: 'Balcão',
    BALCAO_PIX_MERCHANT_CITY: 'Recife',
  }
  h.db.update(plans).set({ valueCents: 9990 }).where(eq(plans.id, h.plan.id)).run()
  h.db.update(companies).set({ dueDate: '2026-11-25' }).where(eq(companies.id, h.a.id)).run()
  sweepInvoices(h.deps)
  const invoiceId = h.db.select().from(invoices).where(eq(invoices.companyId, h.a.id)).get()!.id
  return { h, invoiceId }
}

describe('payments: probes', () => {
  test('POST /subscription: junk bodies and each field junk, never a 500; attendants 403', async () => {
    const { h, invoiceId } = await setup()
    const admin = await h.as(h.a.admin)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/subscription')
    const base = {
      firstName: 'Ana',
      address2: 'Rua 1',
      city: 'Recife',
      zipcode: '50000-000',
      country: 'BR',
      invoiceId,
    }
    for (const body of mutations(base))
      expectNo500(JSON.stringify(body).slice(0, 80), await admin.post('/subscription', body))
    expect((await admin.post('/subscription', base)).status).toBe(200)
    expectRefused('attendant', await (await h.as(h.a.attendant)).post('/subscription', base), 403)
    expectRefused('other company', await (await h.as(h.b.admin)).post('/subscription', base), 404)
    expect(h.db.select().from(invoices).where(eq(invoices.id, invoiceId)).get()?.status).toBe('open')
  })

  test('POST /payments/webhook: signed junk, odd bodies, field junk and wrong content types are 4xx', async () => {
    const { h, invoiceId } = await setup()
    const send = async (
      body: string | Uint8Array<ArrayBuffer>,
      contentType: string | null = 'application/json',
    ) => {
      const headers: Record<string, string> = { 'x-balcao-signature': signPaymentBody(SECRET, body) }
      if (contentType) headers['content-type'] = contentType
      const res = await h.app.request('/api/payments/webhook', { method: 'POST', headers, body })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      // biome-ignore lint/suspicious/noExplicitAny: probes read whatever JSON the API answered
      return { status: res.status, body: parsed as any }
    }
    for (const body of JUNK_BODIES) {
      const raw = typeof body === 'string' ? body : JSON.stringify(body)
      expectRefused(`signed ${raw.slice(0, 40)}`, await send(raw), 400)
    }
    for (const body of ODD_BODIES) expectRefused(`signed ${body.slice(0, 40)}`, await send(body))
    for (const body of mutations({ invoiceId, status: 'paid', amount: '99.90' }))
      expectNo500(JSON.stringify(body).slice(0, 80), await send(JSON.stringify(body)))
    for (const type of [null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'])
      expectNo500(`as ${type}`, await send('a=1', type))
    const latin1 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d])
    expectRefused('latin1', await send(latin1, 'application/json; charset=latin1'), 400)
    // Unsigned junk is a 401 before anything is parsed; more than 2 MiB is a 413.
    expectRefused(
      'unsigned',
      await rawRequest(h, 'POST', '/payments/webhook', '', 'application/json', '{'),
      401,
    )
    const huge = JSON.stringify({
      invoiceId,
      status: 'paid',
      amount: '99.90',
      pad: 'x'.repeat(3 * 1024 * 1024),
    })
    expectRefused('3 MiB', await send(huge), 413)
    expect(h.db.select().from(invoices).where(eq(invoices.id, invoiceId)).get()?.status).toBe('open')
  })
})
