/** Junk to every invoices, subscription and checkout route: a 4xx with an error code, never a 500. */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies, invoices, plans } from '../../db/schema'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
} from '../../test/probe'
import { sweepInvoices } from './service'

async function seeded() {
  const h = await createHarness()
  h.deps.env = {
    BALCAO_PIX_KEY: '+5511999990000',
    BALCAO_PIX_MERCHANT_NAME: 'Balcão',
    BALCAO_PIX_MERCHANT_CITY: 'Recife',
  }
  h.db.update(plans).set({ valueCents: 4990 }).where(eq(plans.id, h.plan.id)).run()
  h.db.update(companies).set({ dueDate: '2026-11-25' }).where(eq(companies.id, h.a.id)).run()
  sweepInvoices(h.deps)
  const invoiceId = h.db.select().from(invoices).where(eq(invoices.companyId, h.a.id)).get()!.id
  return { h, invoiceId }
}

describe('invoices and checkout: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const { h, invoiceId } = await seeded()
    const root = await h.as(h.superAdmin.email)
    const admin = await h.as(h.a.admin)
    await expectJunkBodiesRefused(h, root.token, 'PUT', `/invoices/${invoiceId}`)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/subscription')
    const base = {
      firstName: 'Ana',
      lastName: 'Souza',
      address2: 'Rua A, 1',
      city: 'Recife',
      state: 'PE',
      zipcode: '50000-000',
      country: 'BR',
      useAddressForPaymentDetails: true,
      invoiceId,
    }
    for (const body of mutations(base)) {
      const res = await admin.post('/subscription', body)
      expectNo500(`POST /subscription ${JSON.stringify(body).slice(0, 80)}`, res)
    }
    for (const body of mutations({ status: 'paid' })) {
      const res = await root.put(`/invoices/${invoiceId}`, body)
      expectNo500(`PUT /invoices ${JSON.stringify(body).slice(0, 80)}`, res)
      if (res.status !== 200) expect(res.status).toBe(400)
    }
    for (const name of ['👋🏽\u202e', '\u0000', 'Ação & <b>negrito</b>']) {
      const res = await admin.post('/subscription', { ...base, firstName: name, city: name })
      expectNo500(name, res)
    }
    // The invoice is open until the super user's valid PUT above: the code is still a BR Code or a clear 409.
    const last = await admin.post('/subscription', base)
    expect([200, 409]).toContain(last.status)
  })

  test('junk ids answer 404 on every route', async () => {
    const { h } = await seeded()
    const root = await h.as(h.superAdmin.email)
    await expectJunkIds404(
      h,
      root.token,
      [
        ['GET', '/invoices/:id'],
        ['PUT', '/invoices/:id'],
      ],
      'ERR_NO_INVOICE_FOUND',
    )
  })

  test('junk queries are 400; unknown parameters are ignored', async () => {
    const { h } = await seeded()
    const admin = await h.as(h.a.admin)
    for (const q of [
      'pageNumber=',
      'pageNumber=NaN',
      'pageNumber=-1',
      'pageNumber=1.5',
      `searchParam=${'x'.repeat(300)}`,
    ])
      expectRefused(q, await admin.get(`/invoices/all?${q}`), 400)
    expect((await admin.get('/invoices/all?foo=1&searchParam=%F0%9F%91%8B')).status).toBe(200)
  })
})
