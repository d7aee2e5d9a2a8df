/** Junk to every announcements route: a 4xx with an error code, never a 500 (the rest is announcements.test.ts). */
import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
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

describe('announcements: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const su = await h.as(h.superAdmin.email)
    const { id } = (await su.post('/announcements', { title: 'base', text: 'x' })).body
    await expectJunkBodiesRefused(h, su.token, 'POST', '/announcements')
    await expectJunkBodiesRefused(h, su.token, 'PUT', `/announcements/${id}`)
    const base = { title: 'Aviso', text: 'texto', priority: 2, status: true }
    for (const body of mutations(base)) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await su.post('/announcements', body))
      expectNo500(`PUT ${label}`, await su.put(`/announcements/${id}`, body))
    }
    // Unicode is kept as sent.
    const uni = await su.post('/announcements', { title: '👋🏽 Olá ação', text: 'ñ\u202e\n日本' })
    expect(uni.status).toBe(201)
    expect(uni.body).toMatchObject({ title: '👋🏽 Olá ação', text: 'ñ\u202e\n日本' })
    // Duplicate keys: JSON's last one counts, and it is checked like any other.
    const dup = await su.post('/announcements', '{"title":"dup","text":"x","priority":1,"priority":7}')
    expectRefused('duplicate keys', dup, 400)
    expect(dup.body.fields.map((f: { field: string }) => f.field)).toEqual(['priority'])
  })

  test('junk ids answer 404 on every route', async () => {
    const h = await createHarness()
    const su = await h.as(h.superAdmin.email)
    await expectJunkIds404(
      h,
      su.token,
      [
        ['GET', '/announcements/:id'],
        ['PUT', '/announcements/:id'],
        ['DELETE', '/announcements/:id'],
        ['POST', '/announcements/:id/media-upload'],
        ['DELETE', '/announcements/:id/media-upload'],
      ],
      'ERR_NO_ANNOUNCEMENT_FOUND',
    )
  })

  test('junk queries are 400; unknown parameters are ignored', async () => {
    const h = await createHarness()
    const su = await h.as(h.superAdmin.email)
    const reader = await h.as(h.a.attendant)
    for (const q of [
      'pageNumber=',
      'pageNumber=NaN',
      'pageNumber=1.5',
      'pageNumber=100001',
      'searchParam=%ZZ',
    ]) {
      expectNo500(q, await su.get(`/announcements?${q}`))
      expectNo500(q, await reader.get(`/announcements/feed?${q}`))
    }
    for (const q of ['pageNumber=NaN', 'pageNumber=1.5', 'pageNumber=100001', 'pageNumber=-1']) {
      expectRefused(q, await su.get(`/announcements?${q}`), 400)
      expectRefused(q, await reader.get(`/announcements/feed?${q}`), 400)
    }
    expectRefused('long search', await su.get(`/announcements?searchParam=${'x'.repeat(201)}`), 400)
    expect((await su.get('/announcements?companyId=2&x=1')).status).toBe(200)
    expect((await reader.get('/announcements/feed?companyId=2&status=false')).status).toBe(200)
  })

  test('multipart: two files, a string for the file, another field, no body: 4xx, nothing stored', async () => {
    const h = await createHarness()
    const su = await h.as(h.superAdmin.email)
    const { id } = (await su.post('/announcements', { title: 'arq', text: 'x' })).body
    const path = `/announcements/${id}/media-upload`
    await expectUploadJunkRefused(h, path, su.token)
    const traversal = await uploadTo(h, path, su.token, [{ value: png('../../../etc/passwd.png') }])
    expect(traversal.status).toBe(200)
    expect(traversal.body.mediaName).toBe('passwd.png')
    expect(traversal.body.mediaPath).toMatch(/^[A-Za-z0-9_-]{16,64}\.png$/)
  })
})
