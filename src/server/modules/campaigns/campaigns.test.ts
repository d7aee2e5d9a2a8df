/** The campaigns API: editability, status calls, media, gating, tenancy and junk (the engine: runner.test.ts). */
import { describe, expect, test } from 'bun:test'
import { plans } from '../../db/schema'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectUploadJunkRefused,
  mutations,
  png,
  uploadTo,
} from '../../test/probe'
import { HOUR, makeContactList, people, SEC } from './testing'

async function setup() {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const connection = h.makeConnection(h.a.id)
  const list = makeContactList(h, h.a.id, people(2))
  const base = { name: 'Natal', message1: 'Olá {nome}', whatsappId: connection.id, contactListId: list }
  return { h, admin, connection, list, base }
}

describe('campaigns API', () => {
  test('create, list with search and paging, read, update, delete; live events to the admins', async () => {
    const { h, admin, base } = await setup()
    const events = h.recordEvents()
    const draft = await admin.post('/campaigns', { name: 'Rascunho', scheduledAt: '', tagListId: 'Nenhuma' })
    expect(draft.status).toBe(201)
    expect(draft.body).toMatchObject({
      status: 'INATIVA',
      scheduledAt: null,
      tagListId: null,
      editable: true,
    })
    const scheduled = await admin.post('/campaigns', { ...base, scheduledAt: '2026-11-22 10:00:00' })
    expect(scheduled.status).toBe(201)
    // 10:00 in São Paulo is 13:00Z.
    expect(scheduled.body).toMatchObject({ status: 'PROGRAMADA', scheduledAt: '2026-11-22T13:00:00.000Z' })
    expect(scheduled.body.contactList.id).toBe(base.contactListId)
    const list = await admin.get('/campaigns/?searchParam=nat')
    expect(list.body).toMatchObject({ count: 1, hasMore: false })
    expect(list.body.records[0].id).toBe(scheduled.body.id)
    expect((await admin.get('/campaigns/')).body.count).toBe(2)
    const updated = await admin.put(`/campaigns/${draft.body.id}`, { name: 'Rascunho 2', message2: 'B' })
    expect(updated.body).toMatchObject({ name: 'Rascunho 2', message2: 'B' })
    expect((await admin.del(`/campaigns/${draft.body.id}`)).status).toBe(200)
    expect((await admin.get(`/campaigns/${draft.body.id}`)).status).toBe(404)
    const live = events.filter((e) => e.event === `company-${h.a.id}-campaign`)
    expect(live.map((e) => (e.data as { action: string }).action)).toEqual([
      'create',
      'create',
      'update',
      'delete',
    ])
    expect(live.every((e) => e.room === `company:${h.a.id}:admins`)).toBe(true)
  })

  test("a draft's connection may be sent as the spec's client sends none: false, '' or null", async () => {
    const { admin, base } = await setup()
    for (const none of [false, '', null]) {
      const res = await admin.post('/campaigns', { ...base, whatsappId: none })
      expect({ none, status: res.status }).toEqual({ none, status: 201 })
      expect(res.body.whatsappId).toBeNull()
    }
    expect((await admin.post('/campaigns', { ...base, whatsappId: true })).status).toBe(400)
  })

  test('scheduling needs a connection, an audience and a message', async () => {
    const { admin, base } = await setup()
    const at = '2026-12-01 10:00:00'
    for (const [field, body] of [
      ['whatsappId', { ...base, whatsappId: null, scheduledAt: at }],
      ['contactListId', { ...base, contactListId: null, scheduledAt: at }],
      ['message1', { ...base, message1: '  ', scheduledAt: at }],
      ['confirmationMessage1', { ...base, confirmation: true, scheduledAt: at }],
      ['scheduledAt', { ...base, scheduledAt: 'amanhã' }],
    ] as const) {
      const res = await admin.post('/campaigns', body)
      expect({ field, status: res.status }).toEqual({ field, status: 400 })
      expect(res.body.fields[0].field).toBe(field)
    }
  })

  test('editable only when inactive, or scheduled more than 1 hour ahead (exactly 1 hour is not)', async () => {
    const { h, admin, base } = await setup()
    const start = h.clock.now() + 2 * HOUR
    const res = await admin.post('/campaigns', { ...base, scheduledAt: new Date(start).toISOString() })
    const id = res.body.id
    expect(res.body.editable).toBe(true)
    h.clock.set(start - HOUR - SEC)
    const ok = await (await h.as(h.a.admin)).put(`/campaigns/${id}`, {
      ...base,
      name: 'Natal 2',
      scheduledAt: new Date(start).toISOString(),
    })
    expect(ok.status).toBe(200)
    h.clock.set(start - HOUR)
    const a2 = await h.as(h.a.admin)
    expect((await a2.get(`/campaigns/${id}`)).body.editable).toBe(false)
    const refused = await a2.put(`/campaigns/${id}`, { ...base, name: 'Natal 3' })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE')
    expect((await uploadTo(h, `/campaigns/${id}/media-upload`, a2.token, [{ value: png() }])).status).toBe(
      409,
    )
    expect((await a2.del(`/campaigns/${id}/media-upload`)).status).toBe(409)
  })

  test('status calls refuse what the machine does not allow', async () => {
    const { admin, base } = await setup()
    const draft = (await admin.post('/campaigns', base)).body
    expect((await admin.post(`/campaigns/${draft.id}/restart`)).body.error).toBe(
      'ERR_CAMPAIGN_INVALID_TRANSITION',
    )
    expect((await admin.post(`/campaigns/${draft.id}/cancel`)).status).toBe(409)
    expect((await admin.post(`/campaigns/${draft.id}/resume`)).status).toBe(409)
    const scheduled = (await admin.post('/campaigns', { ...base, scheduledAt: '2026-12-01 10:00:00' })).body
    const cancelled = await admin.post(`/campaigns/${scheduled.id}/cancel`)
    expect(cancelled.body.status).toBe('CANCELADA')
    expect((await admin.post(`/campaigns/${scheduled.id}/cancel`)).body.error).toBe(
      'ERR_CAMPAIGN_INVALID_TRANSITION',
    )
  })

  test('a cancelled campaign can still be saved (spec 2): a draft without a time, scheduled again with one', async () => {
    const { admin, base } = await setup()
    const scheduled = (await admin.post('/campaigns', { ...base, scheduledAt: '2026-12-01 10:00:00' })).body
    const cancelled = (await admin.post(`/campaigns/${scheduled.id}/cancel`)).body
    expect(cancelled).toMatchObject({ status: 'CANCELADA', editable: true })
    const draft = await admin.put(`/campaigns/${scheduled.id}`, { ...base, name: 'Natal 2', scheduledAt: '' })
    expect(draft.status).toBe(200)
    expect(draft.body).toMatchObject({ name: 'Natal 2', status: 'INATIVA', scheduledAt: null })
    await admin.post(`/campaigns/${scheduled.id}/cancel`).then((r) => expect(r.status).toBe(409))
    const again = await admin.put(`/campaigns/${scheduled.id}`, {
      ...base,
      scheduledAt: '2026-12-02 09:00:00',
    })
    expect(again.body).toMatchObject({ status: 'PROGRAMADA', scheduledAt: '2026-12-02T12:00:00.000Z' })
    expect((await admin.post(`/campaigns/${scheduled.id}/cancel`)).body.status).toBe('CANCELADA')
    // Saving still checks what scheduling needs.
    const bad = await admin.put(`/campaigns/${scheduled.id}`, {
      ...base,
      whatsappId: null,
      scheduledAt: '2026-12-02 09:00:00',
    })
    expect(bad.status).toBe(400)
  })

  test('media: upload and remove the attachment', async () => {
    const { h, admin, base } = await setup()
    const id = (await admin.post('/campaigns', base)).body.id
    const up = await uploadTo(h, `/campaigns/${id}/media-upload`, admin.token, [{ value: png('oferta.png') }])
    expect(up.status).toBe(200)
    expect(up.body.mediaName).toBe('oferta.png')
    expect(up.body.mediaUrl).toContain('/api/media/')
    await expectUploadJunkRefused(h, `/campaigns/${id}/media-upload`, admin.token)
    const del = await admin.del(`/campaigns/${id}/media-upload`)
    expect(del.body).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null })
  })

  test('admins only, plan flag useCampaigns, other companies 404, junk never a 500', async () => {
    const { h, admin, base } = await setup()
    const id = (await admin.post('/campaigns', base)).body.id
    const attendant = await h.as(h.a.attendant)
    expect((await attendant.get('/campaigns/')).status).toBe(403)
    expect((await attendant.post('/campaigns', base)).status).toBe(403)
    const other = await h.as(h.b.admin)
    for (const [method, path] of [
      ['GET', `/campaigns/${id}`],
      ['PUT', `/campaigns/${id}`],
      ['DELETE', `/campaigns/${id}`],
      ['POST', `/campaigns/${id}/cancel`],
      ['POST', `/campaigns/${id}/restart`],
      ['POST', `/campaigns/${id}/resume`],
      ['DELETE', `/campaigns/${id}/media-upload`],
    ] as const) {
      const res = await h.call(method, path, {
        token: other.token,
        body: method === 'PUT' ? { name: 'Roubo' } : undefined,
      })
      expect({ method, path, status: res.status, error: res.body.error }).toEqual({
        method,
        path,
        status: 404,
        error: 'ERR_NO_CAMPAIGN_FOUND',
      })
    }
    expect((await other.get('/campaigns/')).body.count).toBe(0)
    // Another company's connection or list cannot be used.
    const foreign = h.makeConnection(h.b.id)
    expect((await admin.post('/campaigns', { ...base, whatsappId: foreign.id })).status).toBe(400)
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/campaigns/:id'],
        ['PUT', '/campaigns/:id'],
        ['DELETE', '/campaigns/:id'],
        ['POST', '/campaigns/:id/cancel'],
        ['POST', '/campaigns/:id/restart'],
        ['POST', '/campaigns/:id/resume'],
      ],
      'ERR_NO_CAMPAIGN_FOUND',
    )
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/campaigns')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/campaigns/${id}`)
    const full = {
      ...base,
      confirmation: true,
      confirmationMessage1: 'ok?',
      scheduledAt: '2026-12-01 10:00:00',
      tagListId: null,
      fileListId: null,
    }
    for (const body of mutations(full)) {
      const label = JSON.stringify(body).slice(0, 100)
      expectNo500(`POST ${label}`, await admin.post('/campaigns', body))
      expectNo500(`PUT ${label}`, await admin.put(`/campaigns/${id}`, body))
    }
    for (const q of [
      '?pageNumber=0',
      '?pageNumber=abc',
      '?searchParam=%00',
      `?searchParam=${'x'.repeat(300)}`,
    ])
      expectNo500(q, await admin.get(`/campaigns/${q}`))
    h.db.update(plans).set({ useCampaigns: false }).run()
    const gated = await (await h.as(h.a.admin)).get('/campaigns/')
    expect(gated.status).toBe(403)
    expect(gated.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
  })
})
