import { afterEach, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import type { LiveFrame } from '../../../shared/live'
import { plans } from '../../db/schema'
import { rooms } from '../../realtime/rooms'
import type { SocketData } from '../../realtime/socket'
import { createHarness, type Harness } from '../../test/harness'
import { connectLive, listenLive, until } from '../../test/live'

let server: Server<SocketData> | undefined
afterEach(() => {
  server?.stop(true)
  server = undefined
})

/** Company A with a third user, so a chat can leave someone out. */
async function setup() {
  const h = await createHarness()
  const third = h.makeUser(h.a.id, { name: 'Carla' })
  const admin = await h.as(h.a.admin)
  const agent = await h.as(h.a.attendant)
  const carla = await h.as(third.email)
  return { h, third, admin, agent, carla }
}

async function makeChat(
  client: Awaited<ReturnType<Harness['as']>>,
  title: string,
  users: (number | { id: number })[],
) {
  const res = await client.post('/chats', { title, users })
  expect(res.status).toBe(201)
  return res.body as { id: number; uuid: string }
}

const unreadsOf = (body: { users: { userId: number; unreads: number }[] }, userId: number) =>
  body.users.find((u) => u.userId === userId)?.unreads

describe('chats: create, read, membership', () => {
  test('create: the owner is a member, users as ids or objects, title trimmed', async () => {
    const { h, third, admin } = await setup()
    const res = await admin.post('/chats', {
      title: '  Equipe  ',
      users: [h.a.attendantId, { id: third.id }, h.a.attendantId, h.a.adminId],
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      title: 'Equipe',
      ownerId: h.a.adminId,
      lastMessage: '',
      createdAt: '2026-11-21T12:00:00.000Z',
      updatedAt: '2026-11-21T12:00:00.000Z',
    })
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.body.users).toEqual([
      { userId: h.a.adminId, unreads: 0, user: { id: h.a.adminId, name: 'Alpha Admin' } },
      { userId: h.a.attendantId, unreads: 0, user: { id: h.a.attendantId, name: 'Alpha Attendant' } },
      { userId: third.id, unreads: 0, user: { id: third.id, name: 'Carla' } },
    ])
    expect((await admin.get(`/chats/${res.body.id}`)).body.id).toBe(res.body.id)
    expect((await admin.get(`/chats/u/${res.body.uuid}`)).body.id).toBe(res.body.id)
    expect((await admin.get(`/chats/u/${res.body.uuid.toUpperCase()}`)).body.id).toBe(res.body.id)
  })

  test('a non-member gets 404 for the chat, its messages, posting, reading, editing and deleting', async () => {
    const { h, admin, carla } = await setup()
    const chat = await makeChat(admin, 'Só nós', [h.a.attendantId])
    await admin.post(`/chats/${chat.id}/messages`, { message: 'segredo' })
    for (const res of [
      await carla.get(`/chats/${chat.id}`),
      await carla.get(`/chats/u/${chat.uuid}`),
      await carla.get(`/chats/${chat.id}/messages`),
      await carla.post(`/chats/${chat.id}/messages`, { message: 'oi' }),
      await carla.post(`/chats/${chat.id}/read`, {}),
      await carla.put(`/chats/${chat.id}`, { title: 'x', users: [h.a.attendantId] }),
      await carla.del(`/chats/${chat.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_CHAT_FOUND')
    }
    expect((await carla.get('/chats')).body).toEqual({ records: [], hasMore: false })
    // Nothing she tried changed it.
    const messages = (await admin.get(`/chats/${chat.id}/messages`)).body
    expect(messages.records.map((m: { message: string }) => m.message)).toEqual(['segredo'])
  })

  test("another company's chats are 404, and its users can never be members", async () => {
    const { h, admin } = await setup()
    const chat = await makeChat(admin, 'Alpha', [h.a.attendantId])
    const other = await h.as(h.b.admin)
    for (const res of [
      await other.get(`/chats/${chat.id}`),
      await other.get(`/chats/u/${chat.uuid}`),
      await other.get(`/chats/${chat.id}/messages`),
      await other.post(`/chats/${chat.id}/messages`, { message: 'oi' }),
      await other.post(`/chats/${chat.id}/read`),
      await other.put(`/chats/${chat.id}`, { title: 'x', users: [h.b.attendantId] }),
      await other.del(`/chats/${chat.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_CHAT_FOUND')
    }
    // Company B's users (or the platform's) in a company A chat: refused, nothing created or changed.
    for (const users of [[h.b.attendantId], [h.a.attendantId, h.b.adminId], [h.superAdmin.id], [999999]]) {
      const res = await admin.post('/chats', { title: 'Mista', users })
      expect(res.status).toBe(400)
      expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['users'])
      const put = await admin.put(`/chats/${chat.id}`, { title: 'Mista', users })
      expect(put.status).toBe(400)
    }
    expect((await admin.get('/chats')).body.records).toHaveLength(1)
    expect((await admin.get(`/chats/${chat.id}`)).body.title).toBe('Alpha')
    const members = h.deps.sqlite
      .query('SELECT DISTINCT u.company_id AS c FROM chat_users cu JOIN users u ON u.id = cu.user_id')
      .all()
    expect(members).toEqual([{ c: h.a.id }])
  })

  test('validation: title required and at most 100; at least one other user; messages not blank, <= 4000', async () => {
    const { h, admin } = await setup()
    const cases: [unknown, string][] = [
      [{ title: '', users: [h.a.attendantId] }, 'title'],
      [{ title: '   ', users: [h.a.attendantId] }, 'title'],
      [{ title: 'x'.repeat(101), users: [h.a.attendantId] }, 'title'],
      [{ users: [h.a.attendantId] }, 'title'],
      [{ title: 'Sem ninguém', users: [] }, 'users'],
      [{ title: 'Só eu', users: [h.a.adminId] }, 'users'],
      [{ title: 'Sem lista' }, 'users'],
      [{ title: 'Lista errada', users: 'todos' }, 'users'],
      [{ title: 'Id errado', users: [0] }, 'users.0'],
      [{ title: 'Id errado', users: [{ id: '2' }] }, 'users.0.id'],
    ]
    for (const [body, field] of cases) {
      const res = await admin.post('/chats', body)
      expect({ body, status: res.status }).toEqual({ body, status: 400 })
      expect({ body, fields: res.body.fields.map((f: { field: string }) => f.field) }).toEqual({
        body,
        fields: [field],
      })
    }
    expect((await admin.post('/chats', { title: 'x'.repeat(100), users: [h.a.attendantId] })).status).toBe(
      201,
    )
    const chat = await makeChat(admin, 'Mensagens', [h.a.attendantId])
    for (const message of ['', '   ', '\n\t', 'x'.repeat(4001)]) {
      const res = await admin.post(`/chats/${chat.id}/messages`, { message })
      expect(res.status).toBe(400)
      expect(res.body.fields[0].field).toBe('message')
    }
    const long = await admin.post(`/chats/${chat.id}/messages`, { message: 'y'.repeat(4000) })
    expect(long.status).toBe(201)
    expect((await admin.get(`/chats/${chat.id}/messages`)).body.count).toBe(1)
  })
})

describe('chats: owner-only changes', () => {
  test('a member who is not the owner gets 403 on edit and delete; the owner edits and deletes', async () => {
    const { h, third, admin, agent } = await setup()
    const chat = await makeChat(admin, 'Do admin', [h.a.attendantId])
    const put = await agent.put(`/chats/${chat.id}`, { title: 'Tomado', users: [h.a.adminId] })
    expect(put.status).toBe(403)
    expect(put.body.error).toBe('ERR_NO_PERMISSION')
    expect((await agent.del(`/chats/${chat.id}`)).status).toBe(403)
    expect((await agent.get(`/chats/${chat.id}`)).body.title).toBe('Do admin')
    h.clock.advance(60_000)
    const edited = await admin.put(`/chats/${chat.id}`, { title: 'Renomeado', users: [third.id] })
    expect(edited.status).toBe(200)
    expect(edited.body.title).toBe('Renomeado')
    expect(edited.body.updatedAt).toBe('2026-11-21T12:01:00.000Z')
    expect(edited.body.users.map((u: { userId: number }) => u.userId)).toEqual([h.a.adminId, third.id])
    // The attendant was removed: the chat is gone for them.
    expect((await agent.get(`/chats/${chat.id}`)).status).toBe(404)
    expect((await admin.del(`/chats/${chat.id}`)).status).toBe(200)
    expect((await admin.get(`/chats/${chat.id}`)).status).toBe(404)
    const left = h.deps.sqlite.query('SELECT count(*) AS n FROM chat_users WHERE chat_id = ?').get(chat.id)
    expect(left).toEqual({ n: 0 })
  })

  test('deleting a member user removes them; deleting the owner leaves an ownerless chat', async () => {
    const { h, third, admin, agent } = await setup()
    const carla = await h.as(third.email)
    const chat = await makeChat(carla, 'Da Carla', [h.a.attendantId, h.a.adminId])
    await carla.post(`/chats/${chat.id}/messages`, { message: 'oi' })
    expect((await admin.del(`/users/${third.id}`)).status).toBe(200)
    const seen = (await agent.get(`/chats/${chat.id}`)).body
    expect(seen.ownerId).toBeNull()
    expect(seen.users.map((u: { userId: number }) => u.userId)).toEqual([h.a.attendantId, h.a.adminId])
    const messages = (await agent.get(`/chats/${chat.id}/messages`)).body.records
    expect(messages).toMatchObject([{ message: 'oi', senderId: null, sender: null }])
    expect((await agent.put(`/chats/${chat.id}`, { title: 'x', users: [h.a.adminId] })).status).toBe(403)
  })
})

describe('chats: messages, unread counts, read state', () => {
  test("a message counts for every other member, not the sender; read zeroes only the actor's", async () => {
    const { h, third, admin, agent, carla } = await setup()
    const chat = await makeChat(admin, 'Contagem', [h.a.attendantId, third.id])
    h.clock.advance(1000)
    const sent = await admin.post(`/chats/${chat.id}/messages`, { message: '  Bom dia  ' })
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({
      chatId: chat.id,
      message: '  Bom dia  ',
      senderId: h.a.adminId,
      sender: { id: h.a.adminId, name: 'Alpha Admin' },
      createdAt: '2026-11-21T12:00:01.000Z',
    })
    await admin.post(`/chats/${chat.id}/messages`, { message: 'Tudo bem?' })
    await agent.post(`/chats/${chat.id}/messages`, { message: 'Sim' })
    const now = (await admin.get(`/chats/${chat.id}`)).body
    expect(now.lastMessage).toBe('Sim')
    expect(now.updatedAt).toBe('2026-11-21T12:00:01.000Z')
    expect(unreadsOf(now, h.a.adminId)).toBe(1)
    expect(unreadsOf(now, h.a.attendantId)).toBe(2)
    expect(unreadsOf(now, third.id)).toBe(3)
    expect((await carla.get('/chats/unread')).body.records.map((c: { id: number }) => c.id)).toEqual([
      chat.id,
    ])

    // Carla reads, naming another user: only her own count changes.
    const read = await carla.post(`/chats/${chat.id}/read`, { userId: h.a.attendantId })
    expect(read.status).toBe(200)
    expect(unreadsOf(read.body, third.id)).toBe(0)
    expect(unreadsOf(read.body, h.a.attendantId)).toBe(2)
    expect(unreadsOf(read.body, h.a.adminId)).toBe(1)
    expect((await carla.get('/chats/unread')).body.records).toEqual([])
    expect((await agent.get('/chats/unread')).body.records).toHaveLength(1)
    // No body at all is fine too.
    expect((await agent.post(`/chats/${chat.id}/read`)).status).toBe(200)
    expect((await agent.get('/chats/unread')).body.records).toEqual([])
    expect(unreadsOf((await admin.get(`/chats/${chat.id}`)).body, h.a.adminId)).toBe(1)
  })

  test('messages page: page 1 the newest 20, oldest first; older pages; hasMore and count', async () => {
    const { h, admin, agent } = await setup()
    const chat = await makeChat(admin, 'Muitas', [h.a.attendantId])
    for (let i = 1; i <= 45; i++) {
      h.clock.advance(1000)
      await (i % 2 ? admin : agent).post(`/chats/${chat.id}/messages`, { message: `m${i}` })
    }
    const texts = (body: { records: { message: string }[] }) => body.records.map((r) => r.message)
    const p1 = (await agent.get(`/chats/${chat.id}/messages`)).body
    expect(p1).toMatchObject({ count: 45, hasMore: true })
    expect(texts(p1)).toEqual(Array.from({ length: 20 }, (_, i) => `m${26 + i}`))
    const p2 = (await agent.get(`/chats/${chat.id}/messages?pageNumber=2`)).body
    expect(p2).toMatchObject({ count: 45, hasMore: true })
    expect(texts(p2)).toEqual(Array.from({ length: 20 }, (_, i) => `m${6 + i}`))
    const p3 = (await agent.get(`/chats/${chat.id}/messages?pageNumber=3`)).body
    expect(p3).toMatchObject({ count: 45, hasMore: false })
    expect(texts(p3)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5'])
    const p4 = (await agent.get(`/chats/${chat.id}/messages?pageNumber=4`)).body
    expect(p4).toEqual({ records: [], count: 45, hasMore: false })
  })

  test('the list: 20 a page, the most recently active first, only mine, searched by title', async () => {
    const { h, third, admin, agent } = await setup()
    const ids: number[] = []
    for (let i = 0; i < 23; i++) {
      h.clock.advance(1000)
      ids.push((await makeChat(admin, `Sala ${String(i).padStart(2, '0')}`, [h.a.attendantId])).id)
    }
    await makeChat(admin, 'Sem o atendente', [third.id])
    h.clock.advance(1000)
    // A message moves the oldest chat to the top.
    await admin.post(`/chats/${ids[0]}/messages`, { message: 'subiu' })
    const p1 = (await agent.get('/chats')).body
    expect(p1.hasMore).toBe(true)
    expect(p1.records).toHaveLength(20)
    expect(p1.records[0]).toMatchObject({ id: ids[0], lastMessage: 'subiu' })
    expect(p1.records[1].id).toBe(ids[22])
    const p2 = (await agent.get('/chats?pageNumber=2')).body
    expect(p2.hasMore).toBe(false)
    expect(p2.records.map((c: { id: number }) => c.id)).toEqual([ids[3], ids[2], ids[1]])
    const found = (await agent.get('/chats?searchParam=sala%2001')).body
    expect(found.records.map((c: { title: string }) => c.title)).toEqual(['Sala 01'])
    expect((await agent.get('/chats?searchParam=SALA 0')).body.records).toHaveLength(10)
    expect((await agent.get('/chats?searchParam=atendente')).body.records).toEqual([])
    expect((await admin.get('/chats?searchParam=atendente')).body.records).toHaveLength(1)
    expect((await agent.get('/chats?searchParam=%25')).body.records).toEqual([])
  })
})

describe('chats: live events', () => {
  type Recorded = { room: string; event: string; data: { action: string } & Record<string, unknown> }

  test('chat, chat-user and chat-{id} go to the members only, each unread count to its own user', async () => {
    const { h, third, admin } = await setup()
    const events = h.recordEvents() as unknown as Recorded[]
    const room = (userId: number) => rooms.user(h.a.id, userId)
    const agent = await h.as(h.a.attendant)
    events.length = 0
    const chat = await makeChat(admin, 'Ao vivo', [h.a.attendantId])
    const created = events.filter((e) => e.event === `company-${h.a.id}-chat`)
    expect(created.map((e) => [e.room, e.data.action])).toEqual([
      [room(h.a.adminId), 'create'],
      [room(h.a.attendantId), 'create'],
    ])
    events.length = 0
    await admin.post(`/chats/${chat.id}/messages`, { message: 'olá' })
    const rooms_ = new Set(events.map((e) => e.room))
    expect([...rooms_].sort()).toEqual([room(h.a.adminId), room(h.a.attendantId)].sort())
    const msg = events.filter((e) => e.event === `company-${h.a.id}-chat-${chat.id}`)
    expect(msg).toHaveLength(2)
    expect(msg[0]!.data).toMatchObject({
      action: 'new-message',
      message: { message: 'olá', senderId: h.a.adminId },
      chat: { id: chat.id, lastMessage: 'olá' },
    })
    const unread = events.filter((e) => e.event === `company-${h.a.id}-chat-user`)
    expect(unread.map((e) => [e.room, e.data])).toEqual([
      [room(h.a.attendantId), { action: 'update', chatId: chat.id, userId: h.a.attendantId, unreads: 1 }],
    ])
    events.length = 0
    // Reading: only to the reader.
    await agent.post(`/chats/${chat.id}/read`, { userId: h.a.adminId })
    expect(events.map((e) => [e.room, e.event, e.data])).toEqual([
      [
        room(h.a.attendantId),
        `company-${h.a.id}-chat-user`,
        { action: 'update', chatId: chat.id, userId: h.a.attendantId, unreads: 0 },
      ],
    ])
    events.length = 0
    // Replacing the attendant by Carla: delete to him, create to her, update to the owner.
    await admin.put(`/chats/${chat.id}`, { title: 'Ao vivo', users: [third.id] })
    expect(events.map((e) => [e.room, e.data.action])).toEqual([
      [room(h.a.attendantId), 'delete'],
      [room(h.a.adminId), 'update'],
      [room(third.id), 'create'],
    ])
    events.length = 0
    await admin.del(`/chats/${chat.id}`)
    expect(events.map((e) => [e.room, e.data])).toEqual([
      [room(h.a.adminId), { action: 'delete', id: chat.id }],
      [room(third.id), { action: 'delete', id: chat.id }],
    ])
  })

  test('over real sockets: the member hears the message, the non-member and company B hear nothing', async () => {
    const { h, third, admin } = await setup()
    server = listenLive(h)
    const member = connectLive(server, await h.login(h.a.attendant))
    const outsider = connectLive(server, await h.login(third.email))
    const otherCompany = connectLive(server, await h.login(h.b.admin))
    await Promise.all([member.opened, outsider.opened, otherCompany.opened])
    await until(() => h.deps.hub.size === 3, 'all joined')
    const chat = await makeChat(admin, 'Privado', [h.a.attendantId])
    await admin.post(`/chats/${chat.id}/messages`, { message: 'só para você' })
    const heard = await member.next((f: LiveFrame) => f.event === `company-${h.a.id}-chat-${chat.id}`)
    expect((heard.data as { message: { message: string } }).message.message).toBe('só para você')
    await member.next((f) => f.event === `company-${h.a.id}-chat-user`)
    // A later event to the outsider proves their socket was listening all along.
    const mine = await makeChat(admin, 'Com a Carla', [third.id])
    await outsider.next((f) => f.event === `company-${h.a.id}-chat`)
    const isChat = (f: LiveFrame) => String(f.event).includes('-chat')
    expect(
      outsider.frames.filter(isChat).map((f) => (f.data as { record?: { id: number } }).record?.id),
    ).toEqual([mine.id])
    expect(otherCompany.frames.filter(isChat)).toEqual([])
    for (const s of [member, outsider, otherCompany]) s.ws.close()
  })
})

describe('chats: plan flag', () => {
  test('useInternalChat off refuses every route (403)', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const plan = h.db
      .insert(plans)
      .values({ name: 'Sem chat', useInternalChat: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Chat', { planId: plan.id })
    const u1 = h.makeUser(company.id)
    const u2 = h.makeUser(company.id)
    const client = await h.as(u1.email)
    const now2 = h.clock.now()
    h.deps.sqlite
      .query(
        `INSERT INTO chats (uuid, company_id, owner_id, title, created_at, updated_at)
         VALUES ('00000000-0000-4000-8000-000000000000', ?, ?, 'Antigo', ?, ?)`,
      )
      .run(company.id, u1.id, now2, now2)
    const id = (h.deps.sqlite.query('SELECT max(id) AS id FROM chats').get() as { id: number }).id
    h.deps.sqlite
      .query(
        'INSERT INTO chat_users (chat_id, user_id, company_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(id, u1.id, company.id, now2, now2)
    const body = { title: 'Novo', users: [u2.id], message: 'oi' }
    for (const [method, path] of [
      ['GET', '/chats'],
      ['GET', '/chats/'],
      ['GET', '/chats/unread'],
      ['GET', `/chats/${id}`],
      ['GET', '/chats/u/00000000-0000-4000-8000-000000000000'],
      ['POST', '/chats'],
      ['PUT', `/chats/${id}`],
      ['DELETE', `/chats/${id}`],
      ['POST', `/chats/${id}/read`],
      ['GET', `/chats/${id}/messages`],
      ['POST', `/chats/${id}/messages`],
    ] as const) {
      const res = await h.call(method, path, {
        token: client.token,
        body: method === 'GET' || method === 'DELETE' ? undefined : body,
      })
      expect({ path, method, status: res.status }).toEqual({ path, method, status: 403 })
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM chats').get()).toEqual({ n: 1 })
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM chat_messages').get()).toEqual({ n: 0 })
  })
})
