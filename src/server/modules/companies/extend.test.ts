import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { NO_DUE_DATE } from '../../../shared/plans'
import { companies, invoices, plans } from '../../db/schema'
import { createHarness, PASSWORD } from '../../test/harness'

describe("'+ Vencimento' and what a company uses", () => {
  test('the due date moves by the recurrence; only the super user may move it', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    for (const [recurrence, expected] of [
      ['MENSAL', '2027-02-28'],
      ['TRIMESTRAL', '2027-04-30'],
      ['ANUAL', '2028-01-31'],
    ] as const) {
      await root.put(`/companies/${h.a.id}`, { dueDate: '2027-01-31', recurrence })
      const res = await root.post(`/companies/${h.a.id}/extend`)
      expect(res.status).toBe(200)
      expect(res.body.dueDate).toBe(expected)
    }
    for (const email of [h.a.admin, h.a.attendant]) {
      const user = await h.as(email)
      expect((await user.post(`/companies/${h.a.id}/extend`)).status).toBe(403)
    }
    expect((await root.get(`/companies/${h.a.id}`)).body.dueDate).toBe('2028-01-31')
  })

  test('an expired company is usable again once extended past today', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    await root.put(`/companies/${h.a.id}`, { dueDate: '2026-11-01', recurrence: 'MENSAL' })
    const refused = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    expect(refused.status).toBe(402)
    expect(refused.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED')
    await root.post(`/companies/${h.a.id}/extend`)
    expect((await root.get(`/companies/${h.a.id}`)).body.dueDate).toBe('2026-12-01')
    expect((await h.as(h.a.admin)).token).toBeString()
  })

  test('the platform company has no due date to move; unknown ids answer 404', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const res = await root.post(`/companies/${h.platform.id}/extend`)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_COMPANY_NO_DUE_DATE')
    expect((await root.post('/companies/99999/extend')).status).toBe(404)
    expect((await root.post('/companies/abc/extend')).status).toBe(404)
  })

  test('the list shows how many users, connections and queues each company has', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    h.makeQueue(h.a.id, { name: 'Vendas' })
    h.makeConnection(h.a.id, { name: 'Loja' })
    const list = await root.get('/companies?searchParam=alpha')
    expect(list.body.companies[0]).toMatchObject({
      name: 'Alpha',
      counts: { users: 2, queues: 1, connections: 1 },
    })
  })

  test('the first admin may carry its own name', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const res = await root.post('/companies', {
      name: 'Oficina',
      email: 'dona@oficina.test',
      planId: h.plan.id,
      password: 'Oficina123',
      userName: 'Marta Souza',
    })
    expect(res.status).toBe(201)
    const login = await h.call('POST', '/auth/login', {
      body: { email: 'dona@oficina.test', password: 'Oficina123' },
    })
    expect(login.body.user.name).toBe('Marta Souza')
  })

  test('a company without a due date never expires and says so as a date far ahead, in every answer', async () => {
    const h = await createHarness()
    h.db.update(plans).set({ valueCents: 9990 }).where(eq(plans.id, h.plan.id)).run()
    h.db.update(companies).set({ dueDate: null }).where(eq(companies.id, h.a.id)).run()
    const storedDue = () =>
      h.db.select({ d: companies.dueDate }).from(companies).where(eq(companies.id, h.a.id)).get()?.d

    // Sign-in, refresh and /auth/me: what the spec's client compares with today before letting users in.
    const login = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    expect(login.status).toBe(200)
    expect(login.body.user.company.dueDate).toBe(NO_DUE_DATE)
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
    const refreshed = await h.call('POST', '/auth/refresh_token', { headers: { cookie } })
    expect(refreshed.body.user.company.dueDate).toBe(NO_DUE_DATE)
    const me = await h.call('GET', '/auth/me', { token: refreshed.body.token })
    expect(me.body.company.dueDate).toBe(NO_DUE_DATE)
    const admin = await h.as(h.a.admin)
    expect((await admin.get('/subscription')).body.company.dueDate).toBe(NO_DUE_DATE)
    const superLogin = await h.call('POST', '/auth/login', {
      body: { email: h.superAdmin.email, password: PASSWORD },
    })
    expect(superLogin.body.user.company.dueDate).toBe(NO_DUE_DATE) // the platform company has none either

    // The companies' answers too; sending the date back keeps "none", and it is never billed nor extended.
    const root = await h.as(h.superAdmin.email)
    expect((await root.get(`/companies/${h.a.id}`)).body.dueDate).toBe(NO_DUE_DATE)
    const listed = (await root.get('/companies/list')).body as { id: number; dueDate: string }[]
    expect(listed.find((c) => c.id === h.platform.id)?.dueDate).toBe(NO_DUE_DATE)
    const saved = await root.put(`/companies/${h.a.id}`, { dueDate: NO_DUE_DATE, name: 'Alpha' })
    expect(saved.status).toBe(200)
    expect(saved.body.dueDate).toBe(NO_DUE_DATE)
    expect(storedDue()).toBeNull()
    expect((await root.post(`/companies/${h.a.id}/extend`)).body.error).toBe('ERR_COMPANY_NO_DUE_DATE')
    expect(h.db.select().from(invoices).where(eq(invoices.companyId, h.a.id)).all()).toHaveLength(0)
    // A real due date is answered as it is.
    await root.put(`/companies/${h.a.id}`, { dueDate: '2027-02-01' })
    expect((await admin.get('/auth/me')).body.company.dueDate).toBe('2027-02-01')
  })
})
