/** Junk to every quick-messages route: a 4xx with an error code, never a 500 (the rest is quick-messages.test.ts). */
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

describe('quick messages: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const { id } = (await agent.post('/quick-messages', { shortcode: 'base', message: 'x' })).body
    await expectJunkBodiesRefused(h, agent.token, 'POST', '/quick-messages')
    await expectJunkBodiesRefused(h, agent.token, 'PUT', `/quick-messages/${id}`)
    const base = { shortcode: 'probe', message: 'texto', geral: false, status: true }
    for (const body of mutations(base)) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await agent.post('/quick-messages', body))
      expectNo500(`PUT ${label}`, await agent.put(`/quick-messages/${id}`, body))
    }
    // Duplicate keys: JSON's last one counts, and it is checked like any other.
    const dup = await agent.post('/quick-messages', '{"shortcode":"dup","shortcode":7}')
    expectRefused('duplicate keys', dup, 400)
    expect(dup.body.fields.map((f: { field: string }) => f.field)).toEqual(['shortcode'])
  })

  test('junk ids answer 404 on every route', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    await expectJunkIds404(
      h,
      agent.token,
      [
        ['GET', '/quick-messages/:id'],
        ['PUT', '/quick-messages/:id'],
        ['DELETE', '/quick-messages/:id'],
        ['POST', '/quick-messages/:id/media-upload'],
        ['DELETE', '/quick-messages/:id/media-upload'],
      ],
      'ERR_NO_QUICK_MESSAGE_FOUND',
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
      expectNo500(q, await agent.get(`/quick-messages?${q}`))
    for (const q of ['pageNumber=NaN', 'pageNumber=1.5', 'pageNumber=100001'])
      expectRefused(q, await agent.get(`/quick-messages?${q}`), 400)
    expect((await agent.get('/quick-messages/list?companyId=2&userId=1')).status).toBe(200)
  })

  test('multipart: wrong fields, two files, a string for the file, JSON or no body: 4xx, nothing stored', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const { id } = (await agent.post('/quick-messages', { shortcode: 'arq' })).body
    const path = `/quick-messages/${id}/media-upload`
    expectRefused(
      'typeArch too long',
      await uploadTo(h, path, agent.token, [{ name: 'typeArch', value: 'x'.repeat(51) }, { value: png() }]),
      400,
    )
    await expectUploadJunkRefused(h, path, agent.token)
    expectRefused(
      'traversal name',
      await uploadTo(h, path, agent.token, [
        { value: new File([new Uint8Array([1, 2, 3])], '../../etc/passwd') },
      ]),
    )
    expect((await agent.get(`/quick-messages/${id}`)).body).toMatchObject({ isMedia: false, mediaPath: null })
    // A name with a path in it is only ever a display name, its last segment; the stored file has a name of its own.
    for (const [name, shown] of [
      ['../../../x.png', 'x.png'],
      ['..\\..\\y.png', 'y.png'],
      ['a/', 'file.png'],
      [`${'n'.repeat(300)}.png`, 'n'.repeat(200)],
    ]) {
      const ok = await uploadTo(h, path, agent.token, [{ value: png(name) }])
      expect(ok.status).toBe(200)
      expect(ok.body.mediaName).toBe(shown)
      expect(ok.body.mediaPath).toMatch(/^[A-Za-z0-9_-]{16,64}\.png$/)
    }
  })
})
