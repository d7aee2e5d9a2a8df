import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import { makeContact, makeTag, makeTicket } from '../contacts/testing'

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field)

describe('tags', () => {
  test('an admin creates, reads, renames and deletes a tag; every change is live to the company', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.admin)
    const events = h.recordEvents()
    const created = await agent.post('/tags', { name: 'Urgente', color: '#FF0000' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      name: 'Urgente',
      color: '#FF0000',
      kanban: 0,
      companyId: h.a.id,
      ticketsCount: 0,
    })
    const id = created.body.id
    expect((await agent.get(`/tags/${id}`)).body).toMatchObject({ id, name: 'Urgente' })
    const updated = await agent.put(`/tags/${id}`, { name: 'Muito urgente', kanban: 1 })
    expect(updated.body).toMatchObject({ name: 'Muito urgente', color: '#FF0000', kanban: 1 })
    expect((await agent.del(`/tags/${id}`)).status).toBe(200)
    expect((await agent.get(`/tags/${id}`)).status).toBe(404)
    const live = events.filter((e) => e.event === `company-${h.a.id}-tag`)
    expect(live.map((e) => [e.room, (e.data as { action: string }).action])).toEqual([
      [`company:${h.a.id}`, 'create'],
      [`company:${h.a.id}`, 'update'],
      [`company:${h.a.id}`, 'delete'],
    ])
    expect(live[2]!.data).toEqual({ action: 'delete', tagId: id })
  })

  test('a colour is optional; names are unique per company whatever the case', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    expect((await agent.post('/tags', { name: 'Sem cor' })).body.color).toBe('#3284FE')
    const dup = await agent.post('/tags', { name: 'SEM COR' })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toBe('ERR_TAG_NAME_ALREADY_EXISTS')
    const other = (await agent.post('/tags', { name: 'Outra' })).body
    const admin = await h.as(h.a.admin)
    expect((await admin.put(`/tags/${other.id}`, { name: 'sem cor' })).status).toBe(409)
    expect((await admin.put(`/tags/${other.id}`, { name: 'Outra' })).status).toBe(200)
    expect((await (await h.as(h.b.attendant)).post('/tags', { name: 'Sem cor' })).status).toBe(201)
  })

  test('an attendant adds ordinary tags and tags tickets, but renames, deletes and adds lanes never: 403', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const events = h.recordEvents()
    const tag = makeTag(h, h.a.id, 'Urgente', '#FF0000')
    const lane = makeTag(h, h.a.id, 'Em andamento', '#00FF00', 1)
    for (const res of [
      await agent.put(`/tags/${tag.id}`, { name: 'Renomeada' }),
      await agent.put(`/tags/${tag.id}`, { name: 'Urgente', kanban: 1 }),
      await agent.put(`/tags/${lane.id}`, { name: 'Feito' }),
      await agent.del(`/tags/${tag.id}`),
      await agent.del(`/tags/${lane.id}`),
      await agent.post('/tags', { name: 'Nova lane', kanban: 1 }),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_NO_PERMISSION')
    }
    expect(events.filter((e) => e.event === `company-${h.a.id}-tag`)).toEqual([])
    expect((await agent.get(`/tags/${tag.id}`)).body).toMatchObject({ name: 'Urgente', kanban: 0 })
    expect((await agent.get(`/tags/${lane.id}`)).body).toMatchObject({ name: 'Em andamento', kanban: 1 })
    expect((await agent.post('/tags', { name: 'Retorno' })).status).toBe(201)
    // Tagging a ticket stays every user's.
    const contact = makeContact(h, h.a.id)
    const ticket = makeTicket(h, h.a.id, { contactId: contact.id, userId: h.a.attendantId, status: 'open' })
    expect((await agent.put(`/ticket-tags/${ticket.id}/${tag.id}`)).status).toBe(200)
    // An admin does all of it.
    const admin = await h.as(h.a.admin)
    expect((await admin.post('/tags', { name: 'Nova lane', kanban: 1 })).status).toBe(201)
    expect((await admin.put(`/tags/${lane.id}`, { name: 'Feito' })).status).toBe(200)
    expect((await admin.del(`/tags/${tag.id}`)).status).toBe(200)
  })

  test.each([
    [{}, 'name'],
    [{ name: 'ab' }, 'name'],
    [{ name: '  ab  ' }, 'name'],
    [{ name: 'x'.repeat(51) }, 'name'],
    [{ name: 'Boa', color: 'red' }, 'color'],
    [{ name: 'Boa', kanban: 2 }, 'kanban'],
  ])('validation: %j answers 400 naming %s', async (body, field) => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/tags', body)
    expect(res.status).toBe(400)
    expect(fieldsOf(res.body)).toContain(field)
  })

  test('the page: 20 by name, search, kanban filter, ticketsCount; /tags/list has them all', async () => {
    const h = await createHarness()
    for (let i = 0; i < 25; i++)
      makeTag(h, h.a.id, `Tag ${String(i).padStart(2, '0')}`, '#111111', i % 5 === 0 ? 1 : 0)
    const lane = makeTag(h, h.a.id, 'Zeta lane', '#222222', 1)
    const contact = makeContact(h, h.a.id)
    const ticket = makeTicket(h, h.a.id, { contactId: contact.id })
    h.deps.sqlite.query('INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)').run(ticket.id, lane.id)
    makeTag(h, h.b.id, 'Tag de Beta')
    const agent = await h.as(h.a.attendant)
    const first = await agent.get('/tags/')
    expect(first.body).toMatchObject({ count: 26, hasMore: true })
    expect(first.body.tags).toHaveLength(20)
    expect(first.body.tags[0].name).toBe('Tag 00')
    const second = await agent.get('/tags?pageNumber=2')
    expect(second.body).toMatchObject({ count: 26, hasMore: false })
    expect(second.body.tags.at(-1)).toMatchObject({ name: 'Zeta lane', ticketsCount: 1 })
    expect((await agent.get('/tags?searchParam=ZETA')).body.tags.map((t: { id: number }) => t.id)).toEqual([
      lane.id,
    ])
    expect((await agent.get('/tags?kanban=1')).body.count).toBe(6)
    expect((await agent.get('/tags?kanban=0')).body.count).toBe(20)
    expect((await agent.get('/tags/list')).body).toHaveLength(26)
    expect((await agent.get('/tags/list?kanban=1')).body).toHaveLength(6)
    expect((await agent.get('/tags?kanban=2')).status).toBe(400)
  })

  test("another company's tag ids answer 404; lists never show them", async () => {
    const h = await createHarness()
    const foreign = makeTag(h, h.b.id, 'Beta')
    const agent = await h.as(h.a.admin)
    for (const res of [
      await agent.get(`/tags/${foreign.id}`),
      await agent.put(`/tags/${foreign.id}`, { name: 'Minha' }),
      await agent.del(`/tags/${foreign.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_TAG_FOUND')
    }
    expect((await agent.get('/tags')).body).toEqual({ tags: [], count: 0, hasMore: false })
    expect((await agent.get('/tags/list')).body).toEqual([])
    expect((await h.call('GET', '/tags')).status).toBe(401)
  })
})
