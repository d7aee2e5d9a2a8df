import { describe, expect, test } from 'bun:test'
import { createHarness, type Harness, PASSWORD } from '../../test/harness'
import { REFRESH_GRACE_MS, withinWorkHours } from './service'

/** The refresh cookie an answer set, as a request's `cookie` header. */
const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0]!

describe('POST /auth/login', () => {
  test('answers a token and the session user with company, settings, plan and queues', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id, { name: 'Suporte' })
    h.addToQueue(h.a.attendantId, queue.id)
    const res = await h.call('POST', '/auth/login', { body: { email: h.a.attendant, password: PASSWORD } })
    expect(res.status).toBe(200)
    expect(typeof res.body.token).toBe('string')
    expect(res.body.user).toMatchObject({
      id: h.a.attendantId,
      email: h.a.attendant,
      profile: 'user',
      companyId: h.a.id,
      queues: [{ id: queue.id, name: 'Suporte' }],
      company: { id: h.a.id, name: 'Alpha', dueDate: '2027-12-31' },
    })
    expect(res.body.user.company.settings).toContainEqual({ key: 'sendGreetingAccepted', value: 'disabled' })
    expect(res.body.user.company.plan.useKanban).toBe(true)
    expect(res.body.user.passwordHash).toBeUndefined()
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toContain('jrt=')
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('Path=/api/auth')
  })

  test('is case-insensitive on the e-mail', async () => {
    const h = await createHarness()
    const res = await h.call('POST', '/auth/login', {
      body: { email: ' ADMIN@alpha.test ', password: PASSWORD },
    })
    expect(res.status).toBe(200)
  })

  test('wrong password and unknown e-mail both answer 401 ERR_INVALID_CREDENTIALS', async () => {
    const h = await createHarness()
    for (const body of [
      { email: h.a.admin, password: 'wrong-password' },
      { email: 'nobody@nowhere.test', password: PASSWORD },
    ]) {
      const res = await h.call('POST', '/auth/login', { body })
      expect(res.status).toBe(401)
      expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS')
    }
  })

  test('a missing field answers 400 naming it', async () => {
    const h = await createHarness()
    const res = await h.call('POST', '/auth/login', { body: { email: h.a.admin } })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_VALIDATION')
    expect(res.body.fields.map((f: { field: string }) => f.field)).toContain('password')
    const notJson = await h.call('POST', '/auth/login', {
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    })
    expect(notJson.status).toBe(400)
  })

  test('repeated failures are throttled with 429 and Retry-After, then allowed after the window', async () => {
    const h = await createHarness()
    const attempt = (password: string) =>
      h.call('POST', '/auth/login', {
        body: { email: h.a.admin, password },
        headers: { 'x-forwarded-for': '10.0.0.9' },
      })
    for (let i = 0; i < 5; i++) expect((await attempt('wrong')).status).toBe(401)
    const blocked = await attempt(PASSWORD)
    expect(blocked.status).toBe(429)
    expect(blocked.body.error).toBe('ERR_TOO_MANY_ATTEMPTS')
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another address is not blocked for the same account.
    const other = await h.call('POST', '/auth/login', {
      body: { email: h.a.admin, password: PASSWORD },
      headers: { 'x-forwarded-for': '10.0.0.10' },
    })
    expect(other.status).toBe(200)
    h.clock.advance(15 * 60 * 1000 + 1)
    expect((await attempt(PASSWORD)).status).toBe(200)
  })

  test('a company past its due date cannot sign in: 402 with the date', async () => {
    const h = await createHarness()
    const expired = h.makeCompany('Gamma', { dueDate: '2026-11-20' })
    const user = h.makeUser(expired.id, { profile: 'admin' })
    const res = await h.call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } })
    expect(res.status).toBe(402)
    expect(res.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED')
    expect(res.body.details.dueDate).toBe('2026-11-20')
  })

  test('the due date itself is still a valid day', async () => {
    const h = await createHarness()
    const company = h.makeCompany('Delta', { dueDate: '2026-11-21' })
    const user = h.makeUser(company.id)
    expect(
      (await h.call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } })).status,
    ).toBe(200)
  })

  test('an inactive company cannot sign in', async () => {
    const h = await createHarness()
    const company = h.makeCompany('Epsilon', { status: false })
    const user = h.makeUser(company.id)
    const res = await h.call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe('ERR_COMPANY_INACTIVE')
  })
})

describe('working hours at sign-in', () => {
  const HOUR = 60 * 60 * 1000
  const signIn = (h: Harness, email: string) =>
    h.call('POST', '/auth/login', { body: { email, password: PASSWORD } })

  test("outside startWork–endWork a non-admin gets 403 ERR_OUT_OF_HOURS, on the company's clock", async () => {
    const h = await createHarness()
    // The harness starts at 12:00 UTC: 09:00 in São Paulo, the default zone.
    const agent = h.makeUser(h.a.id, { startWork: '08:00', endWork: '18:00' })
    const admin = h.makeUser(h.a.id, { profile: 'admin', startWork: '08:00', endWork: '18:00' })
    expect((await signIn(h, agent.email)).status).toBe(200)
    h.clock.advance(9 * HOUR) // 18:00 there: the last minute still counts
    expect((await signIn(h, agent.email)).status).toBe(200)
    h.clock.advance(60 * 1000) // 18:01
    const late = await signIn(h, agent.email)
    expect(late.status).toBe(403)
    expect(late.body).toMatchObject({
      error: 'ERR_OUT_OF_HOURS',
      details: { startWork: '08:00', endWork: '18:00' },
    })
    // Admins are exempt.
    expect((await signIn(h, admin.email)).status).toBe(200)
    // Another zone moves the clock the hours are read on: 21:01 UTC.
    h.deps.sqlite
      .query(
        "INSERT OR REPLACE INTO settings (company_id, key, value, created_at, updated_at) VALUES (?, 'timezone', 'UTC', 0, 0)",
      )
      .run(h.a.id)
    expect((await signIn(h, agent.email)).status).toBe(403)
    h.deps.sqlite
      .query("UPDATE settings SET value = 'Asia/Tokyo' WHERE company_id = ? AND key = 'timezone'")
      .run(h.a.id)
    // 06:01 in Tokyo.
    expect((await signIn(h, agent.email)).status).toBe(403)
    h.clock.advance(2 * HOUR) // 08:01
    expect((await signIn(h, agent.email)).status).toBe(200)
  })

  test('a shift past midnight, the default whole day, and a session begun in time that runs on', async () => {
    const h = await createHarness()
    const night = h.makeUser(h.a.id, { startWork: '22:00', endWork: '06:00' })
    const allDay = h.makeUser(h.a.id)
    const day = h.makeUser(h.a.id, { startWork: '08:00', endWork: '10:00' })
    expect((await signIn(h, night.email)).status).toBe(403) // 09:00
    const session = await signIn(h, day.email)
    expect(session.status).toBe(200)
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!
    h.clock.advance(14 * HOUR) // 23:00
    expect((await signIn(h, night.email)).status).toBe(200)
    expect((await signIn(h, allDay.email)).status).toBe(200)
    expect((await signIn(h, day.email)).status).toBe(403)
    // The spec's client checks at sign-in only: the session begun at 09:00 still refreshes.
    expect((await h.call('POST', '/auth/refresh_token', { headers: { cookie } })).status).toBe(200)
    h.clock.advance(HOUR - 60 * 1000) // 23:59
    expect((await signIn(h, allDay.email)).status).toBe(200)
  })

  test('withinWorkHours', () => {
    expect(withinWorkHours('00:00', '00:00', '23:59')).toBe(true)
    expect(withinWorkHours('23:59', '00:00', '23:59')).toBe(true)
    expect(withinWorkHours('07:59', '08:00', '18:00')).toBe(false)
    expect(withinWorkHours('03:00', '22:00', '06:00')).toBe(true)
    expect(withinWorkHours('06:01', '22:00', '06:00')).toBe(false)
  })
})

describe('tokens', () => {
  test('no token and a forged token answer 401; an expired token answers 403 ERR_SESSION_EXPIRED', async () => {
    const h = await createHarness()
    expect((await h.call('GET', '/auth/me')).status).toBe(401)
    const forged = await h.call('GET', '/auth/me', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.abc' })
    expect(forged.status).toBe(401)
    expect(forged.body.error).toBe('ERR_INVALID_TOKEN')
    const token = await h.login(h.a.admin)
    expect((await h.call('GET', '/auth/me', { token })).status).toBe(200)
    h.clock.advance(15 * 60 * 1000)
    const expired = await h.call('GET', '/auth/me', { token })
    expect(expired.status).toBe(403)
    expect(expired.body.error).toBe('ERR_SESSION_EXPIRED')
  })

  test('refresh_token exchanges the cookie for a new access token and rotates the cookie', async () => {
    const h = await createHarness()
    const login = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
    h.clock.advance(20 * 60 * 1000)
    const refreshed = await h.call('POST', '/auth/refresh_token', { headers: { cookie } })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.user.id).toBe(h.a.adminId)
    expect((await h.call('GET', '/auth/me', { token: refreshed.body.token })).status).toBe(200)
    const rotated = (refreshed.headers.get('set-cookie') ?? '').split(';')[0]!
    expect(rotated).not.toBe(cookie)
    // The old refresh token was replaced: past the grace it no longer works.
    h.clock.advance(REFRESH_GRACE_MS + 1)
    expect((await h.call('POST', '/auth/refresh_token', { headers: { cookie } })).status).toBe(401)
    expect((await h.call('POST', '/auth/refresh_token')).status).toBe(401)
  })

  test('a replaced refresh token used again after 31 s ends the session: the current token stops working too', async () => {
    const h = await createHarness()
    const login = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    const stolen = cookieOf(login)
    h.clock.advance(20 * 60 * 1000)
    const refreshed = await h.call('POST', '/auth/refresh_token', { headers: { cookie: stolen } })
    expect(refreshed.status).toBe(200)
    const current = cookieOf(refreshed)
    h.clock.advance(31 * 1000)
    const replay = await h.call('POST', '/auth/refresh_token', { headers: { cookie: stolen } })
    expect(replay.status).toBe(401)
    expect(replay.body.error).toBe('ERR_INVALID_TOKEN')
    // Both holders are signed out: the rotated cookie and the access token it gave no longer work.
    expect((await h.call('POST', '/auth/refresh_token', { headers: { cookie: current } })).status).toBe(401)
    expect((await h.call('GET', '/auth/me', { token: refreshed.body.token })).status).toBe(401)
  })

  test('the thief refreshing first: the owner`s later refresh with the same token ends the thief`s session', async () => {
    const h = await createHarness()
    const login = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    const copy = cookieOf(login)
    const thief = await h.call('POST', '/auth/refresh_token', { headers: { cookie: copy } })
    expect(thief.status).toBe(200)
    h.clock.advance(10 * 60 * 1000)
    expect((await h.call('POST', '/auth/refresh_token', { headers: { cookie: copy } })).status).toBe(401)
    expect((await h.call('GET', '/auth/me', { token: thief.body.token })).status).toBe(401)
    expect(
      (await h.call('POST', '/auth/refresh_token', { headers: { cookie: cookieOf(thief) } })).status,
    ).toBe(401)
  })

  test('within the grace, another tab refreshing with the just-replaced token gets the current session', async () => {
    const h = await createHarness()
    const login = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    const shared = cookieOf(login)
    h.clock.advance(20 * 60 * 1000)
    const first = await h.call('POST', '/auth/refresh_token', { headers: { cookie: shared } })
    expect(first.status).toBe(200)
    h.clock.advance(REFRESH_GRACE_MS)
    const second = await h.call('POST', '/auth/refresh_token', { headers: { cookie: shared } })
    expect(second.status).toBe(200)
    expect(second.body.user.id).toBe(h.a.adminId)
    // It leaves the browser's cookie (set by the first tab) as it is.
    expect(second.headers.get('set-cookie')).toBeNull()
    expect((await h.call('GET', '/auth/me', { token: second.body.token })).status).toBe(200)
    // The session goes on with the rotated cookie.
    const next = await h.call('POST', '/auth/refresh_token', { headers: { cookie: cookieOf(first) } })
    expect(next.status).toBe(200)
    expect((await h.call('GET', '/auth/me', { token: first.body.token })).status).toBe(200)
  })

  test('logout ends the session: the access token and the refresh cookie stop working', async () => {
    const h = await createHarness()
    const login = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
    const token = login.body.token
    const out = await h.call('DELETE', '/auth/logout', { token, headers: { cookie } })
    expect(out.status).toBe(204)
    expect(out.headers.get('set-cookie')).toContain('jrt=;')
    expect((await h.call('GET', '/auth/me', { token })).status).toBe(401)
    expect((await h.call('POST', '/auth/refresh_token', { headers: { cookie } })).status).toBe(401)
  })

  test('a new sign-in ends the older session and tells it on the auth channel', async () => {
    const h = await createHarness()
    const events = h.recordEvents()
    const first = await h.login(h.a.admin)
    const second = await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })
    expect((await h.call('GET', '/auth/me', { token: first })).status).toBe(401)
    expect((await h.call('GET', '/auth/me', { token: second.body.token })).status).toBe(200)
    const auth = events.filter((e) => e.event === `company-${h.a.id}-auth`)
    expect(auth).toHaveLength(2)
    expect(auth[1]!.room).toBe(`company:${h.a.id}:user:${h.a.adminId}`)
    expect(auth[1]!.data).toMatchObject({ action: 'update', user: { id: h.a.adminId } })
  })

  test('a deleted user loses access at once', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const attendant = await h.as(h.a.attendant)
    expect((await attendant.get('/auth/me')).status).toBe(200)
    expect((await admin.del(`/users/${h.a.attendantId}`)).status).toBe(200)
    expect((await attendant.get('/auth/me')).status).toBe(401)
  })
})
