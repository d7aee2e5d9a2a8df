import { describe, expect, test } from 'bun:test'
import { signAccessToken } from '../../access/tokens'
import type { LiveSocket } from '../../realtime/hub'
import { createHarness, type Harness, PASSWORD } from '../../test/harness'

/** A live socket that only records how it was closed. */
function fakeSocket() {
  const closed: { code?: number; reason?: string }[] = []
  const socket: LiveSocket = {
    send: () => {},
    subscribe: () => {},
    unsubscribe: () => {},
    close: (code, reason) => closed.push({ code, reason }),
  }
  return { socket, closed }
}

/**
 * A second open session of a user, as another browser would hold: sign-in ends older sessions, so it is
 * written directly, with an access token for it and a socket joined to the hub.
 */
async function extraSession(h: Harness, user: { id: number; companyId: number; profile: 'admin' | 'user' }) {
  const id = crypto.randomUUID()
  const now = h.clock.now()
  h.deps.sqlite
    .query(
      `INSERT INTO user_sessions (id, user_id, refresh_token_hash, created_at, last_used_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(id, user.id, `hash-${id}`, now, now, now + 60 * 60 * 1000)
  const token = await signAccessToken(h.deps, {
    sub: user.id,
    cid: user.companyId,
    sid: id,
    profile: user.profile,
    super: false,
  })
  const live = fakeSocket()
  h.deps.hub.join(live.socket, { companyId: user.companyId, userId: user.id, sessionId: id }, [])
  return { id, token, live }
}

describe('super users are managed by super users only', () => {
  test('a non-super admin of the platform company cannot change or delete the super user (403)', async () => {
    const h = await createHarness()
    const platformAdmin = h.makeUser(h.platform.id, { profile: 'admin', email: 'ops@balcao.test' })
    const admin = await h.as(platformAdmin.email)
    const takeover = await admin.put(`/users/${h.superAdmin.id}`, { password: 'Taken-over1' })
    expect(takeover.status).toBe(403)
    expect(takeover.body.error).toBe('ERR_NO_PERMISSION')
    for (const body of [{ email: 'mine@balcao.test' }, { name: 'Renamed' }, { profile: 'user' }]) {
      expect((await admin.put(`/users/${h.superAdmin.id}`, body)).status).toBe(403)
    }
    const removal = await admin.del(`/users/${h.superAdmin.id}`)
    expect(removal.status).toBe(403)
    expect(removal.body.error).toBe('ERR_NO_PERMISSION')
    // Nothing changed: the super user still signs in with their own password.
    expect(
      (await h.call('POST', '/auth/login', { body: { email: h.superAdmin.email, password: PASSWORD } }))
        .status,
    ).toBe(200)
    // The platform admin still manages the platform company's other users.
    const colleague = h.makeUser(h.platform.id)
    expect((await admin.put(`/users/${colleague.id}`, { name: 'Colleague' })).status).toBe(200)
  })

  test('a super user edits and deletes another super user', async () => {
    const h = await createHarness()
    const second = h.makeUser(h.platform.id, { profile: 'admin', super: true })
    const root = await h.as(h.superAdmin.email)
    expect((await root.put(`/users/${second.id}`, { name: 'Segundo Root' })).status).toBe(200)
    expect((await root.del(`/users/${second.id}`)).status).toBe(200)
  })

  test('the last super user can be neither demoted nor deleted', async () => {
    const h = await createHarness()
    // Another admin in the platform company, so the last-admin rule is not what refuses.
    h.makeUser(h.platform.id, { profile: 'admin' })
    const root = await h.as(h.superAdmin.email)
    const demote = await root.put(`/users/${h.superAdmin.id}`, { profile: 'user' })
    expect(demote.status).toBe(409)
    expect(demote.body.error).toBe('ERR_LAST_SUPER_USER')
    // With a second super user, one of them may step down.
    const second = h.makeUser(h.platform.id, { profile: 'admin', super: true })
    expect((await root.put(`/users/${second.id}`, { profile: 'user' })).status).toBe(200)
    // The service refuses to delete the last one even where no route leads there (self-deletion).
    expect((await root.del(`/users/${h.superAdmin.id}`)).status).toBe(409)
  })
})

describe('password changes end the other sessions', () => {
  test("an admin changing a user's password signs that user out everywhere", async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    const live = fakeSocket()
    const sessionId = h.deps.sqlite
      .query<{ id: string }, [number]>(
        'SELECT id FROM user_sessions WHERE user_id = ? AND revoked_at IS NULL',
      )
      .get(h.a.attendantId)!.id
    h.deps.hub.join(live.socket, { companyId: h.a.id, userId: h.a.attendantId, sessionId }, [])
    expect((await agent.get('/auth/me')).status).toBe(200)
    expect((await admin.put(`/users/${h.a.attendantId}`, { password: 'Nova-senha-1' })).status).toBe(200)
    expect((await agent.get('/auth/me')).status).toBe(401)
    expect(live.closed).toHaveLength(1)
    expect(live.closed[0]!.code).toBe(4001)
    // The admin's own session is untouched, and the user signs in again with the new password.
    expect((await admin.get('/auth/me')).status).toBe(200)
    expect((await h.login(h.a.attendant, 'Nova-senha-1')).length).toBeGreaterThan(0)
  })

  test('users changing their own password keep this session and lose the others', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const other = await extraSession(h, { id: h.a.attendantId, companyId: h.a.id, profile: 'user' })
    expect((await h.call('GET', '/auth/me', { token: other.token })).status).toBe(200)
    const res = await agent.put(`/users/${h.a.attendantId}`, {
      password: 'Minha-nova1',
      currentPassword: PASSWORD,
    })
    expect(res.status).toBe(200)
    expect((await agent.get('/auth/me')).status).toBe(200)
    expect((await h.call('GET', '/auth/me', { token: other.token })).status).toBe(401)
    expect(other.live.closed.map((c) => c.code)).toEqual([4001])
  })

  test('an edit without a new password ends no session', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    expect((await admin.put(`/users/${h.a.attendantId}`, { name: 'Só o Nome', password: '' })).status).toBe(
      200,
    )
    expect((await agent.get('/auth/me')).status).toBe(200)
  })
})

describe('changing your own password or e-mail asks for the current password', () => {
  test('missing: 400 ERR_CURRENT_PASSWORD_REQUIRED; wrong: 403 ERR_INVALID_CURRENT_PASSWORD', async () => {
    const h = await createHarness()
    for (const email of [h.a.attendant, h.a.admin]) {
      const me = await h.as(email)
      const id = email === h.a.admin ? h.a.adminId : h.a.attendantId
      for (const change of [{ password: 'Outra-senha1' }, { email: `novo-${id}@alpha.test` }]) {
        const missing = await me.put(`/users/${id}`, change)
        expect(missing.status).toBe(400)
        expect(missing.body.error).toBe('ERR_CURRENT_PASSWORD_REQUIRED')
        expect(missing.body.fields[0].field).toBe('currentPassword')
        const wrong = await me.put(`/users/${id}`, { ...change, currentPassword: 'not-it' })
        expect(wrong.status).toBe(403)
        expect(wrong.body.error).toBe('ERR_INVALID_CURRENT_PASSWORD')
        expect(wrong.body.fields[0].field).toBe('currentPassword')
      }
      // Nothing changed.
      const row = h.deps.sqlite
        .query<{ email: string }, [number]>('SELECT email FROM users WHERE id = ?')
        .get(id)
      expect(row!.email).toBe(email)
    }
  })

  test('with the right current password the change goes through; the same e-mail needs none', async () => {
    const h = await createHarness()
    const me = await h.as(h.a.attendant)
    // A form sends the unchanged e-mail with every save.
    expect((await me.put(`/users/${h.a.attendantId}`, { email: h.a.attendant, name: 'Nome' })).status).toBe(
      200,
    )
    const res = await me.put(`/users/${h.a.attendantId}`, {
      email: 'joana.nova@alpha.test',
      password: 'Senha-nova-1',
      currentPassword: PASSWORD,
    })
    expect(res.status).toBe(200)
    expect(res.body.email).toBe('joana.nova@alpha.test')
    expect(
      (
        await h.call('POST', '/auth/login', {
          body: { email: 'joana.nova@alpha.test', password: 'Senha-nova-1' },
        })
      ).status,
    ).toBe(200)
  })

  test("an admin changing another user's password or e-mail needs no current password", async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const res = await admin.put(`/users/${h.a.attendantId}`, {
      email: 'trocado@alpha.test',
      password: 'Definida-pelo-admin1',
    })
    expect(res.status).toBe(200)
  })

  test('guessing the current password through an open session is throttled', async () => {
    const h = await createHarness()
    const me = await h.as(h.a.attendant)
    const guess = (currentPassword: string) =>
      me.put(`/users/${h.a.attendantId}`, { password: 'Tomada-123', currentPassword })
    for (let i = 0; i < 5; i++) expect((await guess(`guess-${i}`)).status).toBe(403)
    const blocked = await guess(PASSWORD)
    expect(blocked.status).toBe(429)
    expect(blocked.body.error).toBe('ERR_TOO_MANY_ATTEMPTS')
  })
})
