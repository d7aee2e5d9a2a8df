/** Junk, other companies' ids and the plan flag on every schedules route (the rest is schedules.test.ts). */
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { plans } from '../../db/schema'
import { samples } from '../../media/testing'
import { createHarness, type Harness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  expectUploadJunkRefused,
  mutations,
  png,
  uploadTo,
} from '../../test/probe'
import { makeContact } from '../tickets/testing'

async function setup() {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const contact = makeContact(h, h.a.id)
  const base = { body: 'Mensagem de teste', contactId: contact.id, sendAt: '2026-12-01T10:00:00Z' }
  const { id } = (await admin.post('/schedules', base)).body as { id: number }
  return { h, admin, contact, base, id }
}

const count = (h: Harness) =>
  h.deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM schedules').get()!.n

describe('schedules: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const { h, admin, base, id } = await setup()
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/schedules')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/schedules/${id}`)
    const full = {
      ...base,
      openTicket: 'enabled',
      ticketUserId: h.a.adminId,
      queueId: null,
      statusTicket: 'open',
      whatsappId: null,
      whatsappIds: null,
      repeat: { freq: 'weekly', weekdays: [1, 3], until: '2027-01-01' },
    }
    for (const body of mutations(full)) {
      const label = JSON.stringify(body).slice(0, 100)
      expectNo500(`POST ${label}`, await admin.post('/schedules', body))
      expectNo500(`PUT ${label}`, await admin.put(`/schedules/${id}`, body))
    }
    for (const repeat of mutations(full.repeat))
      expectNo500(JSON.stringify(repeat), await admin.post('/schedules', { ...base, repeat }))
    for (const weekdays of [[7], [-1], [1.5], [1, 2, 3, 4, 5, 6, 0, 1], ['1']])
      expectRefused(
        `weekdays ${weekdays}`,
        await admin.post('/schedules', { ...base, repeat: { ...full.repeat, weekdays } }),
        400,
      )
    expectRefused(
      'duplicate keys',
      await admin.post(
        '/schedules',
        `{"body":"Mensagem longa","body":5,"contactId":${base.contactId},"sendAt":"2026-12-01T10:00:00Z"}`,
      ),
      400,
    )
  })

  test('send times at the edges of the calendar are taken or refused, never a 500', async () => {
    const { admin, base } = await setup()
    for (const sendAt of [
      '0000-01-01T00:00:00Z',
      '0001-01-01 00:00',
      '1970-01-01T00:00:00Z',
      '9999-12-31 23:59:59',
      '9999-12-31T23:59:59Z',
      '275760-09-13T00:00:00Z',
      '2026-13-01 10:00',
      '2026-02-29 10:00',
      '2026-11-01T25:00:00Z',
      '2026-11-01T10:00:00+99:99',
      '2026-11-01T10:00:00.123456Z',
      '2026-11-01 10:00:00.999',
      '２０２６-11-01 10:00',
    ]) {
      expectNo500(sendAt, await admin.post('/schedules', { ...base, sendAt }))
      expectNo500(
        `${sendAt} monthly`,
        await admin.post('/schedules', { ...base, sendAt, repeat: { freq: 'monthly', until: '9999-12-31' } }),
      )
    }
    // A time without an offset keeps to the same years as an ISO instant.
    for (const sendAt of ['0001-01-01 00:00', '9999-12-31 23:59:59', '1969-12-31 20:00']) {
      const res = await admin.post('/schedules', { ...base, sendAt })
      expect(res.status).toBe(400)
      expect(res.body.fields?.[0]?.field).toBe('sendAt')
    }
    for (const until of ['0000-01-01', '9999-12-31', '2026-02-29', '2026-02-30'])
      expectNo500(until, await admin.post('/schedules', { ...base, repeat: { freq: 'daily', until } }))
  })

  test("another company's users, queues and connections are refused (400); its contact is 404", async () => {
    const { h, admin, base, id } = await setup()
    const before = count(h)
    const foreign = {
      ticketUserId: h.b.attendantId,
      queueId: h.makeQueue(h.b.id).id,
      whatsappId: h.makeConnection(h.b.id).id,
    }
    for (const [field, value] of Object.entries(foreign)) {
      for (const res of [
        await admin.post('/schedules', { ...base, [field]: value }),
        await admin.put(`/schedules/${id}`, { ...base, [field]: value }),
      ]) {
        expectRefused(field, res, 400)
        expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual([field])
      }
    }
    const viaList = await admin.post('/schedules', { ...base, whatsappIds: [foreign.whatsappId] })
    expectRefused('whatsappIds', viaList, 400)
    // The platform's super user is a user of another company too.
    expectRefused(
      'super user',
      await admin.post('/schedules', { ...base, ticketUserId: h.superAdmin.id }),
      400,
    )
    const theirContact = makeContact(h, h.b.id)
    expectRefused(
      'contact',
      await admin.put(`/schedules/${id}`, { ...base, contactId: theirContact.id }),
      404,
    )
    expect(count(h)).toBe(before)
    expect((await admin.get(`/schedules/${id}`)).body.contactId).toBe(base.contactId)
  })

  test("another company's schedule: the upload is 404 too, and nothing is stored", async () => {
    const { h, id } = await setup()
    const b = await h.as(h.b.attendant)
    const res = await uploadTo(h, `/schedules/${id}/media-upload`, b.token, [{ value: png() }])
    expectRefused('upload', res, 404)
    expect(res.body.error).toBe('ERR_NO_SCHEDULE_FOUND')
    expect(existsSync(join(h.deps.mediaDir, String(h.b.id)))).toBe(false)
    expect(existsSync(join(h.deps.mediaDir, String(h.a.id)))).toBe(false)
  })

  test('junk ids answer 404 on every route; junk queries 400', async () => {
    const { h, admin } = await setup()
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/schedules/:id'],
        ['PUT', '/schedules/:id'],
        ['DELETE', '/schedules/:id'],
        ['POST', '/schedules/:id/retry'],
        ['POST', '/schedules/:id/media-upload'],
        ['DELETE', '/schedules/:id/media-upload'],
      ],
      'ERR_NO_SCHEDULE_FOUND',
    )
    for (const q of [
      'contactId=-1',
      'contactId=abc',
      'contactId=1.5',
      'contactId=99999999999999999999',
      'pageNumber=0',
    ])
      expectRefused(q, await admin.get(`/schedules?${q}`), 400)
  })

  test('multipart: no file, two files, a string, a non-image, JSON: 4xx, nothing attached', async () => {
    const { h, admin, id } = await setup()
    const path = `/schedules/${id}/media-upload`
    await expectUploadJunkRefused(h, path, admin.token)
    const pdf = new File([samples.pdf()], 'a.png', { type: 'image/png' })
    expectRefused('pdf', await uploadTo(h, path, admin.token, [{ value: pdf }]), 415)
    expectRefused('json', await admin.post(path, { file: 'x' }), 400)
    expect((await admin.get(`/schedules/${id}`)).body.mediaPath).toBeNull()
    // A name with a path in it is only ever a display name, its last segment.
    for (const [name, shown] of [
      ['../../x.png', 'x.png'],
      ['..\\..\\y.png', 'y.png'],
      ['a/', 'image.png'],
    ]) {
      const ok = await uploadTo(h, path, admin.token, [{ value: png(name) }])
      expect(ok.status).toBe(200)
      expect(ok.body.mediaName).toBe(shown)
    }
  })

  test('the plan flag useSchedules off refuses every route and spelling (403)', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const plan = h.db
      .insert(plans)
      .values({ name: 'Sem agenda', useSchedules: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Agenda', { planId: plan.id })
    const user = h.makeUser(company.id)
    const client = await h.as(user.email)
    const contact = makeContact(h, company.id)
    h.deps.sqlite
      .query(
        `INSERT INTO schedules (company_id, body, contact_id, send_at, created_at, updated_at)
         VALUES (?, 'Mensagem antiga', ?, ?, ?, ?)`,
      )
      .run(company.id, contact.id, now + 60_000, now, now)
    const id = count(h)
    const body = { body: 'Mensagem nova', contactId: contact.id, sendAt: '2026-12-01T10:00:00Z' }
    for (const [method, path] of [
      ['GET', '/schedules'],
      ['GET', '/schedules/'],
      ['GET', `/schedules/${id}`],
      ['GET', `/schedules/${id}/`],
      ['POST', '/schedules'],
      ['PUT', `/schedules/${id}`],
      ['DELETE', `/schedules/${id}`],
      ['POST', `/schedules/${id}/retry`],
      ['DELETE', `/schedules/${id}/media-upload`],
    ] as const) {
      const res = await h.call(method, path, {
        token: client.token,
        body: method === 'GET' || method === 'DELETE' ? undefined : body,
      })
      expectRefused(`${method} ${path}`, res, 403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
    const up = await uploadTo(h, `/schedules/${id}/media-upload`, client.token, [{ value: png() }])
    expectRefused('upload', up, 403)
    expect(count(h)).toBe(1)
  })
})
