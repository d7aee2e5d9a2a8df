import { describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from './app'
import { createHarness } from './test/harness'
import { WebAssets } from './web-assets'

async function appWithUi() {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-web-'))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Balcão</title><div id="root"></div>')
  writeFileSync(join(dir, 'main-a1b2c3d4.js'), `console.log(${JSON.stringify('x'.repeat(5000))})`)
  const h = await createHarness()
  return createApp(h.deps, { web: new WebAssets(dir) })
}

describe('the web UI served by the executable', () => {
  test('deep links get index.html, revalidated on every load', async () => {
    const app = await appWithUi()
    for (const path of ['/', '/tickets', '/users/42']) {
      const res = await app.request(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(await res.text()).toContain('<div id="root">')
    }
  })

  test('hashed files are cached for a year, gzipped on request, and answer 304 to their ETag', async () => {
    const app = await appWithUi()
    const plain = await app.request('/main-a1b2c3d4.js')
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(plain.headers.get('content-encoding')).toBeNull()
    const zipped = await app.request('/main-a1b2c3d4.js', { headers: { 'accept-encoding': 'gzip, br' } })
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    expect(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())).length).toBe(
      (await plain.text()).length,
    )
    const again = await app.request('/main-a1b2c3d4.js', {
      headers: { 'if-none-match': plain.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
  })

  test('a missing file is a 404, not the app; unknown API paths answer JSON 404', async () => {
    const app = await appWithUi()
    expect((await app.request('/missing-12345678.js')).status).toBe(404)
    const api = await app.request('/api/nope')
    expect(api.status).toBe(404)
    expect(await api.json()).toMatchObject({ error: 'ERR_NOT_FOUND' })
  })

  test('security headers: a CSP without inline scripts, no framing', async () => {
    const app = await appWithUi()
    const res = await app.request('/')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test("the CSP lets pages connect to this origin's live socket only", async () => {
    const app = await appWithUi()
    const connectSrc = (csp: string | null) => csp?.match(/connect-src ([^;]*)/)?.[1]
    const plain = await app.request('http://balcao.example:8080/')
    expect(connectSrc(plain.headers.get('content-security-policy'))).toBe("'self' ws://balcao.example:8080")
    const secure = await app.request('https://balcao.example/')
    expect(connectSrc(secure.headers.get('content-security-policy'))).toBe("'self' wss://balcao.example")
  })
})
