import { describe, expect, test } from 'bun:test'
import { createHarness, PASSWORD } from '../../test/harness'

const attendant = (extra: Record<string, unknown> = {}) => ({
  name: 'Joana Lima',
  email: 'joana@alpha.test',
  password: 'Abc12345',
  profile: 'user',
  ...extra,
})

describe('users', () => {
  test('an admin creates an attendant with queues and work hours; the company sees it live', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id, { name: 'Vendas' })
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    const res = await admin.post(
      '/users',
      attendant({ queueIds: [queue.id], startWork: '08:00', endWork: '18:00' }),
    )
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Joana Lima',
      email: 'joana@alpha.test',
      profile: 'user',
      companyId: h.a.id,
      startWork: '08:00',
      endWork: '18:00',
      queues: [{ id: queue.id, name: 'Vendas' }],
    })
    expect(res.body.passwordHash).toBeUndefined()
    expect(events).toContainEqual({
      room: `company:${h.a.id}`,
      event: `company-${h.a.id}-user`,
      data: { action: 'create', user: res.body },
    })
    // The new attendant can sign in with that password.
    expect(
      (await h.call('POST', '/auth/login', { body: { email: 'joana@alpha.test', password: 'Abc12345' } }))
        .status,
    ).toBe(200)
  })

  test.each([
    [{ name: 'J' }, 'name'],
    [{ name: 'x'.repeat(51) }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ email: 'not-an-email' }, 'email'],
    [{ password: '1234' }, 'password'],
    [{ password: 'x'.repeat(51) }, 'password'],
    [{ profile: 'owner' }, 'profile'],
    [{ startWork: '25:00' }, 'startWork'],
    [{ queueIds: [1.5] }, 'queueIds.0'],
  ])('validation: %j answers 400 naming %s', async (extra, field) => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/users', attendant(extra))
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_VALIDATION')
    expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field)
  })

  test('missing required fields are each named', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/users', {})
    expect(res.status).toBe(400)
    const fields = res.body.fields.map((f: { field: string }) => f.field)
    for (const field of ['name', 'email', 'password', 'profile']) expect(fields).toContain(field)
  })

  test('an e-mail in use (in any company) answers 409 ERR_EMAIL_ALREADY_EXISTS', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/users', attendant({ email: h.b.attendant }))
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS')
  })

  test("another company's queue cannot be given to a user", async () => {
    const h = await createHarness()
    const foreign = h.makeQueue(h.b.id)
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/users', attendant({ queueIds: [foreign.id] }))
    expect(res.status).toBe(400)
    expect(res.body.fields[0].field).toBe('queueIds')
  })

  test('lists page by 20 with search, count and hasMore', async () => {
    const h = await createHarness()
    for (let i = 0; i < 23; i++) h.makeUser(h.a.id, { name: `Pessoa ${String(i).padStart(2, '0')}` })
    const admin = await h.as(h.a.admin)
    const first = await admin.get('/users/?pageNumber=1')
    expect(first.status).toBe(200)
    expect(first.body.users).toHaveLength(20)
    expect(first.body.count).toBe(25)
    expect(first.body.hasMore).toBe(true)
    const second = await admin.get('/users/?pageNumber=2')
    expect(second.body.users).toHaveLength(5)
    expect(second.body.hasMore).toBe(false)
    const search = await admin.get('/users/?searchParam=pessoa%2001')
    expect(search.body.users.map((u: { name: string }) => u.name)).toEqual(['Pessoa 01'])
    // % is searched literally, not as a wildcard.
    expect((await admin.get('/users/?searchParam=%25')).body.users).toHaveLength(0)
    expect((await admin.get('/users/?pageNumber=abc')).status).toBe(400)
  })

  test('an attendant cannot list, create or delete users (403), but reads the short list', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    for (const res of [
      await agent.get('/users/'),
      await agent.post('/users', attendant()),
      await agent.del(`/users/${h.a.adminId}`),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_NO_PERMISSION')
    }
    const list = await agent.get('/users/list')
    expect(list.status).toBe(200)
    expect(list.body.map((u: { id: number }) => u.id).sort()).toEqual([h.a.adminId, h.a.attendantId].sort())
  })

  test('an attendant edits their own profile but not their profile type, queues or another user', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    const agent = await h.as(h.a.attendant)
    const own = await agent.put(`/users/${h.a.attendantId}`, {
      name: 'Novo Nome',
      defaultTheme: 'dark',
      password: 'Nova-senha1',
      currentPassword: PASSWORD,
    })
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({ name: 'Novo Nome', defaultTheme: 'dark' })
    const promote = await agent.put(`/users/${h.a.attendantId}`, { profile: 'admin' })
    expect(promote.status).toBe(403)
    const queues = await agent.put(`/users/${h.a.attendantId}`, { queueIds: [queue.id] })
    expect(queues.status).toBe(403)
    // Sending unchanged admin-only values (as a form does) is fine.
    expect((await agent.put(`/users/${h.a.attendantId}`, { profile: 'user', queueIds: [] })).status).toBe(200)
    const other = await agent.put(`/users/${h.a.adminId}`, { name: 'Hacked' })
    expect(other.status).toBe(403)
    expect((await agent.get(`/users/${h.a.adminId}`)).status).toBe(403)
  })

  test('an admin updates a user: profile, queues and password', async () => {
    const h = await createHarness()
    const q1 = h.makeQueue(h.a.id)
    const admin = await h.as(h.a.admin)
    const res = await admin.put(`/users/${h.a.attendantId}`, {
      profile: 'admin',
      queueIds: [q1.id],
      password: 'Outra-senha1',
    })
    expect(res.status).toBe(200)
    expect(res.body.profile).toBe('admin')
    expect(res.body.queues.map((q: { id: number }) => q.id)).toEqual([q1.id])
    expect(
      (await h.call('POST', '/auth/login', { body: { email: h.a.attendant, password: 'Outra-senha1' } }))
        .status,
    ).toBe(200)
    // An empty password on edit keeps the current one.
    expect((await admin.put(`/users/${h.a.attendantId}`, { name: 'Same', password: '' })).status).toBe(200)
    expect(
      (await h.call('POST', '/auth/login', { body: { email: h.a.attendant, password: 'Outra-senha1' } }))
        .status,
    ).toBe(200)
  })

  test('the last admin can neither be demoted nor deleted, and nobody deletes themselves', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const demote = await admin.put(`/users/${h.a.adminId}`, { profile: 'user' })
    expect(demote.status).toBe(409)
    expect(demote.body.error).toBe('ERR_LAST_ADMIN')
    const self = await admin.del(`/users/${h.a.adminId}`)
    expect(self.body.error).toBe('ERR_CANNOT_DELETE_SELF')
  })

  test('deleting a user publishes the delete', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    expect((await admin.del(`/users/${h.a.attendantId}`)).status).toBe(200)
    expect(events.map((e) => e.data)).toContainEqual({ action: 'delete', userId: h.a.attendantId })
    expect((await admin.get(`/users/${h.a.attendantId}`)).status).toBe(404)
  })

  test('the plan limit on users is enforced', async () => {
    const h = await createHarness()
    h.db
      .update((await import('../../db/schema')).plans)
      .set({ users: 2 })
      .run()
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/users', attendant())
    expect(res.status).toBe(403)
    expect(res.body.error).toBe('ERR_USER_LIMIT_REACHED')
  })

  test("another company's user ids answer 404 for read, update and delete", async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const res of [
      await admin.get(`/users/${h.b.attendantId}`),
      await admin.put(`/users/${h.b.attendantId}`, { name: 'Taken' }),
      await admin.del(`/users/${h.b.attendantId}`),
      await admin.get('/users/999999'),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_USER_FOUND')
    }
    const list = await admin.get('/users/')
    expect(list.body.users.every((u: { companyId: number }) => u.companyId === h.a.id)).toBe(true)
    // An id spelled any other way than canonical decimal is a user that does not exist.
    for (const id of ['abc', '0', '00001', '+1', '%201', '1e0', '0x1', `${h.a.attendantId}.0`]) {
      const res = await admin.get(`/users/${id}`)
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_USER_FOUND')
    }
  })
})

describe('default connection of a user', () => {
  test("must be one of the company's connections", async () => {
    const h = await createHarness()
    const own = h.makeConnection(h.a.id)
    const foreign = h.makeConnection(h.b.id)
    const admin = await h.as(h.a.admin)
    const ok = await admin.put(`/users/${h.a.attendantId}`, { whatsappId: own.id })
    expect(ok.status).toBe(200)
    expect(ok.body.whatsappId).toBe(own.id)
    for (const whatsappId of [foreign.id, 999]) {
      const res = await admin.put(`/users/${h.a.attendantId}`, { whatsappId })
      expect(res.status).toBe(400)
      expect(res.body.fields[0].field).toBe('whatsappId')
    }
    expect((await admin.put(`/users/${h.a.attendantId}`, { whatsappId: null })).body.whatsappId).toBeNull()
  })

  test('deleting the connection clears it from its users', async () => {
    const h = await createHarness()
    const own = h.makeConnection(h.a.id)
    const admin = await h.as(h.a.admin)
    await admin.put(`/users/${h.a.attendantId}`, { whatsappId: own.id })
    expect((await admin.del(`/whatsapp/${own.id}`)).status).toBe(200)
    expect((await admin.get(`/users/${h.a.attendantId}`)).body.whatsappId).toBeNull()
  })
})
