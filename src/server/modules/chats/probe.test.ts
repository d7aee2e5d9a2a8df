/** Junk to every chats route: a 4xx with an error code, never a 500 (the rest is chats.test.ts). */
import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
} from '../../test/probe'

describe('chats: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { id } = (await admin.post('/chats', { title: 'base', users: [h.a.attendantId] })).body
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/chats')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/chats/${id}`)
    await expectJunkBodiesRefused(h, admin.token, 'POST', `/chats/${id}/messages`)
    const base = { title: 'probe', users: [h.a.attendantId] }
    for (const body of mutations(base)) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await admin.post('/chats', body))
      expectNo500(`PUT ${label}`, await admin.put(`/chats/${id}`, body))
    }
    for (const body of mutations({ message: 'olá 👋🏽' })) {
      const label = JSON.stringify(body).slice(0, 80)
      const res = await admin.post(`/chats/${id}/messages`, body)
      expectNo500(`message ${label}`, res)
    }
    for (const body of mutations({ userId: h.a.attendantId }))
      expectNo500(`read ${JSON.stringify(body).slice(0, 80)}`, await admin.post(`/chats/${id}/read`, body))
    for (const raw of ['[]', '"x"', '{', '1'])
      expectRefused(`read ${raw}`, await admin.post(`/chats/${id}/read`, raw), 400)
    // Member lists: huge, nested, unicode and id edges.
    for (const users of [
      Array.from({ length: 501 }, (_, i) => i + 1),
      [[h.a.attendantId]],
      [{ id: { id: h.a.attendantId } }],
      ['١'],
      [2 ** 53],
      [-1],
    ])
      expectRefused(
        `users ${JSON.stringify(users).slice(0, 40)}`,
        await admin.post('/chats', { title: 'x', users }),
        400,
      )
    // Unicode titles are kept as typed.
    const uni = await admin.post('/chats', { title: 'Ação 👋🏽 \u202e', users: [h.a.attendantId] })
    expect(uni.status).toBe(201)
    expect(uni.body.title).toBe('Ação 👋🏽 \u202e')
    // Duplicate keys: JSON's last one counts.
    const dup = await admin.post('/chats', `{"title":"a","title":7,"users":[${h.a.attendantId}]}`)
    expectRefused('duplicate keys', dup, 400)
  })

  test('junk ids and uuids answer 404 on every route', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/chats/:id'],
        ['PUT', '/chats/:id'],
        ['DELETE', '/chats/:id'],
        ['POST', '/chats/:id/read'],
        ['GET', '/chats/:id/messages'],
        ['POST', '/chats/:id/messages'],
      ],
      'ERR_NO_CHAT_FOUND',
    )
    for (const uuid of [
      'x',
      '1',
      '%00',
      '00000000-0000-4000-8000-00000000000g',
      '{}',
      '00000000-0000-4000-8000-000000000000',
    ])
      expectRefused(uuid, await admin.get(`/chats/u/${uuid}`), 404)
  })

  test('junk queries are 400; unknown parameters are ignored', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { id } = (await admin.post('/chats', { title: 'q', users: [h.a.attendantId] })).body
    for (const q of [
      'pageNumber=NaN',
      'pageNumber=1.5',
      'pageNumber=0',
      'pageNumber=100001',
      `searchParam=${'x'.repeat(201)}`,
    ])
      expectRefused(q, await admin.get(`/chats?${q}`), 400)
    for (const q of ['pageNumber=NaN', 'pageNumber=-1', 'pageNumber=100001'])
      expectRefused(q, await admin.get(`/chats/${id}/messages?${q}`), 400)
    for (const q of ['searchParam=%ZZ', 'pageNumber=', 'searchParam=%F0%9F%91%8B'])
      expectNo500(q, await admin.get(`/chats?${q}`))
    expect((await admin.get('/chats?companyId=2&userId=1')).status).toBe(200)
    expect((await admin.get(`/chats/${id}/messages?searchParam=x`)).status).toBe(200)
  })
})
