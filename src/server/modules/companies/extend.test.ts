import { describe, expect, test } from 'bun:test'
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
})
