import { beforeEach, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { companies, invoices, plans } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { INVOICE_SWEEP_MS, InvoiceJob } from './job'
import { ensureCompanyInvoice, invoiceDetail, sweepInvoices } from './service'

const HOUR = 3_600_000
const DAY = 86_400_000

let h: Harness
let root: Awaited<ReturnType<Harness['as']>>

/** The harness's plan at R$ 99,90 a month (it is free by default, and free plans get no invoices). */
function pricePlan(valueCents = 9990) {
  h.db.update(plans).set({ valueCents }).where(eq(plans.id, h.plan.id)).run()
}
const setDue = (
  companyId: number,
  dueDate: string | null,
  fields: Partial<typeof companies.$inferInsert> = {},
) =>
  h.db
    .update(companies)
    .set({ dueDate, ...fields })
    .where(eq(companies.id, companyId))
    .run()
const invoicesOf = (companyId: number) =>
  h.db.select().from(invoices).where(eq(invoices.companyId, companyId)).orderBy(invoices.dueDate).all()
const dueOf = (companyId: number) =>
  h.db.select({ d: companies.dueDate }).from(companies).where(eq(companies.id, companyId)).get()?.d

beforeEach(async () => {
  h = await createHarness() // today is 2026-11-21 on the manual clock
  root = await h.as(h.superAdmin.email)
  pricePlan()
})

describe('issuing invoices', () => {
  test('from 10 days before the due date, one per period, by the job on the clock', () => {
    setDue(h.a.id, '2026-12-05') // 14 days ahead
    const job = new InvoiceJob(h.deps)
    job.start()
    expect(invoicesOf(h.a.id)).toHaveLength(0)
    h.clock.advance(3 * DAY) // 2026-11-24: 11 days ahead
    expect(invoicesOf(h.a.id)).toHaveLength(0)
    h.clock.advance(DAY) // 2026-11-25: 10 days ahead
    const [invoice] = invoicesOf(h.a.id)
    expect(invoice).toMatchObject({
      dueDate: '2026-12-05',
      status: 'open',
      valueCents: 9990,
      detail: 'Plano Padrão — mensal',
      planName: 'Plano Padrão',
      recurrence: 'MENSAL',
    })
    expect(invoice!.txid).toMatch(/^[A-Za-z0-9]{1,25}$/)
    h.clock.advance(20 * DAY) // many sweeps, the due date passes: still one
    expect(invoicesOf(h.a.id)).toHaveLength(1)
    expect(sweepInvoices(h.deps)).toBe(0)
    expect(ensureCompanyInvoice(h.db, h.a.id, h.clock.now())).toBeNull()
    expect(invoicesOf(h.a.id)).toHaveLength(1)
    job.stop()
    expect(h.clock.pendingTimers).toBe(0)
  })

  test('value is the plan times the recurrence months; the plan is kept as it was', () => {
    setDue(h.a.id, '2026-11-30', { recurrence: 'TRIMESTRAL' })
    expect(sweepInvoices(h.deps)).toBe(1)
    const [invoice] = invoicesOf(h.a.id)
    expect(invoice).toMatchObject({
      valueCents: 29970,
      detail: 'Plano Padrão — trimestral',
      planValueCents: 9990,
    })
    pricePlan(5000)
    expect(invoicesOf(h.a.id)[0]!.valueCents).toBe(29970)
  })

  test('not for the platform company, a free plan, an inactive company or one without due date', () => {
    setDue(h.platform.id, '2026-11-25') // even with a due date, the super users' company never pays
    setDue(h.a.id, '2026-11-25', { status: false })
    setDue(h.b.id, null)
    const free = h.db.insert(plans).values({ name: 'Grátis', createdAt: 0, updatedAt: 0 }).returning().get()
    const gratis = h.makeCompany('Gratis', { planId: free.id, dueDate: '2026-11-25' })
    expect(sweepInvoices(h.deps)).toBe(0)
    for (const id of [h.platform.id, h.a.id, h.b.id, gratis.id]) expect(invoicesOf(id)).toHaveLength(0)
  })

  test('a restart catches up with what fell due while the server was down', () => {
    setDue(h.a.id, '2026-12-20')
    setDue(h.b.id, '2026-11-28')
    const first = new InvoiceJob(h.deps)
    first.start()
    expect(invoicesOf(h.b.id)).toHaveLength(1)
    first.stop() // down for three weeks: no timer fires
    h.clock.set(h.clock.now() + 21 * DAY)
    expect(invoicesOf(h.a.id)).toHaveLength(0)
    const second = new InvoiceJob(h.deps)
    second.start() // boot: sweeps at once
    expect(invoicesOf(h.a.id).map((i) => i.dueDate)).toEqual(['2026-12-20'])
    expect(invoicesOf(h.b.id)).toHaveLength(1)
    expect(h.clock.delays()).toEqual([INVOICE_SWEEP_MS])
    second.stop()
  })

  test('at once when a company is created, edited or extended inside the window', async () => {
    const created = await root.post('/companies', {
      name: 'Gamma',
      email: 'owner@gamma.test',
      password: 'Secret123',
      planId: h.plan.id,
      dueDate: '2026-11-28',
    })
    expect(created.status).toBe(201)
    expect(invoicesOf(created.body.id).map((i) => i.dueDate)).toEqual(['2026-11-28'])

    const far = await root.post('/companies', {
      name: 'Delta',
      email: 'owner@delta.test',
      password: 'Secret123',
      planId: h.plan.id,
      dueDate: '2027-03-01',
    })
    expect(invoicesOf(far.body.id)).toHaveLength(0)
    const events = h.recordEvents()
    expect((await root.put(`/companies/${far.body.id}`, { dueDate: '2026-11-30' })).status).toBe(200)
    expect(invoicesOf(far.body.id).map((i) => i.dueDate)).toEqual(['2026-11-30'])
    expect(events.some((e) => e.event === `company-${far.body.id}-invoice`)).toBe(true)

    // '+ Vencimento' to a date still inside the window (a late company): the new period's invoice at once.
    setDue(h.a.id, '2026-10-25')
    expect((await root.post(`/companies/${h.a.id}/extend`)).status).toBe(200)
    expect(dueOf(h.a.id)).toBe('2026-11-25')
    expect(invoicesOf(h.a.id).map((i) => i.dueDate)).toEqual(['2026-11-25'])
  })

  test('detail names the plan once', () => {
    expect(invoiceDetail('Ouro', 'ANUAL')).toBe('Plano Ouro — anual')
    expect(invoiceDetail('Plano Prata', 'MENSAL')).toBe('Plano Prata — mensal')
  })
})

describe('GET /invoices', () => {
  test("an admin lists their own company's invoices; paging and search", async () => {
    setDue(h.a.id, '2026-11-25')
    sweepInvoices(h.deps)
    setDue(h.b.id, '2026-11-26')
    sweepInvoices(h.deps)
    const admin = await h.as(h.a.admin)
    const list = await admin.get('/invoices/all')
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ count: 1, hasMore: false })
    expect(list.body.invoices[0]).toMatchObject({
      companyId: h.a.id,
      detail: 'Plano Padrão — mensal',
      value: 99.9,
      dueDate: '2026-11-25',
      status: 'open',
    })
    expect((await admin.get('/invoices/all?searchParam=anual')).body.invoices).toHaveLength(0)
    expect((await admin.get('/invoices/all?pageNumber=2')).body).toMatchObject({
      invoices: [],
      hasMore: false,
    })
    const one = await admin.get(`/invoices/${list.body.invoices[0].id}`)
    expect(one.body).toMatchObject({ id: list.body.invoices[0].id, value: 99.9 })
  })

  test("another company's invoice ids answer 404", async () => {
    setDue(h.b.id, '2026-11-26')
    sweepInvoices(h.deps)
    const [theirs] = invoicesOf(h.b.id)
    const admin = await h.as(h.a.admin)
    const got = await admin.get(`/invoices/${theirs!.id}`)
    expect(got.status).toBe(404)
    expect(got.body.error).toBe('ERR_NO_INVOICE_FOUND')
    expect((await admin.get('/invoices/all')).body.invoices).toHaveLength(0)
  })

  test('attendants get 403; the list of every company is the super user’s', async () => {
    const agent = await h.as(h.a.attendant)
    expect((await agent.get('/invoices/all')).status).toBe(403)
    expect((await agent.get('/subscription')).status).toBe(403)
    const admin = await h.as(h.a.admin)
    expect((await admin.get('/invoices')).status).toBe(403)
    setDue(h.a.id, '2026-11-25')
    setDue(h.b.id, '2026-11-26')
    sweepInvoices(h.deps)
    const all = await root.get('/invoices?searchParam=beta')
    expect(all.status).toBe(200)
    expect(all.body.invoices).toHaveLength(1)
    expect(all.body.invoices[0].company).toEqual({ id: h.b.id, name: 'Beta' })
  })
})

describe('PUT /invoices/{id} (the super user marks paid)', () => {
  test('extends the due date by the recurrence from the current due date, once, and emits CONCLUIDA', async () => {
    setDue(h.a.id, '2026-11-25')
    sweepInvoices(h.deps)
    const [invoice] = invoicesOf(h.a.id)
    const events = h.recordEvents()
    const paid = await root.put(`/invoices/${invoice!.id}`, { status: 'paid' })
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({ id: invoice!.id, status: 'paid' })
    expect(paid.body.paidAt).toBe(new Date(h.clock.now()).toISOString())
    expect(dueOf(h.a.id)).toBe('2026-12-25')
    const payment = events.filter((e) => e.event === `company-${h.a.id}-payment`)
    expect(payment).toHaveLength(1)
    expect(payment[0]).toMatchObject({
      room: `company:${h.a.id}`,
      data: { action: 'CONCLUIDA', company: { id: h.a.id, dueDate: '2026-12-25' } },
    })
    expect(events.find((e) => e.event === `company-${h.a.id}-invoice`)?.room).toBe(`company:${h.a.id}:admins`)

    const again = await root.put(`/invoices/${invoice!.id}`, { status: 'paid' })
    expect(again.status).toBe(200)
    expect(dueOf(h.a.id)).toBe('2026-12-25')
    expect(events.filter((e) => e.event === `company-${h.a.id}-payment`)).toHaveLength(1)
    const company = h.db.select().from(companies).where(eq(companies.id, h.a.id)).get()
    expect(company?.status).toBe(true)
  })

  test('a late payment: from the due date, or from today when that is still past; the next invoice at once', async () => {
    setDue(h.a.id, '2026-11-01') // 20 days overdue
    sweepInvoices(h.deps)
    await root.put(`/invoices/${invoicesOf(h.a.id)[0]!.id}`, { status: 'paid' })
    expect(dueOf(h.a.id)).toBe('2026-12-01') // inside the window already
    expect(invoicesOf(h.a.id).map((i) => [i.dueDate, i.status])).toEqual([
      ['2026-11-01', 'paid'],
      ['2026-12-01', 'open'],
    ])

    setDue(h.b.id, '2026-08-10') // months behind: a month from the due date is still past
    sweepInvoices(h.deps)
    await root.put(`/invoices/${invoicesOf(h.b.id)[0]!.id}`, { status: 'paid' })
    expect(dueOf(h.b.id)).toBe('2026-12-21')
  })

  test('admins and attendants cannot mark paid (403); junk status is a 400', async () => {
    setDue(h.a.id, '2026-11-25')
    sweepInvoices(h.deps)
    const [invoice] = invoicesOf(h.a.id)
    for (const email of [h.a.admin, h.a.attendant]) {
      const user = await h.as(email)
      const res = await user.put(`/invoices/${invoice!.id}`, { status: 'paid' })
      expect(res.status).toBe(403)
    }
    expect((await root.put(`/invoices/${invoice!.id}`, { status: 'open' })).status).toBe(400)
    expect((await root.put('/invoices/999999', { status: 'paid' })).status).toBe(404)
    expect(invoicesOf(h.a.id)[0]!.status).toBe('open')
    expect(dueOf(h.a.id)).toBe('2026-11-25')
  })
})

test('the job fires hourly on the injected clock', () => {
  const job = new InvoiceJob(h.deps)
  job.start()
  setDue(h.a.id, '2026-12-01')
  expect(invoicesOf(h.a.id)).toHaveLength(0) // set after the boot sweep
  h.clock.advance(HOUR)
  expect(invoicesOf(h.a.id)).toHaveLength(1)
  job.stop()
})

test('the migration voids the stale open invoices an older version left, then allows one open invoice', () => {
  const folder = join(import.meta.dir, '../../../../migrations')
  const file = readdirSync(folder).find((f) => f.endsWith('_invoices_one_open.sql'))!
  const statements = readFileSync(join(folder, file), 'utf8').split('--> statement-breakpoint')
  h.deps.sqlite.run('DROP INDEX invoices_one_open')
  // What the old code left: an edit of the due date kept the first period's invoice open beside the new one.
  const issued = (companyId: number, dueDate: string) =>
    h.db
      .insert(invoices)
      .values({
        companyId,
        dueDate,
        detail: 'Plano Padrão — mensal',
        valueCents: 9990,
        txid: `T${companyId}${dueDate.replaceAll('-', '')}`,
        planName: 'Plano Padrão',
        planValueCents: 9990,
        recurrence: 'MENSAL',
        createdAt: 0,
        updatedAt: 0,
      })
      .run()
  issued(h.a.id, '2026-11-25')
  issued(h.a.id, '2026-11-28')
  setDue(h.a.id, '2026-11-28')
  issued(h.b.id, '2026-11-26')
  setDue(h.b.id, null)
  expect(invoicesOf(h.a.id).map((i) => i.status)).toEqual(['open', 'open'])
  for (const statement of statements) h.deps.sqlite.run(statement)
  expect(invoicesOf(h.a.id).map((i) => [i.dueDate, i.status])).toEqual([
    ['2026-11-25', 'void'],
    ['2026-11-28', 'open'],
  ])
  expect(invoicesOf(h.b.id).map((i) => i.status)).toEqual(['void'])
})
