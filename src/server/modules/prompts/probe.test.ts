/** Junk to every prompt and transcription route: a 4xx with an error code, never a 500 (the rest is prompts.test.ts). */
import { describe, expect, test } from 'bun:test'
import { samples } from '../../media/testing'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
  png,
  rawRequest,
  uploadTo,
} from '../../test/probe'

describe('prompts: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const queue = h.makeQueue(h.a.id)
    const base = {
      name: 'Sonda',
      prompt: 'Responda com educação.',
      queueId: queue.id,
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      voice: 'texto',
      voiceKey: 'k',
      voiceRegion: 'brazilsouth',
      apiKey: 'sk-probe-000000000000',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'gpt-4o-mini',
    }
    const created = await admin.post('/prompt', base)
    expect(created.status).toBe(201)
    const id = created.body.id as number
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/prompt')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/prompt/${id}`)
    for (const body of mutations(base)) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await admin.post('/prompt', body))
      expectNo500(`PUT ${label}`, await admin.put(`/prompt/${id}`, body))
    }
    // unicode, huge and nested values: a clear 400 or accepted, never a 500
    for (const value of ['👋🏽\u202e', 'x'.repeat(30_000), { a: { b: [1] } }, ['sk-'], '\u0000']) {
      for (const field of ['name', 'prompt', 'apiKey', 'baseUrl', 'model', 'voiceKey']) {
        const res = await admin.post('/prompt', { ...base, [field]: value })
        expectNo500(`${field}=${JSON.stringify(value).slice(0, 30)}`, res)
      }
    }
    expectRefused('list bad page', await admin.get('/prompt?pageNumber=abc'), 400)
    expectNo500('list long search', await admin.get(`/prompt?searchParam=${'%'.repeat(100)}`))
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/prompt/:id'],
        ['PUT', '/prompt/:id'],
        ['DELETE', '/prompt/:id'],
      ],
      'ERR_NO_PROMPT_FOUND',
    )
    await expectJunkIds404(h, admin.token, [['POST', '/messages/:id/transcribe']], 'ERR_NO_MESSAGE_FOUND')
  })

  test('POST /test/audio refuses junk uploads with a clear 4xx', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const path = '/test/audio'
    expectRefused('no file', await uploadTo(h, path, admin.token, []), 400)
    expectRefused('file as text', await uploadTo(h, path, admin.token, [{ name: 'audio', value: 'x' }]), 400)
    expectRefused('an image', await uploadTo(h, path, admin.token, [{ name: 'audio', value: png() }]), 415)
    expectRefused(
      'empty file',
      await uploadTo(h, path, admin.token, [{ name: 'audio', value: new File([], 'a.mp3') }]),
      400,
    )
    expectRefused('no body', await rawRequest(h, 'POST', path, admin.token, null, null))
    expectRefused('text body', await rawRequest(h, 'POST', path, admin.token, 'text/plain', 'x'))
    expectRefused('json body', await rawRequest(h, 'POST', path, admin.token, 'application/json', '{}'))
    // a real audio file, but no prompt with a key in the company: a clear 400
    const mp3 = new File([samples.mp3()], 'a.mp3', { type: 'audio/mpeg' })
    const res = await uploadTo(h, path, admin.token, [{ name: 'audio', value: mp3 }])
    expectRefused('no key', res, 400)
    expect(res.body.error).toBe('ERR_AI_NOT_CONFIGURED')
    // not signed in
    expectRefused('anonymous', await uploadTo(h, path, '', [{ name: 'audio', value: mp3 }]), 401)
  })
})
