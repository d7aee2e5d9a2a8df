import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { NO_DUE_DATE } from '../../../shared/plans'
import { companies, plans } from '../../db/schema'
import { createHarness, PASSWORD } from '../../test/harness'

describe('companies (super user only)', () => {
  test('creating a company creates its first admin and default settings', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const res = await root.post('/companies', {
      name: 'Padaria Central',
      email: 'dono@padaria.test',
      phone: '5511988887777',
      planId: h.plan.id,
      dueDate: '2027-01-31',
      recurrence: 'MENSAL',
      status: true,
      document: '12.345.678/0001-90',
      password: 'Padaria123',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Padaria Central',
      dueDate: '2027-01-31',
      recurrence: 'MENSAL',
      plan: { id: h.plan.id },
    })
    const login = await h.call('POST', '/auth/login', {
      body: { email: 'dono@padaria.test', password: 'Padaria123' },
    })
    expect(login.status).toBe(200)
    expect(login.body.user).toMatchObject({ profile: 'admin', super: false, companyId: res.body.id })
    expect(login.body.user.company.settings.length).toBeGreaterThan(5)
  })

  test('an empty or invalid due date becomes null', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const res = await root.post('/companies', {
      name: 'Sem Data',
      email: 'a@semdata.test',
      planId: h.plan.id,
      dueDate: '',
      password: 'Abcde123',
    })
    expect(res.status).toBe(201)
    expect(res.body.dueDate).toBe(NO_DUE_DATE) // none: answered far ahead (see extend.test.ts)
    const bad = await root.put(`/companies/${res.body.id}`, { dueDate: '2027-99-99' })
    expect(bad.body.dueDate).toBe(NO_DUE_DATE)
  })

  test('validation and conflicts answer clear 4xx', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const missing = await root.post('/companies', {})
    expect(missing.status).toBe(400)
    const fields = missing.body.fields.map((f: { field: string }) => f.field)
    for (const f of ['name', 'email', 'planId', 'password']) expect(fields).toContain(f)
    const dupName = await root.post('/companies', {
      name: 'Alpha',
      email: 'x@y.test',
      planId: h.plan.id,
      password: 'Abcde123',
    })
    expect(dupName.body.error).toBe('ERR_COMPANY_NAME_ALREADY_EXISTS')
    const dupEmail = await root.post('/companies', {
      name: 'Nova',
      email: h.a.admin,
      planId: h.plan.id,
      password: 'Abcde123',
    })
    expect(dupEmail.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS')
    const noPlan = await root.post('/companies', {
      name: 'Nova',
      email: 'n@n.test',
      planId: 999,
      password: 'Abcde123',
    })
    expect(noPlan.status).toBe(404)
    expect(noPlan.body.error).toBe('ERR_NO_PLAN_FOUND')
  })

  test('lists, reads, updates and deletes companies; the platform company cannot be deleted', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const paged = await root.get('/companies?pageNumber=1')
    expect(paged.body.count).toBe(3)
    expect(paged.body.hasMore).toBe(false)
    expect((await root.get('/companies/list')).body).toHaveLength(3)
    const updated = await root.put(`/companies/${h.b.id}`, { dueDate: '2028-01-01', status: false })
    expect(updated.body).toMatchObject({ dueDate: '2028-01-01', status: false })
    expect((await root.del(`/companies/${h.platform.id}`)).body.error).toBe(
      'ERR_CANNOT_DELETE_PLATFORM_COMPANY',
    )
    expect((await root.del(`/companies/${h.b.id}`)).status).toBe(200)
    expect((await root.get(`/companies/${h.b.id}`)).status).toBe(404)
    // Its users went with it.
    expect(
      (await h.call('POST', '/auth/login', { body: { email: h.b.admin, password: PASSWORD } })).status,
    ).toBe(401)
  })

  test('company admins and attendants get 403 ERR_NO_PERMISSION', async () => {
    const h = await createHarness()
    for (const email of [h.a.admin, h.a.attendant]) {
      const user = await h.as(email)
      for (const res of [
        await user.get('/companies'),
        await user.get('/companies/list'),
        await user.post('/companies', {
          name: 'X',
          email: 'x@x.test',
          planId: h.plan.id,
          password: 'Abcde123',
        }),
        await user.put(`/companies/${h.a.id}`, { dueDate: '2099-01-01' }),
        await user.del(`/companies/${h.b.id}`),
      ]) {
        expect(res.status).toBe(403)
        expect(res.body.error).toBe('ERR_NO_PERMISSION')
      }
    }
  })
})

describe("a company's own reads", () => {
  test('an admin reads their own company and its plan; an attendant gets 403; another company`s ids 404', async () => {
    const h = await createHarness()
    const other = h.deps.db
      .insert(plans)
      .values({ name: 'Outro plano', createdAt: h.clock.now(), updatedAt: h.clock.now() })
      .returning()
      .get()
    h.deps.db.update(companies).set({ planId: other.id }).where(eq(companies.id, h.b.id)).run()
    const admin = await h.as(h.a.admin)
    const mine = await admin.get(`/companies/${h.a.id}`)
    expect(mine.status).toBe(200)
    expect(mine.body).toMatchObject({ id: h.a.id, name: 'Alpha', planId: h.plan.id, dueDate: '2027-12-31' })
    const plan = await admin.get(`/plans/${h.plan.id}`)
    expect(plan.status).toBe(200)
    expect(plan.body).toMatchObject({ id: h.plan.id, name: 'Plano Padrão', useKanban: true })
    for (const [res, code] of [
      [await admin.get(`/companies/${h.b.id}`), 'ERR_NO_COMPANY_FOUND'],
      [await admin.get(`/plans/${other.id}`), 'ERR_NO_PLAN_FOUND'],
      [await admin.get('/plans/99999'), 'ERR_NO_PLAN_FOUND'],
    ] as const) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe(code)
    }
    const agent = await h.as(h.a.attendant)
    expect((await agent.get(`/companies/${h.a.id}`)).status).toBe(403)
    expect((await agent.get(`/plans/${h.plan.id}`)).status).toBe(403)
    expect((await agent.get(`/companies/${h.b.id}`)).status).toBe(404)
    // Writes stay the super user's.
    expect((await admin.put(`/companies/${h.a.id}`, { dueDate: '2099-01-01' })).status).toBe(403)
    expect((await admin.put(`/plans/${h.plan.id}`, { name: 'Meu plano' })).status).toBe(403)
    expect((await admin.del(`/plans/${h.plan.id}`)).status).toBe(403)
    expect((await admin.get('/companies/list')).status).toBe(403)
    // The super user reads any of them.
    const root = await h.as(h.superAdmin.email)
    expect((await root.get(`/companies/${h.b.id}`)).body.planId).toBe(other.id)
    expect((await root.get(`/plans/${other.id}`)).body.name).toBe('Outro plano')
  })
})

describe('plans', () => {
  test('GET /plans/list is public; everything else needs the super user', async () => {
    const h = await createHarness()
    const list = await h.call('GET', '/plans/list')
    expect(list.status).toBe(200)
    expect(list.body[0]).toMatchObject({ name: 'Plano Padrão', useCampaigns: true, value: 0 })
    const admin = await h.as(h.a.admin)
    for (const res of [
      await admin.get('/plans/all'),
      await admin.get('/plans'),
      await admin.post('/plans', { name: 'X' }),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_NO_PERMISSION')
    }
    expect((await h.call('GET', '/plans/all')).status).toBe(401)
  })

  test('the super user manages plans; a plan in use cannot be deleted', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const created = await root.post('/plans', {
      name: 'Básico',
      value: 99.9,
      users: 3,
      connections: 1,
      queues: 2,
      useCampaigns: false,
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      name: 'Básico',
      value: 99.9,
      users: 3,
      useCampaigns: false,
      useKanban: true,
    })
    const updated = await root.put(`/plans/${created.body.id}`, { name: 'Básico+', value: 129 })
    expect(updated.body).toMatchObject({ name: 'Básico+', value: 129, users: 3 })
    expect((await root.get('/plans/all')).body).toHaveLength(2)
    expect((await root.get('/plans?searchParam=b%C3%A1sico')).body.plans).toHaveLength(1)
    expect((await root.post('/plans', { name: 'Básico+' })).body.error).toBe('ERR_PLAN_NAME_ALREADY_EXISTS')
    expect((await root.post('/plans', { name: 'Neg', value: -1 })).status).toBe(400)
    const inUse = await root.del(`/plans/${h.plan.id}`)
    expect(inUse.status).toBe(409)
    expect(inUse.body.error).toBe('ERR_PLAN_IN_USE')
    expect((await root.del(`/plans/${created.body.id}`)).status).toBe(200)
    expect((await root.get(`/plans/${created.body.id}`)).status).toBe(404)
  })

  test('a plan value may be a number or a price text, "149,90" as a Brazilian client sends it; junk is a 400 on value', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const created = await root.post('/plans', { name: 'Texto', value: '149,90' })
    expect(created.status).toBe(201)
    expect(created.body.value).toBe(149.9)
    for (const [value, expected] of [
      ['149.90', 149.9],
      [149.9, 149.9],
      ['1.234,56', 1234.56],
      ['0', 0],
    ] as const) {
      const res = await root.put(`/plans/${created.body.id}`, { name: 'Texto', value })
      expect({ value, status: res.status, saved: res.body.value }).toEqual({
        value,
        status: 200,
        saved: expected,
      })
    }
    for (const value of ['abc', '', '149,9,0', '-1', '1e3', '149,999', '2000000,00', true, null, -5]) {
      const res = await root.put(`/plans/${created.body.id}`, { name: 'Texto', value })
      expect({
        value,
        status: res.status,
        fields: res.body.fields?.map((f: { field: string }) => f.field),
      }).toEqual({
        value,
        status: 400,
        fields: ['value'],
      })
    }
    expect((await root.get(`/plans/${created.body.id}`)).body.value).toBe(0)
  })
})
