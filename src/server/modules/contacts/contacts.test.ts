import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import { makeContact, makeMessage, makeTag, makeTicket, setTricked } from './testing'

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field)

describe('contacts: create, read, update', () => {
  test('an attendant creates a contact with extra info and tags; it is live and can be read back', async () => {
    const h = await createHarness()
    const tag = makeTag(h, h.a.id, 'VIP')
    const agent = await h.as(h.a.attendant)
    const events = h.recordEvents()
    const res = await agent.post('/contacts', {
      name: '  Maria Souza ',
      number: '+55 (11) 98765-4321',
      email: 'Maria@Example.com',
      disableBot: true,
      extraInfo: [{ name: 'CPF', value: '123' }],
      tagIds: [tag.id],
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Maria Souza',
      number: '5511987654321',
      email: 'maria@example.com',
      disableBot: true,
      isGroup: false,
      companyId: h.a.id,
      extraInfo: [{ name: 'CPF', value: '123' }],
      tags: [{ id: tag.id, name: 'VIP', color: '#123456' }],
    })
    expect(typeof res.body.uuid).toBe('string')
    const live = events.filter((e) => e.event === `company-${h.a.id}-contact`)
    expect(live).toHaveLength(1)
    expect(live[0]!.room).toBe(`company:${h.a.id}`)
    expect((await agent.get(`/contacts/${res.body.id}`)).body).toEqual(res.body)
  })

  test('PUT replaces the extra-info list (kept ids stay, missing ones go) and the tags', async () => {
    const h = await createHarness()
    const [t1, t2] = [makeTag(h, h.a.id, 'Um1'), makeTag(h, h.a.id, 'Dois')]
    const agent = await h.as(h.a.attendant)
    const created = (
      await agent.post('/contacts', {
        name: 'Ana',
        number: '5511911112222',
        extraInfo: [
          { name: 'a', value: '1' },
          { name: 'b', value: '2' },
        ],
        tagIds: [t1.id],
      })
    ).body
    const keep = created.extraInfo.find((x: { name: string }) => x.name === 'b')
    const res = await agent.put(`/contacts/${created.id}`, {
      name: 'Ana Paula',
      number: created.number,
      extraInfo: [{ id: keep.id, name: 'b', value: '22' }, { name: 'c' }],
      tagIds: [t2.id],
      disableBot: true,
    })
    expect(res.status).toBe(200)
    expect(res.body.name).toBe('Ana Paula')
    expect(res.body.disableBot).toBe(true)
    expect(res.body.extraInfo).toEqual([
      { id: keep.id, name: 'b', value: '22' },
      { id: expect.any(Number), name: 'c', value: '' },
    ])
    expect(res.body.tags.map((t: { id: number }) => t.id)).toEqual([t2.id])
    // Leaving extraInfo and tagIds out leaves them as they are.
    const again = await agent.put(`/contacts/${created.id}`, { name: 'Ana Paula' })
    expect(again.body.extraInfo).toHaveLength(2)
    expect(again.body.tags).toHaveLength(1)
    expect(again.body.number).toBe('5511911112222')
  })

  test.each([
    [{}, 'name'],
    [{ name: 'A' }, 'name'],
    [{ name: 'x'.repeat(51) }, 'name'],
    [{ name: 'Ana', number: '1234567' }, 'number'],
    [{ name: 'Ana', number: '1'.repeat(51) }, 'number'],
    [{ name: 'Ana', number: 'not a number' }, 'number'],
    [{ name: 'Ana', email: 'nope' }, 'email'],
    [{ name: 'Ana', disableBot: 'yes' }, 'disableBot'],
    [{ name: 'Ana', extraInfo: [{ value: 'x' }] }, 'extraInfo.0.name'],
    [{ name: 'Ana', tagIds: ['1'] }, 'tagIds.0'],
  ])('validation: %j answers 400 naming %s', async (body, field) => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/contacts', body)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_VALIDATION')
    expect(fieldsOf(res.body)).toContain(field)
  })

  test('bad bodies are 400, never 500', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    for (const body of ['[]', 'null', '"x"', '{bad json', JSON.stringify({ name: 'Ana', extraInfo: 'x' })])
      expect((await agent.post('/contacts', body)).status).toBe(400)
    expect((await agent.get('/contacts?contactTag=[x')).status).toBe(400)
    expect((await agent.get('/contacts?pageNumber=0')).status).toBe(400)
    expect((await agent.get('/contacts/abc')).status).toBe(404)
  })

  test('a number is unique per company, in either Brazilian form: ERR_DUPLICATED_CONTACT', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    expect((await agent.post('/contacts', { name: 'Primeiro', number: '5511987654321' })).status).toBe(201)
    for (const number of ['5511987654321', '551187654321', '+55 11 98765-4321']) {
      const res = await agent.post('/contacts', { name: 'Segundo', number })
      expect(res.status).toBe(409)
      expect(res.body.error).toBe('ERR_DUPLICATED_CONTACT')
      expect(fieldsOf(res.body)).toEqual(['number'])
    }
    // Another company may have the same number.
    expect(
      (await (await h.as(h.b.attendant)).post('/contacts', { name: 'Outro', number: '5511987654321' }))
        .status,
    ).toBe(201)
    // Changing another contact to that number is refused too; keeping its own number is fine.
    const other = (await agent.post('/contacts', { name: 'Terceiro', number: '5511900001111' })).body
    expect(
      (await agent.put(`/contacts/${other.id}`, { name: 'Terceiro', number: '551187654321' })).status,
    ).toBe(409)
    expect(
      (await agent.put(`/contacts/${other.id}`, { name: 'Terceiro', number: '5511900001111' })).status,
    ).toBe(200)
  })

  test('contacts without a number are allowed and do not collide', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    expect((await agent.post('/contacts', { name: 'Sem número' })).status).toBe(201)
    const res = await agent.post('/contacts', { name: 'Também sem', number: '', email: '' })
    expect(res.status).toBe(201)
    expect(res.body.number).toBe('')
  })

  test('findOrCreate finds by either Brazilian form, or creates', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const existing = makeContact(h, h.a.id, { name: 'Já existe', number: '5511987654321' })
    const found = await agent.post('/contacts/findOrCreate', { name: 'Outro nome', number: '551187654321' })
    expect(found.status).toBe(200)
    expect(found.body).toMatchObject({ id: existing.id, name: 'Já existe' })
    const created = await agent.post('/contacts/findOrCreate', {
      name: 'Novo',
      number: '5521999998888',
      email: '',
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Novo', number: '5521999998888' })
    expect((await agent.post('/contacts/findOrCreate', { name: 'Novo' })).status).toBe(400)
    expect((await agent.post('/contacts/findOrCreate', { name: 'Novo', number: '' })).status).toBe(400)
  })
})

describe('contacts: delete', () => {
  test('needs contacts-page:deleteContact: attendants are refused, admins delete with the tickets, live', async () => {
    const h = await createHarness()
    const contact = makeContact(h, h.a.id)
    const queue = h.makeQueue(h.a.id)
    const ticket = makeTicket(h, h.a.id, { contactId: contact.id, queueId: queue.id, status: 'open' })
    makeMessage(h, h.a.id, ticket.id, contact.id, 'oi')
    const agent = await h.as(h.a.attendant)
    const denied = await agent.del(`/contacts/${contact.id}`)
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe('ERR_NO_PERMISSION')
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    expect((await admin.del(`/contacts/${contact.id}`)).status).toBe(200)
    expect((await admin.get(`/contacts/${contact.id}`)).status).toBe(404)
    const count = (sql: string) => (h.deps.sqlite.query(sql).get() as { n: number }).n
    expect(count(`SELECT count(*) AS n FROM tickets WHERE id = ${ticket.id}`)).toBe(0)
    expect(count(`SELECT count(*) AS n FROM messages WHERE ticket_id = ${ticket.id}`)).toBe(0)
    expect(events).toContainEqual({
      room: `company:${h.a.id}`,
      event: `company-${h.a.id}-contact`,
      data: { action: 'delete', contactId: contact.id },
    })
    expect(events).toContainEqual({
      room: `company:${h.a.id}:queue:${queue.id}`,
      event: `company-${h.a.id}-ticket`,
      data: { action: 'delete', ticketId: ticket.id },
    })
  })
})

describe('contacts: another company', () => {
  test("another company's contact ids answer 404 for read, update and delete; lists never show them", async () => {
    const h = await createHarness()
    const foreign = makeContact(h, h.b.id, { name: 'Ana de Beta', number: '5511955554444' })
    const foreignTag = makeTag(h, h.b.id, 'Beta tag')
    const admin = await h.as(h.a.admin)
    for (const res of [
      await admin.get(`/contacts/${foreign.id}`),
      await admin.put(`/contacts/${foreign.id}`, { name: 'Mine' }),
      await admin.del(`/contacts/${foreign.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND')
    }
    expect((await admin.get('/contacts')).body).toEqual({ contacts: [], count: 0, hasMore: false })
    expect((await admin.get('/contacts?searchParam=ana')).body.contacts).toEqual([])
    expect((await admin.get('/contacts?searchParam=55119555')).body.contacts).toEqual([])
    expect((await admin.get('/contacts/list')).body).toEqual([])
    const res = await admin.post('/contacts', { name: 'Com tag alheia', tagIds: [foreignTag.id] })
    expect(res.status).toBe(400)
    expect(fieldsOf(res.body)).toEqual(['tagIds'])
    const conn = h.makeConnection(h.b.id)
    expect((await admin.post('/contacts', { name: 'Conexão alheia', whatsappId: conn.id })).status).toBe(400)
  })

  test('a signed-out request is 401', async () => {
    const h = await createHarness()
    expect((await h.call('GET', '/contacts')).status).toBe(401)
    expect((await h.call('POST', '/contacts', { body: { name: 'Ana' } })).status).toBe(401)
  })
})

describe('contacts: numbers masked unless isTricked is enabled', () => {
  test('every answer masks the last four digits for a reader without isTricked', async () => {
    const h = await createHarness()
    setTricked(h, h.a.attendantId, 'disabled')
    const contact = makeContact(h, h.a.id, { name: 'Ana Maria', number: '5511987654321' })
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    expect((await admin.get(`/contacts/${contact.id}`)).body.number).toBe('5511987654321')
    expect((await agent.get(`/contacts/${contact.id}`)).body.number).toBe('551198765****')
    expect((await agent.get('/contacts')).body.contacts[0].number).toBe('551198765****')
    expect((await agent.get('/contacts?searchParam=ana')).body.contacts[0].number).toBe('551198765****')
    expect((await agent.get('/contacts/list')).body[0].number).toBe('551198765****')
    const created = await agent.post('/contacts', { name: 'Nova', number: '5521912345678' })
    expect(created.body.number).toBe('552191234****')
    const found = await agent.post('/contacts/findOrCreate', { name: 'Xu', number: '5511987654321' })
    expect(found.body.number).toBe('551198765****')
  })

  test('sending the masked number back keeps the real one; other asterisks are refused', async () => {
    const h = await createHarness()
    setTricked(h, h.a.attendantId, 'disabled')
    const contact = makeContact(h, h.a.id, { name: 'Ana', number: '5511987654321' })
    const agent = await h.as(h.a.attendant)
    const res = await agent.put(`/contacts/${contact.id}`, { name: 'Ana B', number: '551198765****' })
    expect(res.status).toBe(200)
    expect(res.body.number).toBe('551198765****')
    const stored = h.deps.sqlite.query('SELECT number FROM contacts WHERE id = ?').get(contact.id) as {
      number: string
    }
    expect(stored.number).toBe('5511987654321')
    const bad = await agent.put(`/contacts/${contact.id}`, { name: 'Ana B', number: '5511900****' })
    expect(bad.status).toBe(400)
    expect(fieldsOf(bad.body)).toEqual(['number'])
  })

  test('a name that is the number is masked like it: one contact, list, search, export, live', async () => {
    const h = await createHarness()
    setTricked(h, h.a.attendantId, 'disabled')
    // What the send API, a new number or an import without names write; and names that are not the number.
    const cases = [
      { name: '5511987654321', number: '5511987654321', shown: '551198765****' },
      { name: '+55 (11) 98765-1111', number: '5511987651111', shown: '+55 (11) 98765-****' },
      { name: '11 98765-2222', number: '5511987652222', shown: '11 98765-****' },
      { name: '551187653333', number: '5511987653333', shown: '55118765****' },
      { name: 'Ana 5511987654444', number: '5511987654444', shown: 'Ana 5511987654444' },
      { name: '5521900005555', number: '5511987655555', shown: '5521900005555' },
    ]
    const ids = cases.map((c) => makeContact(h, h.a.id, { name: c.name, number: c.number }).id)
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    const names = (list: { id: number; name: string }[]) =>
      Object.fromEntries(list.map((c) => [c.id, c.name]))
    const masked = Object.fromEntries(ids.map((id, i) => [id, cases[i]!.shown]))
    expect(names((await agent.get('/contacts')).body.contacts)).toEqual(masked)
    expect(names((await agent.get('/contacts/list')).body)).toEqual(masked)
    const searched = names((await agent.get('/contacts?searchParam=98765')).body.contacts)
    for (const [id, name] of Object.entries(searched)) expect(name).toBe(masked[id]!)
    expect(Object.keys(searched)).toHaveLength(6)
    expect((await agent.get(`/contacts/${ids[0]}`)).body.name).toBe('551198765****')
    // A reader who sees numbers sees the names as they are.
    expect((await admin.get(`/contacts/${ids[1]}`)).body.name).toBe('+55 (11) 98765-1111')
    // The export masks them as the list does.
    setTricked(h, h.a.adminId, 'disabled')
    const masker = await h.as(h.a.admin)
    const csv = String((await masker.get('/contacts/export?format=csv')).body)
    for (const hidden of ['4321', '1111', '2222', '3333']) expect(csv).not.toContain(hidden)
    expect(csv).toContain('551198765****')
    // Live: the masked flavour masks the name too; the #full one keeps it.
    const events = h.recordEvents()
    await masker.put(`/contacts/${ids[0]}`, { name: '5511987654321', email: 'novo@x.test' })
    const [event] = events.filter((e) => e.event === `company-${h.a.id}-contact`)
    expect(event).toMatchObject({
      data: { contact: { name: '551198765****', number: '551198765****' } },
      unmasked: { contact: { name: '5511987654321', number: '5511987654321' } },
    })
  })

  test('a masked reader cannot find a contact by its hidden digits', async () => {
    const h = await createHarness()
    setTricked(h, h.a.attendantId, 'disabled')
    makeContact(h, h.a.id, { name: 'Ana', number: '5511987654321' })
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    expect((await admin.get('/contacts?searchParam=4321')).body.count).toBe(1)
    expect((await agent.get('/contacts?searchParam=4321')).body.count).toBe(0)
    expect((await agent.get('/contacts?searchParam=54321')).body.count).toBe(0)
    expect((await agent.get('/contacts?searchParam=98765')).body.count).toBe(1)
    expect((await agent.get('/contacts?searchParam=21')).body.count).toBe(0)
    expect((await admin.get('/contacts?searchParam=21')).body.count).toBe(1)
  })

  test('contact live events carry the masked number and, for #full listeners, the whole one', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const events = h.recordEvents()
    await agent.post('/contacts', { name: 'Ao vivo', number: '5511987654321' })
    const [event] = events.filter((e) => e.event === `company-${h.a.id}-contact`)
    expect(event).toMatchObject({
      room: `company:${h.a.id}`,
      data: { action: 'update', contact: { number: '551198765****' } },
      unmasked: { action: 'update', contact: { number: '5511987654321' } },
    })
  })
})
