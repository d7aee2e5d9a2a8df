import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { plans, users } from '../../db/schema'
import { createHarness, PASSWORD } from '../../test/harness'
import { OPERATOR_COMMAND_NAMES, runOperatorCommand } from './commands'

const operator = { authorization: 'Operator operator-test-token' }

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (err) {
    return err as { code: string; status: number; fields?: { field: string }[]; message: string }
  }
  throw new Error('expected a failure')
}

describe('runOperatorCommand: validation', () => {
  test('the table holds the documented commands', () => {
    expect([...OPERATOR_COMMAND_NAMES].sort() as string[]).toEqual(
      [
        'company.list',
        'company.create',
        'company.update',
        'company.delete',
        'company.extend',
        'plan.list',
        'plan.create',
        'plan.update',
        'plan.delete',
        'user.list',
        'user.create',
        'user.reset-password',
        'user.disable',
        'user.enable',
        'signup-code.create',
        'connection.list',
        'connection.restart',
        'connection.logout',
      ].sort(),
    )
  })

  test('an unknown name is a 404, inherited object keys included', async () => {
    const h = await createHarness()
    for (const name of ['company.nuke', '', 'toString', '__proto__', 'constructor']) {
      const err = await failure(runOperatorCommand(h.deps, name, {}))
      expect(err).toMatchObject({ code: 'ERR_NOT_FOUND', status: 404 })
    }
  })

  test('an input that is not an object, or misses fields, is a 400 naming them', async () => {
    const h = await createHarness()
    for (const raw of [[], 'x', 7, true]) {
      expect(await failure(runOperatorCommand(h.deps, 'plan.create', raw))).toMatchObject({
        code: 'ERR_VALIDATION',
        status: 400,
      })
    }
    const missing = await failure(runOperatorCommand(h.deps, 'company.create', { name: 'X' }))
    expect(missing.status).toBe(400)
    expect(missing.fields?.map((f) => f.field)).toContain('plan')

    // The API's own schema checks the rest, with its field names.
    const api = await failure(
      runOperatorCommand(h.deps, 'company.create', {
        plan: h.plan.id,
        name: 'X',
        email: 'nope',
        password: '1',
      }),
    )
    expect(api.status).toBe(400)
    expect(api.fields?.map((f) => f.field).sort()).toEqual(['email', 'name', 'password'])

    const types = await failure(
      runOperatorCommand(h.deps, 'plan.create', { name: 'Px', users: 'many', value: -1 }),
    )
    expect(types.fields?.map((f) => f.field).sort()).toEqual(['users', 'value'])

    const ref = await failure(runOperatorCommand(h.deps, 'user.disable', { user: { nested: 1 } }))
    expect(ref).toMatchObject({ status: 400 })
    expect(ref.fields?.[0]?.field).toBe('user')

    const id = await failure(runOperatorCommand(h.deps, 'connection.restart', { id: '1' }))
    expect(id.fields?.[0]?.field).toBe('id')

    const phone = await failure(runOperatorCommand(h.deps, 'signup-code.create', { phone: 'abc' }))
    expect(phone.fields?.[0]?.field).toBe('phone')

    const short = await failure(
      runOperatorCommand(h.deps, 'user.reset-password', { user: h.a.admin, password: '123' }),
    )
    expect(short.fields?.[0]?.field).toBe('password')
  })

  test('records are found by id, name or e-mail; a miss is the area not-found code', async () => {
    const h = await createHarness()
    expect(await failure(runOperatorCommand(h.deps, 'company.extend', { company: 'Nobody' }))).toMatchObject({
      code: 'ERR_NO_COMPANY_FOUND',
      status: 404,
    })
    expect(await failure(runOperatorCommand(h.deps, 'plan.delete', { plan: 999 }))).toMatchObject({
      code: 'ERR_NO_PLAN_FOUND',
    })
    expect(await failure(runOperatorCommand(h.deps, 'user.enable', { user: 'x@y.z' }))).toMatchObject({
      code: 'ERR_NO_USER_FOUND',
    })
    expect(await failure(runOperatorCommand(h.deps, 'connection.logout', { id: 999 }))).toMatchObject({
      code: 'ERR_NO_WAPP_FOUND',
    })
    const byName = (await runOperatorCommand(h.deps, 'company.extend', { company: 'alpha' })) as {
      id: number
      dueDate: string
    }
    expect(byName).toMatchObject({ id: h.a.id, dueDate: '2028-01-31' })
    const byId = (await runOperatorCommand(h.deps, 'company.extend', { company: String(h.a.id) })) as {
      dueDate: string
    }
    expect(byId.dueDate).toBe('2028-02-29')
  })
})

describe('operator commands: the same rules as the API', () => {
  test('companies: create with a plan by name, update, delete; the platform company stays', async () => {
    const h = await createHarness()
    const created = (await runOperatorCommand(h.deps, 'company.create', {
      name: 'Padaria',
      email: 'Dona@Padaria.test',
      plan: 'plano padrão',
      password: 'Segredo1',
      dueDate: '2027-01-10',
    })) as { id: number; email: string; plan: { name: string } }
    expect(created).toMatchObject({ email: 'dona@padaria.test', plan: { name: 'Plano Padrão' } })
    const admin = h.db.select().from(users).where(eq(users.email, 'dona@padaria.test')).get()
    expect(admin).toMatchObject({ companyId: created.id, profile: 'admin' })

    const dup = await failure(
      runOperatorCommand(h.deps, 'company.create', {
        name: 'Padaria',
        email: 'x@padaria.test',
        plan: h.plan.id,
        password: 'Segredo1',
      }),
    )
    expect(dup).toMatchObject({ code: 'ERR_COMPANY_NAME_ALREADY_EXISTS', status: 409 })

    const updated = await runOperatorCommand(h.deps, 'company.update', { company: created.id, status: false })
    expect(updated).toMatchObject({ status: false })
    expect(
      await failure(runOperatorCommand(h.deps, 'company.update', { company: h.platform.id, status: false })),
    ).toMatchObject({ code: 'ERR_VALIDATION' })
    expect(
      await failure(runOperatorCommand(h.deps, 'company.delete', { company: h.platform.id })),
    ).toMatchObject({ code: 'ERR_CANNOT_DELETE_PLATFORM_COMPANY' })
    expect(await runOperatorCommand(h.deps, 'company.delete', { company: 'Padaria' })).toMatchObject({
      id: created.id,
      deleted: true,
    })
  })

  test('plans: partial update keeps the name; a plan in use cannot be deleted', async () => {
    const h = await createHarness()
    const plan = (await runOperatorCommand(h.deps, 'plan.create', {
      name: 'Pro',
      users: 3,
      value: 99.9,
    })) as {
      id: number
    }
    expect(await runOperatorCommand(h.deps, 'plan.update', { plan: 'Pro', queues: 4 })).toMatchObject({
      name: 'Pro',
      users: 3,
      queues: 4,
      value: 99.9,
    })
    expect(await failure(runOperatorCommand(h.deps, 'plan.delete', { plan: h.plan.id }))).toMatchObject({
      code: 'ERR_PLAN_IN_USE',
      status: 409,
    })
    await runOperatorCommand(h.deps, 'plan.delete', { plan: plan.id })
    expect(h.db.select().from(plans).where(eq(plans.id, plan.id)).get()).toBeUndefined()
  })

  test("user create follows the company's plan limit and publishes the company's user event", async () => {
    const h = await createHarness()
    h.db.update(plans).set({ users: 3 }).where(eq(plans.id, h.plan.id)).run()
    const events = h.recordEvents()
    const created = (await runOperatorCommand(h.deps, 'user.create', {
      company: 'Alpha',
      name: 'Nova Pessoa',
      email: 'nova@alpha.test',
      profile: 'user',
      password: 'Segredo1',
    })) as { id: number; companyId: number }
    expect(created.companyId).toBe(h.a.id)
    expect(events.some((e) => e.event === `company-${h.a.id}-user`)).toBe(true)
    expect(
      await failure(
        runOperatorCommand(h.deps, 'user.create', {
          company: h.a.id,
          name: 'Mais Uma',
          email: 'mais@alpha.test',
          profile: 'user',
          password: 'Segredo1',
        }),
      ),
    ).toMatchObject({ code: 'ERR_USER_LIMIT_REACHED', status: 403 })
    const list = (await runOperatorCommand(h.deps, 'user.list', { company: 'Alpha' })) as {
      email: string
      companyName: string
    }[]
    expect(list.map((u) => u.email).sort()).toEqual([
      'admin@alpha.test',
      'agent@alpha.test',
      'nova@alpha.test',
    ])
    expect(list[0]?.companyName).toBe('Alpha')
    const all = (await runOperatorCommand(h.deps, 'user.list', {})) as unknown[]
    expect(all).toHaveLength(6)
  })

  test('a disabled user cannot sign in, loses their sessions at once, and is enabled again', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const disabled = await runOperatorCommand(h.deps, 'user.disable', { user: h.a.admin })
    expect(disabled).toMatchObject({ id: h.a.adminId, disabled: true })
    expect((await admin.get('/users')).status).toBe(401)
    const login = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    expect(login.status).toBe(403)
    expect(login.body.error).toBe('ERR_USER_DISABLED')
    // A wrong password still answers as any wrong password does.
    const wrong = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: 'nope-nope' } })
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS')

    const root = await h.as(h.superAdmin.email)
    const seen = await root.get(`/users`)
    expect(seen.body.users[0]).toHaveProperty('disabled')

    expect(await runOperatorCommand(h.deps, 'user.enable', { user: h.a.adminId })).toMatchObject({
      disabled: false,
    })
    expect(
      (await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })).status,
    ).toBe(200)
  })

  test('the last enabled super user cannot be disabled', async () => {
    const h = await createHarness()
    expect(
      await failure(runOperatorCommand(h.deps, 'user.disable', { user: h.superAdmin.email })),
    ).toMatchObject({ code: 'ERR_LAST_SUPER_USER' })
    const second = h.makeUser(h.platform.id, { email: 'root2@balcao.test', profile: 'admin', super: true })
    expect(await runOperatorCommand(h.deps, 'user.disable', { user: h.superAdmin.id })).toMatchObject({
      disabled: true,
    })
    // Now the second one is the last enabled super user.
    expect(await failure(runOperatorCommand(h.deps, 'user.disable', { user: second.id }))).toMatchObject({
      code: 'ERR_LAST_SUPER_USER',
    })
  })

  test('connection restart and logout need the running server; unknown ids are not found first', async () => {
    const h = await createHarness()
    const c = h.makeConnection(h.a.id)
    expect(
      await failure(runOperatorCommand(h.deps, 'connection.restart', { id: 999 }, { live: false })),
    ).toMatchObject({ code: 'ERR_NO_WAPP_FOUND' })
    expect(
      await failure(runOperatorCommand(h.deps, 'connection.logout', { id: c.id }, { live: false })),
    ).toMatchObject({ code: 'ERR_NOT_RUNNING', status: 503 })
    expect(await runOperatorCommand(h.deps, 'connection.restart', { id: c.id })).toMatchObject({
      id: c.id,
      companyName: 'Alpha',
    })
    expect(await runOperatorCommand(h.deps, 'connection.logout', { id: c.id })).toMatchObject({
      id: c.id,
      status: 'DISCONNECTED',
    })
  })
})

describe('POST /api/operator/commands/:name', () => {
  test('needs the operator credential and answers the result or the error', async () => {
    const h = await createHarness()
    expect((await h.call('POST', '/operator/commands/plan.list', { body: {} })).status).toBe(401)
    const root = await h.login(h.superAdmin.email)
    expect((await h.call('POST', '/operator/commands/plan.list', { token: root, body: {} })).status).toBe(401)

    const list = await h.call('POST', '/operator/commands/plan.list', { headers: operator })
    expect(list.status).toBe(200)
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['Plano Padrão'])

    const unknown = await h.call('POST', '/operator/commands/plan.nuke', { headers: operator, body: {} })
    expect(unknown).toMatchObject({ status: 404, body: { error: 'ERR_NOT_FOUND' } })
    const bad = await h.call('POST', '/operator/commands/plan.create', { headers: operator, body: [1] })
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } })
    const deep = await h.call('POST', '/operator/commands/plan.create', {
      headers: operator,
      body: '['.repeat(100) + ']'.repeat(100),
    })
    expect(deep.status).toBe(400)
    const inUse = await h.call('POST', '/operator/commands/plan.delete', {
      headers: operator,
      body: { plan: h.plan.id },
    })
    expect(inUse).toMatchObject({ status: 409, body: { error: 'ERR_PLAN_IN_USE' } })

    const events = h.recordEvents()
    const created = await h.call('POST', '/operator/commands/user.create', {
      headers: operator,
      body: { company: 'Beta', name: 'Zé', email: 'ze@beta.test', profile: 'user', password: 'Segredo1' },
    })
    expect(created).toMatchObject({ status: 200, body: { email: 'ze@beta.test', companyId: h.b.id } })
    expect(events.map((e) => e.event)).toContain(`company-${h.b.id}-user`)
  })
})
