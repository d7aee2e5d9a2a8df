import { describe, expect, test } from 'bun:test'
import { healthResponse } from './health'
import { signedMediaUrl } from './media/sign'
import { storeMedia } from './media/store'
import { samples } from './media/testing'
import { createHarness } from './test/harness'

describe('answer headers', () => {
  test('a signed media answer carries its own strict CSP, not the app`s', async () => {
    const h = await createHarness()
    const stored = storeMedia(h.deps, h.a.id, samples.jpeg(), { mime: 'image/jpeg', ext: 'jpg' })
    const res = await h.app.request(signedMediaUrl(h.deps, h.a.id, stored.path))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    // The app's pages keep theirs.
    const page = await h.app.request('/api/auth/me')
    expect(page.headers.get('content-security-policy')).toStartWith("default-src 'self'")
  })

  test('every JSON answer says nosniff: answers, errors, and the health check served before the app loads', async () => {
    const h = await createHarness()
    const token = await h.login(h.a.admin)
    const answers = [
      await h.app.request('/api/auth/me', { headers: { authorization: `Bearer ${token}` } }),
      await h.app.request('/api/auth/me'),
      await h.app.request('/api/nowhere'),
      await h.app.request('/api/auth/login', {
        method: 'POST',
        body: '{',
        headers: { 'content-type': 'application/json' },
      }),
      healthResponse(h.deps),
    ]
    for (const res of answers) {
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('GET /version', () => {
  test('answers the running version to anyone, without a session', async () => {
    const h = await createHarness()
    const res = await h.call('GET', '/version')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ version: '0.0.0-test' })
  })
})
