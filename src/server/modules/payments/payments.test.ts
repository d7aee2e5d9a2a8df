import { beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { parseBrCode } from '../../../shared/pix'
import { companies, invoices, plans } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { sweepInvoices } from '../invoices/service'
import { amountCents, signPaymentBody } from './service'

const SECRET = 'whsec-test-0123456789'
const PIX_ENV = {
  BALCAO_PIX_KEY: 'financeiro@balcao.example',
  BALCAO_PIX_MERCHANT_NAME: 'Balcão Serviços',
  BALCAO_PIX_MERCHANT_CITY: 'São Paulo',
}

let h: Harness
let invoiceId: number

const dueOf = (companyId: number) =>
  h.db.select({ d: companies.dueDate }).from(companies).where(eq(companies.id, companyId)).get()?.d
const invoiceRow = (id: number) => h.db.select().from(invoices).where(eq(invoices.id, id)).get()

/** POSTs a raw body to the webhook with the given signature header (none when null). */
async function webhook(body: string, signature: string | null = signPaymentBody(SECRET, body)) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (signature !== null) headers['x-balcao-signature'] = signature
  const res = await h.app.request('/api/payments/webhook', { method: 'POST', headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
  return { status: res.status, body: parsed as any }
}

const notice = (id = invoiceId, amount = '99.90') => JSON.stringify({ invoiceId: id, status: 'paid', amount })

beforeEach(async () => {
  h = await createHarness() // today is 2026-11-21
  h.deps.env = { BALCAO_PAYMENT_WEBHOOK_SECRET: SECRET }
  h.db.update(plans).set({ valueCents: 9990 }).where(eq(plans.id, h.plan.id)).run()
  h.db.update(companies).set({ dueDate: '2026-11-25' }).where(eq(companies.id, h.a.id)).run()
  sweepInvoices(h.deps)
  invoiceId = h.db.select().from(invoices).where(eq(invoices.companyId, h.a.id)).get()!.id
})

describe('POST /payments/webhook', () => {
  test('a signed notice pays the invoice, extends once and emits CONCLUIDA; the same notice again changes nothing', async () => {
    const events = h.recordEvents()
    const first = await webhook(notice())
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      ok: true,
      extended: true,
      invoice: { id: invoiceId, status: 'paid' },
      company: { id: h.a.id, dueDate: '2026-12-25' },
    })
    expect(invoiceRow(invoiceId)).toMatchObject({ status: 'paid', paidVia: 'webhook' })
    expect(dueOf(h.a.id)).toBe('2026-12-25')
    expect(events.filter((e) => e.event === `company-${h.a.id}-payment`).map((e) => e.data)).toEqual([
      { action: 'CONCLUIDA', company: { id: h.a.id, dueDate: '2026-12-25' } },
    ])

    const second = await webhook(notice())
    expect(second.status).toBe(200)
    expect(second.body.extended).toBe(false)
    expect(dueOf(h.a.id)).toBe('2026-12-25')
    expect(events.filter((e) => e.event === `company-${h.a.id}-payment`)).toHaveLength(1)
  })

  test('a wrong, missing or malformed signature, or a body changed after signing: 401 and nothing changes', async () => {
    const body = notice()
    const events = h.recordEvents()
    const cases: [string, string, string | null][] = [
      ['missing', body, null],
      ['empty', body, ''],
      ['other secret', body, signPaymentBody('not-the-secret', body)],
      ['bare hex', body, signPaymentBody(SECRET, body).slice('sha256='.length)],
      ['short', body, signPaymentBody(SECRET, body).slice(0, -2)],
      ['not hex', body, `sha256=${'z'.repeat(64)}`],
      ['sha1 label', body, signPaymentBody(SECRET, body).replace('sha256', 'sha1')],
      ['changed body', notice(invoiceId, '99.90').replace('99.90', '99.9'), signPaymentBody(SECRET, body)],
      ['added space', `${body} `, signPaymentBody(SECRET, body)],
    ]
    for (const [label, sent, signature] of cases) {
      const res = await webhook(sent, signature)
      expect({ label, status: res.status, error: res.body?.error }).toEqual({
        label,
        status: 401,
        error: 'ERR_INVALID_SIGNATURE',
      })
    }
    expect(invoiceRow(invoiceId)?.status).toBe('open')
    expect(dueOf(h.a.id)).toBe('2026-11-25')
    expect(events).toHaveLength(0)
    // The signature is over the raw bytes: a re-serialised body with the same meaning is not the signed one.
    const spaced = JSON.stringify({ invoiceId, status: 'paid', amount: '99.90' }, null, 2)
    expect((await webhook(spaced, signPaymentBody(SECRET, notice()))).status).toBe(401)
    expect((await webhook(spaced)).status).toBe(200)
  })

  test('no secret configured: 503 and nothing changes', async () => {
    h.deps.env = {}
    const res = await webhook(notice())
    expect(res.status).toBe(503)
    expect(res.body.error).toBe('ERR_PAYMENT_WEBHOOK_NOT_CONFIGURED')
    expect(invoiceRow(invoiceId)?.status).toBe('open')
  })

  test('an amount that is not the invoice value is refused; an unknown invoice is 404', async () => {
    for (const amount of ['9.99', '100.00', '0', '99.91']) {
      const res = await webhook(notice(invoiceId, amount))
      expect({ amount, status: res.status, error: res.body.error }).toEqual({
        amount,
        status: 409,
        error: 'ERR_INVOICE_AMOUNT_MISMATCH',
      })
    }
    expect(invoiceRow(invoiceId)?.status).toBe('open')
    expect(dueOf(h.a.id)).toBe('2026-11-25')
    expect((await webhook(notice(999999))).status).toBe(404)
    // '99.9' is the same amount.
    expect((await webhook(notice(invoiceId, '99.9'))).status).toBe(200)
  })

  test('signed junk is a 400, never a 500', async () => {
    for (const body of [
      '',
      'null',
      '[]',
      '{',
      '{}',
      JSON.stringify({ invoiceId, status: 'pending', amount: '99.90' }),
      JSON.stringify({ invoiceId, status: 'paid', amount: 99.9 }),
      JSON.stringify({ invoiceId, status: 'paid', amount: '99,90' }),
      JSON.stringify({ invoiceId, status: 'paid', amount: '-1' }),
      JSON.stringify({ invoiceId, status: 'paid', amount: '1e3' }),
      JSON.stringify({ invoiceId: '1', status: 'paid', amount: '99.90' }),
      JSON.stringify({ invoiceId: 1.5, status: 'paid', amount: '99.90' }),
      `${'['.repeat(100)}${']'.repeat(100)}`,
    ]) {
      const res = await webhook(body)
      expect({ body, status: res.status, hasError: typeof res.body?.error }).toEqual({
        body,
        status: 400,
        hasError: 'string',
      })
    }
    expect(invoiceRow(invoiceId)?.status).toBe('open')
  })

  test('amounts read as cents', () => {
    expect(amountCents('99.90')).toBe(9990)
    expect(amountCents('99.9')).toBe(9990)
    expect(amountCents('99')).toBe(9900)
    expect(amountCents('0.05')).toBe(5)
  })
})

describe('subscription and checkout', () => {
  const billing = {
    firstName: 'Ana Souza',
    lastName: '',
    address2: 'Rua das Flores, 10',
    city: 'Recife',
    state: 'PE',
    zipcode: '50000-000',
    country: 'BR',
    useAddressForPaymentDetails: false,
    nameOnCard: 'ignored',
    cardNumber: '4111111111111111',
    cvv: '123',
    plan: '{"users":1,"connections":1,"price":0.01}',
    price: 0.01,
    users: 1,
    connections: 1,
  }

  test('GET /subscription: trial, billing e-mail, plan and the open invoice', async () => {
    h.db
      .update(companies)
      .set({ email: 'billing@alpha.test', trialExpiration: '2026-11-28' })
      .where(eq(companies.id, h.a.id))
      .run()
    const admin = await h.as(h.a.admin)
    const res = await admin.get('/subscription')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      company: {
        id: h.a.id,
        email: 'billing@alpha.test',
        trialExpiration: '2026-11-28',
        dueDate: '2026-11-25',
      },
      plan: { id: h.plan.id, value: 99.9 },
      openInvoice: { id: invoiceId, status: 'open' },
      pixConfigured: false,
    })
  })

  test('POST /subscription answers the Pix shape with a real BR Code; price comes from the server', async () => {
    h.deps.env = { ...h.deps.env, ...PIX_ENV }
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/subscription', { ...billing, invoiceId })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      valor: { original: '99.90' },
      status: 'ATIVA',
      invoice: { id: invoiceId },
    })
    const code = parseBrCode(res.body.qrcode.qrcode)
    expect(code).toMatchObject({
      key: 'financeiro@balcao.example',
      amount: '99.90',
      merchantName: 'Balcao Servicos',
      merchantCity: 'SAO PAULO',
      txid: invoiceRow(invoiceId)!.txid,
    })
    expect(JSON.stringify(res.body)).not.toContain('4111')
  })

  test('without Pix settings: a clear 503', async () => {
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/subscription', { ...billing, invoiceId })
    expect(res.status).toBe(503)
    expect(res.body.error).toBe('ERR_PIX_NOT_CONFIGURED')
  })

  test("only the company's own open invoices; step 1 fields are required", async () => {
    h.deps.env = { ...h.deps.env, ...PIX_ENV }
    const other = await h.as(h.b.admin)
    const res = await other.post('/subscription', { ...billing, invoiceId })
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('ERR_NO_INVOICE_FOUND')
    const admin = await h.as(h.a.admin)
    for (const field of ['firstName', 'address2', 'city', 'zipcode', 'country', 'invoiceId'] as const) {
      const { [field]: _gone, ...rest } = { ...billing, invoiceId }
      const bad = await admin.post('/subscription', rest)
      expect({ field, status: bad.status }).toEqual({ field, status: 400 })
      expect(bad.body.fields.map((f: { field: string }) => f.field)).toContain(field)
    }
    expect((await admin.post('/subscription', { ...billing, country: 'AR', invoiceId })).status).toBe(400)
    const attendant = await h.as(h.a.attendant)
    expect((await attendant.post('/subscription', { ...billing, invoiceId })).status).toBe(403)
    await webhook(notice())
    const paid = await admin.post('/subscription', { ...billing, invoiceId })
    expect(paid.status).toBe(409)
    expect(paid.body.error).toBe('ERR_INVOICE_NOT_OPEN')
  })
})

describe('a changed due date leaves one payable invoice (issue 18, item 11)', () => {
  /** Records the warnings the server logs (the refused payments must be found there). */
  function recordWarnings() {
    const warnings: { message: string; fields?: Record<string, unknown> }[] = []
    h.deps.log = { ...h.deps.log, warn: (message, fields) => warnings.push({ message, fields }) }
    return warnings
  }
  const invoicesOfA = () =>
    h.db
      .select()
      .from(invoices)
      .where(eq(invoices.companyId, h.a.id))
      .orderBy(invoices.dueDate)
      .all()
      .map((i) => [i.dueDate, i.status])

  test('edit the due date, then pay the stale invoice: refused and logged; the new one extends once, replays included', async () => {
    const warnings = recordWarnings()
    const root = await h.as(h.superAdmin.email)
    expect((await root.put(`/companies/${h.a.id}`, { dueDate: '2026-11-28' })).status).toBe(200)
    expect(invoicesOfA()).toEqual([
      ['2026-11-25', 'void'],
      ['2026-11-28', 'open'],
    ])
    const events = h.recordEvents()
    for (let i = 0; i < 2; i++) {
      const stale = await webhook(notice())
      expect(stale.status).toBe(409)
      expect(stale.body.error).toBe('ERR_INVOICE_VOID')
    }
    const bySuper = await root.put(`/invoices/${invoiceId}`, { status: 'paid' })
    expect(bySuper.status).toBe(409)
    expect(bySuper.body.error).toBe('ERR_INVOICE_VOID')
    expect(dueOf(h.a.id)).toBe('2026-11-28')
    expect(events.filter((e) => e.event === `company-${h.a.id}-payment`)).toHaveLength(0)
    expect(warnings.filter((w) => w.fields?.invoiceId === invoiceId)).toHaveLength(3)

    const current = h.db.select().from(invoices).where(eq(invoices.dueDate, '2026-11-28')).get()!
    const paid = await webhook(notice(current.id))
    expect(paid.body).toMatchObject({ extended: true, company: { dueDate: '2026-12-28' } })
    const replay = await webhook(notice(current.id))
    expect(replay.status).toBe(200)
    expect(replay.body.extended).toBe(false)
    expect((await root.put(`/invoices/${current.id}`, { status: 'paid' })).status).toBe(200)
    expect((await webhook(notice())).status).toBe(409)
    expect(dueOf(h.a.id)).toBe('2026-12-28')
    expect(events.filter((e) => e.event === `company-${h.a.id}-payment`)).toHaveLength(1)
  })

  test("'+ Vencimento' voids the open invoice: paying it afterwards extends nothing", async () => {
    const root = await h.as(h.superAdmin.email)
    expect((await root.post(`/companies/${h.a.id}/extend`)).body.dueDate).toBe('2026-12-25')
    expect(invoicesOfA()).toEqual([['2026-11-25', 'void']]) // the next one comes 10 days before 2026-12-25
    const res = await webhook(notice())
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('ERR_INVOICE_VOID')
    expect(dueOf(h.a.id)).toBe('2026-12-25')
    const admin = await h.as(h.a.admin)
    h.deps.env = { ...h.deps.env, ...PIX_ENV }
    const checkout = await admin.post('/subscription', {
      firstName: 'Ana',
      address2: 'Rua 1',
      city: 'Recife',
      zipcode: '50000-000',
      country: 'BR',
      invoiceId,
    })
    expect(checkout.status).toBe(409)
    expect(checkout.body.error).toBe('ERR_INVOICE_VOID')
    expect((await admin.get('/subscription')).body.openInvoice).toBeNull()
  })

  test('a company never has two open invoices; going back to a voided period opens its invoice again', async () => {
    const root = await h.as(h.superAdmin.email)
    for (const dueDate of ['2026-11-27', '2026-11-29', '2026-11-23']) {
      await root.put(`/companies/${h.a.id}`, { dueDate })
      const open = invoicesOfA().filter(([, status]) => status === 'open')
      expect(open).toEqual([[dueDate, 'open']])
    }
    await root.put(`/companies/${h.a.id}`, { dueDate: '2026-11-25' })
    expect(invoicesOfA().filter(([, status]) => status === 'open')).toEqual([['2026-11-25', 'open']])
    expect(invoiceRow(invoiceId)?.status).toBe('open') // the same invoice (and Pix txid) as before
    await root.put(`/companies/${h.a.id}`, { dueDate: null })
    expect(invoicesOfA().filter(([, status]) => status === 'open')).toEqual([])
    await root.put(`/companies/${h.a.id}`, { dueDate: '2026-11-25' })
    // The database refuses a second open invoice whatever path would write it.
    const { id: _id, ...copy } = invoiceRow(invoiceId)!
    expect(() =>
      h.db
        .insert(invoices)
        .values({ ...copy, dueDate: '2026-11-26', txid: 'BLCOTHER' })
        .run(),
    ).toThrow(/UNIQUE/)
    expect((await webhook(notice())).body.extended).toBe(true)
  })
})
