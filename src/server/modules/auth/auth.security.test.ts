import { describe, expect, test } from 'bun:test'
import type { LiveSocket } from '../../realtime/hub'
import { createHarness, type Harness, PASSWORD } from '../../test/harness'

const MINUTE = 60 * 1000

function loginFrom(h: Harness, forwardedFor: string, email: string, password: string) {
  return h.call('POST', '/auth/login', {
    body: { email, password },
    headers: { 'x-forwarded-for': forwardedFor },
  })
}

describe('sign-in throttling behind a trusted proxy', () => {
  test('the key is the address the proxy appended (rightmost), not what the client wrote', async () => {
    const h = await createHarness()
    // The client forges a fresh leftmost entry on every try; the proxy appends the real address.
    for (let i = 0; i < 5; i++) {
      const res = await loginFrom(h, `203.0.113.${i}, 198.51.100.7`, h.a.admin, 'wrong')
      expect(res.status).toBe(401)
    }
    const blocked = await loginFrom(h, '192.0.2.99, 198.51.100.7', h.a.admin, PASSWORD)
    expect(blocked.status).toBe(429)
    // The real address of someone else is not blocked.
    expect((await loginFrom(h, '198.51.100.8', h.a.admin, PASSWORD)).status).toBe(200)
  })

  test('with BALCAO_TRUST_PROXY=2 the client is the second entry from the right', async () => {
    const h = await createHarness()
    h.deps.trustProxy = 2
    for (let i = 0; i < 5; i++) {
      const res = await loginFrom(h, `forged-${i}, 198.51.100.7, 10.0.0.2`, h.a.admin, 'wrong')
      expect(res.status).toBe(401)
    }
    expect((await loginFrom(h, 'forged-x, 198.51.100.7, 10.0.0.2', h.a.admin, PASSWORD)).status).toBe(429)
    expect((await loginFrom(h, '198.51.100.8, 10.0.0.2', h.a.admin, PASSWORD)).status).toBe(200)
  })
})

describe('sign-in throttling under concurrency', () => {
  test('150 parallel wrong passwords: the attempts are counted before hashing, so most answer 429', async () => {
    const h = await createHarness()
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => loginFrom(h, '198.51.100.20', h.a.admin, 'wrong-password')),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(145)
    expect(Number(answers.find((a) => a.status === 429)!.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('a right password gives its attempt back: signing in does not use up the allowance', async () => {
    const h = await createHarness()
    for (let i = 0; i < 10; i++)
      expect((await loginFrom(h, '198.51.100.21', h.a.admin, PASSWORD)).status).toBe(200)
    for (let i = 0; i < 4; i++)
      expect((await loginFrom(h, '198.51.100.21', h.a.admin, 'wrong')).status).toBe(401)
    expect((await loginFrom(h, '198.51.100.21', h.a.admin, PASSWORD)).status).toBe(200)
  })
})

describe('sign-in throttling per account, across addresses', () => {
  test('a guess spread over many addresses is throttled; the owner is locked out briefly, or not at all', async () => {
    const h = await createHarness()
    // The owner signed in before from their usual address.
    expect((await loginFrom(h, '198.51.100.50', h.a.admin, PASSWORD)).status).toBe(200)
    for (let i = 1; i <= 10; i++) {
      expect((await loginFrom(h, `203.0.113.${i}`, h.a.admin, `guess-${i}`)).status).toBe(401)
    }
    // An eleventh address is refused, even with the right password: the account is cooling down.
    const blocked = await loginFrom(h, '203.0.113.11', h.a.admin, PASSWORD)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(5 * 60)
    // Other accounts are not affected.
    expect((await loginFrom(h, '203.0.113.11', h.a.attendant, PASSWORD)).status).toBe(200)
    // The owner, from an address the account has signed in from, is not locked out.
    expect((await loginFrom(h, '198.51.100.50', h.a.admin, PASSWORD)).status).toBe(200)
    // From a new address, the block lasts the short account window only.
    h.clock.advance(5 * MINUTE + 1)
    expect((await loginFrom(h, '203.0.113.12', h.a.admin, PASSWORD)).status).toBe(200)
  }, 30_000)

  test('unknown e-mails are counted alike, so throttling does not tell which accounts exist', async () => {
    const h = await createHarness()
    for (let i = 1; i <= 10; i++) {
      expect((await loginFrom(h, `203.0.113.${i}`, 'nobody@nowhere.test', 'x')).status).toBe(401)
    }
    expect((await loginFrom(h, '203.0.113.11', 'nobody@nowhere.test', 'x')).status).toBe(429)
  })
})

describe('a closed company ends its sessions on the next request', () => {
  function fakeSocket() {
    const closed: number[] = []
    const socket: LiveSocket = {
      send: () => {},
      subscribe: () => {},
      unsubscribe: () => {},
      close: (code) => closed.push(code ?? 0),
    }
    return { socket, closed }
  }

  test('deactivated: existing tokens answer 403 ERR_COMPANY_INACTIVE and live sockets close', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const beta = await h.as(h.b.admin)
    const alphaSocket = fakeSocket()
    const betaSocket = fakeSocket()
    h.deps.hub.join(alphaSocket.socket, { companyId: h.a.id, userId: h.a.adminId, sessionId: 'a' }, [])
    h.deps.hub.join(betaSocket.socket, { companyId: h.b.id, userId: h.b.adminId, sessionId: 'b' }, [])
    expect((await admin.get('/auth/me')).status).toBe(200)
    const root = await h.as(h.superAdmin.email)
    expect((await root.put(`/companies/${h.a.id}`, { status: false })).status).toBe(200)
    for (const res of [await admin.get('/auth/me'), await admin.get('/users/'), await admin.get('/queue')]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_COMPANY_INACTIVE')
    }
    expect(alphaSocket.closed).toHaveLength(1)
    expect(betaSocket.closed).toHaveLength(0)
    expect((await beta.get('/auth/me')).status).toBe(200)
    // Reactivated, the same token works again (nothing was revoked).
    expect((await root.put(`/companies/${h.a.id}`, { status: true })).status).toBe(200)
    expect((await admin.get('/auth/me')).status).toBe(200)
  })

  test('expired by the clock: the next request answers 402 ERR_SUBSCRIPTION_EXPIRED with the date', async () => {
    const h = await createHarness()
    h.clock.set(Date.parse('2026-11-21T23:55:00Z'))
    const company = h.makeCompany('Gamma', { dueDate: '2026-11-21' })
    const user = h.makeUser(company.id, { profile: 'admin' })
    const token = await h.login(user.email)
    expect((await h.call('GET', '/auth/me', { token })).status).toBe(200)
    h.clock.advance(10 * MINUTE) // past midnight, within the token's lifetime
    const res = await h.call('GET', '/users/', { token })
    expect(res.status).toBe(402)
    expect(res.body).toMatchObject({ error: 'ERR_SUBSCRIPTION_EXPIRED', details: { dueDate: '2026-11-21' } })
  })

  test('a due date moved into the past by the super user closes the sockets too', async () => {
    const h = await createHarness()
    const live = fakeSocket()
    h.deps.hub.join(live.socket, { companyId: h.b.id, userId: h.b.adminId, sessionId: 'b' }, [])
    const root = await h.as(h.superAdmin.email)
    expect((await root.put(`/companies/${h.b.id}`, { dueDate: '2026-01-01' })).status).toBe(200)
    expect(live.closed).toHaveLength(1)
  })

  test('the platform company never expires, for its super user and its other staff', async () => {
    const h = await createHarness()
    const staff = h.makeUser(h.platform.id, { profile: 'admin' })
    const root = await h.as(h.superAdmin.email)
    const ops = await h.as(staff.email)
    h.deps.sqlite.run(`UPDATE companies SET due_date = '2020-01-01', status = 0 WHERE id = ${h.platform.id}`)
    expect((await root.get('/companies')).status).toBe(200)
    expect((await ops.get('/auth/me')).status).toBe(200)
    expect(
      (await h.call('POST', '/auth/login', { body: { email: staff.email, password: PASSWORD } })).status,
    ).toBe(200)
  })
})
