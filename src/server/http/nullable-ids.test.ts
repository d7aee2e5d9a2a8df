/**
 * Real clients send an emptied select as `""` (and `false` for "no connection"): every nullable reference reads
 * them as null, through the one schema helper (`nullableId`, `nullableConnectionId` in shared/schemas/common.ts).
 */
import { describe, expect, test } from 'bun:test'
import { makeContact } from '../modules/contacts/testing'
import { createHarness } from '../test/harness'

describe('"" and false as none in reference fields', () => {
  test('a user`s default connection: false and "" clear it; anything else is a 400 naming the field', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const conn = h.makeConnection(h.a.id)
    expect((await admin.put(`/users/${h.a.attendantId}`, { whatsappId: conn.id })).body.whatsappId).toBe(
      conn.id,
    )
    for (const none of [false, '']) {
      const res = await admin.put(`/users/${h.a.attendantId}`, { whatsappId: none })
      expect(res.status).toBe(200)
      expect(res.body.whatsappId).toBeNull()
    }
    const bad = await admin.put(`/users/${h.a.attendantId}`, { whatsappId: 'x' })
    expect(bad.status).toBe(400)
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toEqual(['whatsappId'])
  })

  test('a queue`s prompt and integration: "" is none', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const queue = h.makeQueue(h.a.id, { name: 'Vendas' })
    const res = await admin.put(`/queue/${queue.id}`, {
      name: 'Vendas',
      color: '#3284FE',
      promptId: '',
      integrationId: '',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ promptId: null, integrationId: null })
  })

  test('a connection: "" in its references is none; "" in an optional number keeps the value', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const conn = h.makeConnection(h.a.id, { expiresTicket: 30, maxUseBotQueues: 5 })
    const res = await admin.put(`/whatsapp/${conn.id}`, {
      expiresTicket: '',
      maxUseBotQueues: '',
      timeSendQueue: '',
      sendIdQueue: '',
      promptId: '',
      integrationId: '',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      expiresTicket: 30,
      maxUseBotQueues: 5,
      timeSendQueue: 0,
      sendIdQueue: null,
      promptId: null,
      integrationId: null,
    })
    const bad = await admin.put(`/whatsapp/${conn.id}`, { expiresTicket: 'x' })
    expect(bad.status).toBe(400)
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toEqual(['expiresTicket'])
  })

  test('a new ticket with queueId "" and whatsappId false: no queue, the default connection', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const conn = h.makeConnection(h.a.id, { isDefault: true })
    const contact = makeContact(h, h.a.id)
    const res = await admin.post('/tickets', {
      contactId: contact.id,
      queueId: '',
      whatsappId: false,
      userId: '',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ queueId: null, whatsappId: conn.id })
    // A transfer with an emptied connection select keeps the ticket's connection.
    const moved = await admin.put(`/tickets/${res.body.id}`, { whatsappId: '', queueId: '' })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ queueId: null, whatsappId: conn.id })
  })

  test('a queue option`s position is a number or text on update, as on create', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const queue = h.makeQueue(h.a.id, { name: 'Suporte' })
    const created = await admin.post('/queue-options', {
      queueId: queue.id,
      parentId: '',
      title: 'Boletos',
      option: 1,
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ option: '1', parentId: -1 })
    const updated = await admin.put(`/queue-options/${created.body.id}`, { option: 2 })
    expect(updated.status).toBe(200)
    expect(updated.body.option).toBe('2')
    expect((await admin.put(`/queue-options/${created.body.id}`, { option: '3' })).body.option).toBe('3')
    for (const option of [0, 1.5, 1000, 'um']) {
      const bad = await admin.put(`/queue-options/${created.body.id}`, { option })
      expect(bad.status).toBe(400)
      expect(bad.body.fields.map((f: { field: string }) => f.field)).toEqual(['option'])
    }
  })
})
