import { describe, expect, test } from 'bun:test'
import { plans } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { connected } from '../messages/testing'
import { makeContact, makeTicket } from '../tickets/testing'

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
])

async function setup() {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const contact = makeContact(h, h.a.id, { name: 'Maria' })
  return { h, admin, contact }
}

function iso(h: Harness, aheadMs: number) {
  return new Date(h.clock.now() + aheadMs).toISOString()
}

describe('schedules API', () => {
  test('create, read, list with search and paging, update, delete', async () => {
    const { h, admin, contact } = await setup()
    const events = h.recordEvents()
    const res = await admin.post('/schedules', {
      body: 'Lembrete da consulta amanhã às 10h',
      contactId: contact.id,
      sendAt: iso(h, 3_600_000),
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      body: 'Lembrete da consulta amanhã às 10h',
      contactId: contact.id,
      contact: { id: contact.id, name: 'Maria' },
      status: 'PENDENTE',
      sentAt: null,
      openTicket: 'enabled',
      statusTicket: 'closed',
      sendAt: '2026-11-21T13:00:00.000Z',
    })
    expect(events.some((e) => e.event === `company-${h.a.id}-schedule`)).toBe(true)
    const id = res.body.id
    expect((await admin.get(`/schedules/${id}`)).body.id).toBe(id)
    const list = await admin.get('/schedules/?searchParam=maria&pageNumber=1')
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ count: 1, hasMore: false })
    expect((await admin.get('/schedules?searchParam=nada')).body.count).toBe(0)
    // A wall-clock time without offset is read in the company's zone (America/Sao_Paulo, UTC-3).
    const put = await admin.put(`/schedules/${id}`, {
      body: 'Outro texto',
      contactId: contact.id,
      sendAt: '2026-11-22 09:30:00',
    })
    expect(put.status).toBe(200)
    expect(put.body.sendAt).toBe('2026-11-22T12:30:00.000Z')
    expect((await admin.del(`/schedules/${id}`)).status).toBe(200)
    expect((await admin.get(`/schedules/${id}`)).status).toBe(404)
  })

  test('not for a contact whose active ticket the user may not open: 409 naming its holder, nothing saved', async () => {
    const { h, admin, contact } = await setup()
    const mine = h.makeQueue(h.a.id, { name: 'Suporte' })
    const theirs = h.makeQueue(h.a.id, { name: 'Vendas' })
    h.addToQueue(h.a.attendantId, mine.id)
    const seller = h.makeUser(h.a.id, { name: 'Carlos', email: 'carlos@alpha.test' })
    const { connection } = await connected(h, h.a.id)
    makeTicket(h, h.a.id, {
      contactId: contact.id,
      whatsappId: connection.id,
      status: 'open',
      queueId: theirs.id,
      userId: seller.id,
      lastMessage: 'conversa de Vendas',
    })
    const agent = await h.as(h.a.attendant)
    const count = () => h.deps.sqlite.query('SELECT count(*) AS n FROM schedules').get()
    const input = { body: 'Lembrete da consulta', contactId: contact.id, sendAt: iso(h, 3_600_000) }
    const res = await agent.post('/schedules', input)
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('ERR_OTHER_OPEN_TICKET')
    expect(JSON.parse(res.body.error)).toEqual({
      userId: seller.id,
      user: { id: seller.id, name: 'Carlos' },
      queueId: theirs.id,
      queue: { id: theirs.id, name: 'Vendas', color: theirs.color },
    })
    expect(JSON.stringify(res.body)).not.toContain('conversa de Vendas')
    // Naming the connection explicitly changes nothing.
    expect((await agent.post('/schedules', { ...input, whatsappId: connection.id })).status).toBe(409)
    expect(count()).toEqual({ n: 0 })
    // The admin may; an attendant's edit of that schedule is refused and changes nothing.
    const ok = await admin.post('/schedules', input)
    expect(ok.status).toBe(201)
    const edit = await agent.put(`/schedules/${ok.body.id}`, { ...input, body: 'Texto trocado' })
    expect(edit.status).toBe(409)
    expect(edit.body.code).toBe('ERR_OTHER_OPEN_TICKET')
    expect((await admin.get(`/schedules/${ok.body.id}`)).body.body).toBe('Lembrete da consulta')
    // Another contact, without an active ticket, is scheduled as ever.
    const other = makeContact(h, h.a.id, { name: 'Bruno' })
    expect((await agent.post('/schedules', { ...input, contactId: other.id })).status).toBe(201)
  })

  test('a contact name that is the number is masked for readers who may not see numbers', async () => {
    const { h, admin } = await setup()
    h.deps.sqlite.query("UPDATE users SET is_tricked = 'disabled' WHERE id = ?").run(h.a.attendantId)
    h.deps.sqlite.query("UPDATE users SET is_tricked = 'enabled' WHERE id = ?").run(h.a.adminId)
    const contact = makeContact(h, h.a.id, { name: '5511987654321', number: '5511987654321' })
    const res = await admin.post('/schedules', {
      body: 'Lembrete',
      contactId: contact.id,
      sendAt: iso(h, 60_000),
    })
    expect(res.body.contact.name).toBe('5511987654321')
    const agent = await h.as(h.a.attendant)
    expect((await agent.get(`/schedules/${res.body.id}`)).body.contact.name).toBe('551198765****')
    expect((await agent.get('/schedules')).body.schedules[0].contact.name).toBe('551198765****')
    // Nor is it found by its hidden digits.
    expect((await agent.get('/schedules?searchParam=4321')).body.count).toBe(0)
    expect((await admin.get('/schedules?searchParam=4321')).body.count).toBe(1)
  })

  test('the company time zone setting: validated against Intl, and wall times are read in it', async () => {
    const { admin, contact } = await setup()
    expect((await admin.put('/settings/timezone', { value: 'Mars/Olympus' })).status).toBe(400)
    expect((await admin.put('/settings/timezone', { value: 'Europe/Lisbon' })).status).toBe(200)
    const res = await admin.post('/schedules', {
      body: 'Bom dia Lisboa',
      contactId: contact.id,
      sendAt: '2026-11-22 09:00',
    })
    expect(res.body.sendAt).toBe('2026-11-22T09:00:00.000Z')
  })

  test('validation: short body, missing contact or sendAt, bad values are 4xx, never 500', async () => {
    const { h, admin, contact } = await setup()
    const short = await admin.post('/schedules', { body: 'oi ', contactId: contact.id, sendAt: iso(h, 1000) })
    expect(short.status).toBe(400)
    expect(short.body.fields).toEqual([{ field: 'body', message: 'Mensagem muito curta' }])
    const bad: unknown[] = [
      { body: 'Mensagem longa', sendAt: iso(h, 1000) },
      { body: 'Mensagem longa', contactId: contact.id },
      { body: 'Mensagem longa', contactId: contact.id, sendAt: 'amanhã' },
      { body: 'Mensagem longa', contactId: contact.id, sendAt: '2026-02-30 10:00' },
      { body: 'Mensagem longa', contactId: 'x', sendAt: iso(h, 1000) },
      { body: 'Mensagem longa', contactId: contact.id, sendAt: iso(h, 1000), openTicket: 'maybe' },
      { body: 'Mensagem longa', contactId: contact.id, sendAt: iso(h, 1000), queueId: 999999 },
      {
        body: 'Mensagem longa',
        contactId: contact.id,
        sendAt: iso(h, 1000),
        repeat: { freq: 'weekly', until: '2026-12-01' },
      },
      {
        body: 'Mensagem longa',
        contactId: contact.id,
        sendAt: iso(h, 1000),
        repeat: { freq: 'daily', until: '2026-01-01' },
      },
      {
        body: 'Mensagem longa',
        contactId: contact.id,
        sendAt: iso(h, 1000),
        repeat: { freq: 'hourly', until: '2026-12-01' },
      },
      [],
      'null',
      { body: 12, contactId: contact.id, sendAt: iso(h, 1000) },
    ]
    for (const body of bad) {
      const res = await admin.post('/schedules', body)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    }
    for (const path of ['/schedules/abc', '/schedules/0', '/schedules/01', '/schedules/99999999'])
      expect((await admin.get(path)).status).toBe(404)
    expect((await admin.get('/schedules?pageNumber=abc')).status).toBe(400)
    // The contact of another company is not found.
    const other = makeContact(h, h.b.id)
    const res = await admin.post('/schedules', {
      body: 'Mensagem longa',
      contactId: other.id,
      sendAt: iso(h, 1000),
    })
    expect(res.status).toBe(404)
  })

  test("contactId narrows the list to that contact's (the contact drawer); another company's contact lists none", async () => {
    const { h, admin, contact } = await setup()
    const other = makeContact(h, h.a.id, { name: 'João' })
    const foreign = makeContact(h, h.b.id, { name: 'Bia' })
    const attendant = await h.as(h.a.attendant)
    for (const [who, body] of [
      [contact, 'Lembrete da consulta'],
      [other, 'Promoção de novembro'],
    ] as const)
      await admin.post('/schedules', { body, contactId: who.id, sendAt: iso(h, 3_600_000) })
    const adminB = await h.as(h.b.admin)
    await adminB.post('/schedules', {
      body: 'De outra empresa',
      contactId: foreign.id,
      sendAt: iso(h, 3_600_000),
    })
    const mine = await attendant.get(`/schedules/?contactId=${contact.id}`)
    expect(mine.status).toBe(200)
    expect(mine.body.schedules.map((s: { body: string }) => s.body)).toEqual(['Lembrete da consulta'])
    const theirs = await admin.get(`/schedules/?contactId=${foreign.id}`)
    expect(theirs.status).toBe(200)
    expect(theirs.body.schedules).toEqual([])
  })

  test("another company's schedule is not found (404) for every verb", async () => {
    const { h, admin, contact } = await setup()
    const id = (
      await admin.post('/schedules', { body: 'Mensagem de A', contactId: contact.id, sendAt: iso(h, 60_000) })
    ).body.id
    const b = await h.as(h.b.admin)
    const bContact = makeContact(h, h.b.id)
    for (const res of [
      await b.get(`/schedules/${id}`),
      await b.put(`/schedules/${id}`, {
        body: 'Mensagem de B',
        contactId: bContact.id,
        sendAt: iso(h, 60_000),
      }),
      await b.del(`/schedules/${id}`),
      await b.post(`/schedules/${id}/retry`),
      await b.del(`/schedules/${id}/media-upload`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_SCHEDULE_FOUND')
    }
    expect((await b.get('/schedules')).body.count).toBe(0)
    expect((await admin.get(`/schedules/${id}`)).status).toBe(200)
  })

  test('the plan flag useSchedules off refuses every call (403)', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const basic = h.db
      .insert(plans)
      .values({ name: 'Sem agendamentos', useSchedules: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Agenda Ltda', { planId: basic.id })
    const admin = h.makeUser(company.id, { profile: 'admin' })
    const client = await h.as(admin.email)
    const contact = makeContact(h, company.id)
    for (const res of [
      await client.get('/schedules'),
      await client.get('/schedules/1'),
      await client.post('/schedules', {
        body: 'Mensagem longa',
        contactId: contact.id,
        sendAt: iso(h, 1000),
      }),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
  })

  test('attachment: png or jpeg only; the upload replaces, the delete takes it away', async () => {
    const { h, admin, contact } = await setup()
    const id = (
      await admin.post('/schedules', { body: 'Com imagem', contactId: contact.id, sendAt: iso(h, 60_000) })
    ).body.id
    const upload = (bytes: Uint8Array, name: string, type: string) => {
      const form = new FormData()
      form.append('file', new File([bytes as unknown as BlobPart], name, { type }))
      return h.app.request(`/api/schedules/${id}/media-upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}` },
        body: form,
      })
    }
    const ok = await upload(PNG, 'foto.png', 'image/png')
    expect(ok.status).toBe(200)
    const dto = (await ok.json()) as { mediaName: string; mediaPath: string; mediaUrl: string }
    expect(dto.mediaName).toBe('foto.png')
    expect(dto.mediaUrl).toContain('/api/media/')
    const pdf = await upload(new TextEncoder().encode('%PDF-1.4\n%\n'), 'doc.pdf', 'application/pdf')
    expect(pdf.status).toBe(415)
    const junk = await upload(new Uint8Array([1, 2, 3, 4]), 'x.png', 'image/png')
    expect(junk.status).toBeGreaterThanOrEqual(400)
    expect(junk.status).toBeLessThan(500)
    const removed = await admin.del(`/schedules/${id}/media-upload`)
    expect(removed.status).toBe(200)
    expect(removed.body.mediaPath).toBeNull()
  })

  test('saving a schedule wakes the runner the jobs started, through the context (the service imports no runner)', async () => {
    const { h, admin, contact } = await setup()
    await connected(h, h.a.id)
    await h.deps.jobs.start(['schedules']) // nothing pending: the runner sleeps its longest
    const id = (
      await admin.post('/schedules', { body: 'Acordou', contactId: contact.id, sendAt: iso(h, 1000) })
    ).body.id
    await h.clock.tick(1000) // only a woken runner has planned for this one
    expect((await admin.get(`/schedules/${id}`)).body.status).toBe('ENVIADA')
    await h.deps.jobs.stop()
  })

  test('a sent schedule is locked: no update, no new attachment', async () => {
    const { h, admin, contact } = await setup()
    await connected(h, h.a.id)
    const id = (
      await admin.post('/schedules', { body: 'Vai agora sim', contactId: contact.id, sendAt: iso(h, 1000) })
    ).body.id
    const { scheduleRunner } = await import('./runner')
    const runner = scheduleRunner(h.deps)
    await runner.start()
    await h.clock.tick(1000)
    expect((await admin.get(`/schedules/${id}`)).body.status).toBe('ENVIADA')
    const put = await admin.put(`/schedules/${id}`, {
      body: 'Mudou o texto',
      contactId: contact.id,
      sendAt: iso(h, 5000),
    })
    expect(put.status).toBe(400)
    expect(put.body.fields[0].field).toBe('sentAt')
    runner.stop()
  })
})
