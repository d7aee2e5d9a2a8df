/** Junk to every helps route: a 4xx with an error code, never a 500 (the rest is helps.test.ts). */
import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
} from '../../test/probe'

describe('help videos: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const { id } = (await root.post('/helps', { title: 'base', video: 'dQw4w9WgXcQ' })).body
    await expectJunkBodiesRefused(h, root.token, 'POST', '/helps')
    await expectJunkBodiesRefused(h, root.token, 'PUT', `/helps/${id}`)
    const base = { title: 'probe', description: 'texto', video: 'https://youtu.be/dQw4w9WgXcQ' }
    for (const body of mutations(base)) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await root.post('/helps', body))
      expectNo500(`PUT ${label}`, await root.put(`/helps/${id}`, body))
    }
    // Whatever got through is a plain id: no link, markup or control character is ever stored as a video.
    for (const help of (await root.get('/helps/list')).body)
      expect({ video: help.video, ok: /^[A-Za-z0-9_-]{11}$/.test(help.video) }).toEqual({
        video: help.video,
        ok: true,
      })
    const dup = await root.post('/helps', '{"title":"dup","video":"dQw4w9WgXcQ","video":7}')
    expectRefused('duplicate keys', dup, 400)
    expect(dup.body.fields.map((f: { field: string }) => f.field)).toEqual(['video'])
    for (const title of ['👋🏽\u202e', '\u0000', 'Ação & <b>negrito</b>']) {
      const res = await root.post('/helps', { title, video: 'dQw4w9WgXcQ' })
      expectNo500(title, res)
      if (res.status === 201) expect(res.body.title).toBe(title)
    }
  })

  test('junk ids answer 404 on every route', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    await expectJunkIds404(
      h,
      root.token,
      [
        ['PUT', '/helps/:id'],
        ['DELETE', '/helps/:id'],
      ],
      'ERR_NO_HELP_FOUND',
    )
  })

  test('junk queries are 400; unknown parameters are ignored', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    for (const q of [
      'pageNumber=',
      'pageNumber=NaN',
      'pageNumber=1.5',
      'pageNumber=100001',
      'searchParam=%ZZ',
    ])
      expectNo500(q, await agent.get(`/helps?${q}`))
    for (const q of [
      'pageNumber=NaN',
      'pageNumber=1.5',
      'pageNumber=100001',
      `searchParam=${'x'.repeat(201)}`,
    ])
      expectRefused(q, await agent.get(`/helps?${q}`), 400)
    expect((await agent.get('/helps/list?companyId=2&pageNumber=x')).status).toBe(200)
    expect((await agent.get('/helps?companyId=2')).status).toBe(200)
  })
})
