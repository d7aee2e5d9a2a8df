import { describe, expect, test } from 'bun:test'
import { createHarness } from './test/harness'

describe('/api/metrics', () => {
  test('off (404) unless BALCAO_METRICS_TOKEN is set', async () => {
    const h = await createHarness()
    expect((await h.call('GET', '/metrics')).status).toBe(404)
  })

  test('needs the bearer token, compared whole', async () => {
    const h = await createHarness()
    h.deps.env = { BALCAO_METRICS_TOKEN: 'scrape-me-please' }
    expect((await h.call('GET', '/metrics')).status).toBe(401)
    expect((await h.call('GET', '/metrics', { token: 'scrape-me' })).status).toBe(401)
    expect((await h.call('GET', '/metrics', { token: 'scrape-me-please!' })).status).toBe(401)
    const signedIn = await h.as(h.superAdmin.email)
    expect((await h.call('GET', '/metrics', { token: signedIn.token })).status).toBe(401)
    expect((await h.call('GET', '/metrics', { token: 'scrape-me-please' })).status).toBe(200)
  })

  test('counts requests, latency, sessions by state and what waits to be sent', async () => {
    const h = await createHarness()
    h.deps.env = { BALCAO_METRICS_TOKEN: 't0ken' }
    h.makeConnection(h.a.id, { name: 'Loja', status: 'CONNECTED' })
    h.makeConnection(h.b.id, { name: 'Outra', status: 'qrcode' })
    await h.call('GET', '/tickets')
    await h.call('GET', '/nowhere')
    const res = await h.call('GET', '/metrics', { token: 't0ken' })
    expect(res.headers.get('content-type')).toStartWith('text/plain')
    const text = res.body as string
    expect(text).toContain('balcao_http_requests_total{method="GET",status="4xx"} 2')
    expect(text).toContain('balcao_http_request_duration_seconds_count 2')
    expect(text).toContain('balcao_connections{status="CONNECTED"} 1')
    expect(text).toContain('balcao_connections{status="qrcode"} 1')
    expect(text).toContain('balcao_outbound_messages{state="queued"} 0')
    expect(text).toContain('balcao_live_sockets 0')
    expect(text).toMatch(/balcao_build_info\{version="[^"]+"\} 1/)
  })
})

describe('/api/health', () => {
  test('reports the database and the connections by state; 503 when the database fails', async () => {
    const h = await createHarness()
    h.makeConnection(h.a.id, { name: 'Loja', status: 'CONNECTED' })
    const ok = await h.call('GET', '/health')
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ status: 'ok', database: 'ok', connections: { CONNECTED: 1 } })
    h.deps.sqlite.close()
    const down = await h.call('GET', '/health')
    expect(down.status).toBe(503)
    expect(down.body).toMatchObject({ status: 'degraded', database: 'error' })
  })
})
