import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'

describe('queues', () => {
  test('an admin creates, lists in order, updates and deletes queues, live', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    const vendas = await admin.post('/queue', {
      name: 'Vendas',
      color: '#22C55E',
      orderQueue: 2,
      greetingMessage: 'Olá!',
    })
    expect(vendas.status).toBe(201)
    expect(vendas.body).toMatchObject({
      name: 'Vendas',
      color: '#22C55E',
      orderQueue: 2,
      greetingMessage: 'Olá!',
      companyId: h.a.id,
    })
    const suporte = await admin.post('/queue', { name: 'Suporte', color: '#3284FE', orderQueue: 1 })
    const list = await admin.get('/queue')
    expect(list.body.map((q: { name: string }) => q.name)).toEqual(['Suporte', 'Vendas'])
    const updated = await admin.put(`/queue/${vendas.body.id}`, { name: 'Vendas B2B', color: '#22C55E' })
    expect(updated.status).toBe(200)
    expect(updated.body.name).toBe('Vendas B2B')
    expect((await admin.del(`/queue/${suporte.body.id}`)).status).toBe(200)
    expect(events.map((e) => [e.event, (e.data as { action: string }).action])).toEqual([
      [`company-${h.a.id}-queue`, 'create'],
      [`company-${h.a.id}-queue`, 'create'],
      [`company-${h.a.id}-queue`, 'update'],
      [`company-${h.a.id}-queue`, 'delete'],
    ])
  })

  test('a colour already used in the company answers ERR_QUEUE_COLOR_ALREADY_EXISTS (any case); another company may use it', async () => {
    const h = await createHarness()
    h.makeQueue(h.a.id, { color: '#3284FE' })
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/queue', { name: 'Outra', color: '#3284fe' })
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS')
    const other = await h.as(h.b.admin)
    expect((await other.post('/queue', { name: 'Outra', color: '#3284FE' })).status).toBe(201)
  })

  test('a queue keeps its own colour on update', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id, { color: '#111111', name: 'A' })
    const admin = await h.as(h.a.admin)
    expect((await admin.put(`/queue/${q.id}`, { name: 'A2', color: '#111111' })).status).toBe(200)
  })

  test.each([
    [{ color: '#123456' }, 'name'],
    [{ name: 'X', color: '#123456' }, 'name'],
    [{ name: 'x'.repeat(51), color: '#123456' }, 'name'],
    [{ name: 'Ok' }, 'color'],
    [{ name: 'Ok', color: 'blue' }, 'color'],
    [{ name: 'Ok', color: '#12345' }, 'color'],
    [{ name: 'Ok', color: '#123456', orderQueue: -1 }, 'orderQueue'],
  ])('validation: %j answers 400 naming %s', async (body, field) => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/queue', body)
    expect(res.status).toBe(400)
    expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field)
  })

  test('attendants read queues but cannot change them', async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    const agent = await h.as(h.a.attendant)
    expect((await agent.get('/queue')).status).toBe(200)
    expect((await agent.get(`/queue/${q.id}`)).status).toBe(200)
    expect((await agent.post('/queue', { name: 'Nope', color: '#000000' })).status).toBe(403)
    expect((await agent.put(`/queue/${q.id}`, { name: 'Nope', color: '#000000' })).status).toBe(403)
    expect((await agent.del(`/queue/${q.id}`)).status).toBe(403)
  })

  test('the plan limit on queues is enforced', async () => {
    const h = await createHarness()
    h.db
      .update((await import('../../db/schema')).plans)
      .set({ queues: 1 })
      .run()
    h.makeQueue(h.a.id)
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/queue', { name: 'Segunda', color: '#abcdef' })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe('ERR_QUEUE_LIMIT_REACHED')
  })

  test("another company's queue ids answer 404", async () => {
    const h = await createHarness()
    const foreign = h.makeQueue(h.b.id)
    const admin = await h.as(h.a.admin)
    for (const res of [
      await admin.get(`/queue/${foreign.id}`),
      await admin.put(`/queue/${foreign.id}`, { name: 'Mine', color: '#010101' }),
      await admin.del(`/queue/${foreign.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND')
    }
    expect((await admin.get('/queue')).body).toEqual([])
  })

  test('service hours: the spec defaults on create, validated on write, kept when absent on update', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const created = await admin.post('/queue', { name: 'Horas', color: '#123123' })
    expect(created.body.schedules).toHaveLength(7)
    expect(created.body.schedules[0]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTime: '08:00',
      endTime: '18:00',
    })
    expect(created.body.schedules[5]).toMatchObject({
      weekdayEn: 'saturday',
      startTime: '08:00',
      endTime: '12:00',
    })
    expect(created.body.schedules[6]).toMatchObject({
      weekdayEn: 'sunday',
      startTime: '00:00',
      endTime: '00:00',
    })
    expect(created.body).toMatchObject({ integrationId: null, promptId: null })
    const id = created.body.id
    const schedules = [{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '09:00', endTime: '13:00' }]
    const put = await admin.put(`/queue/${id}`, { name: 'Horas', color: '#123123', schedules })
    expect(put.status).toBe(200)
    expect(put.body.schedules).toEqual(schedules)
    expect((await admin.put(`/queue/${id}`, { name: 'Horas 2', color: '#123123' })).body.schedules).toEqual(
      schedules,
    )
    expect((await admin.get(`/queue/${id}`)).body.schedules).toEqual(schedules)
    for (const bad of [
      'x',
      [{ weekdayEn: 'monday', startTime: '8:00', endTime: '18:00' }],
      [{ weekdayEn: 'monday', startTime: '08:00', endTime: '24:00' }],
      [{ weekdayEn: 'lunes', startTime: '08:00', endTime: '18:00' }],
      [
        { weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
        { weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
      ],
      [null],
      {},
    ]) {
      const res = await admin.put(`/queue/${id}`, { name: 'Horas', color: '#123123', schedules: bad })
      expect(res.status).toBe(400)
      expect(res.body.fields[0].field).toBe('schedules')
    }
    const reset = await admin.put(`/queue/${id}`, { name: 'Horas', color: '#123123', schedules: null })
    expect(reset.body.schedules[0]).toMatchObject({ weekdayEn: 'monday', startTime: '08:00' })
  })

  test('integrationId and promptId: only none (null) until those areas exist', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const ok = await admin.post('/queue', {
      name: 'Refs',
      color: '#0a0a0a',
      integrationId: null,
      promptId: null,
    })
    expect(ok.status).toBe(201)
    for (const body of [{ integrationId: 1 }, { promptId: 3 }, { promptId: 'x' }, { integrationId: -1 }]) {
      const res = await admin.put(`/queue/${ok.body.id}`, { name: 'Refs', color: '#0a0a0a', ...body })
      expect(res.status).toBe(400)
    }
  })

  test("fileListId: a file list of the company, kept when absent, null clears; another company's list is 400", async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const own = (await admin.post('/files', { name: 'Catálogo', message: 'm', options: [{ name: 'o' }] }))
      .body
    const foreign = (await (await h.as(h.b.admin)).post('/files', { name: 'Alheia', message: 'm' })).body
    const created = await admin.post('/queue', { name: 'Vendas', color: '#22C55E', fileListId: own.id })
    expect(created.status).toBe(201)
    expect(created.body.fileListId).toBe(own.id)
    const id = created.body.id
    expect((await admin.get(`/queue/${id}`)).body.fileListId).toBe(own.id)
    expect((await admin.put(`/queue/${id}`, { name: 'Vendas', color: '#22C55E' })).body.fileListId).toBe(
      own.id,
    )
    for (const fileListId of [foreign.id, 999_999, 'x', 0]) {
      const res = await admin.put(`/queue/${id}`, { name: 'Vendas', color: '#22C55E', fileListId })
      expect(res.status).toBe(400)
    }
    expect(
      (await admin.post('/queue', { name: 'Outra', color: '#3284FE', fileListId: foreign.id })).status,
    ).toBe(400)
    expect((await admin.get(`/queue/${id}`)).body.fileListId).toBe(own.id)
    const cleared = await admin.put(`/queue/${id}`, { name: 'Vendas', color: '#22C55E', fileListId: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body.fileListId).toBeNull()
    await admin.put(`/queue/${id}`, { name: 'Vendas', color: '#22C55E', fileListId: own.id })
    expect((await admin.del(`/files/${own.id}`)).status).toBe(200)
    expect((await admin.get(`/queue/${id}`)).body.fileListId).toBeNull()
  })
})
