import { describe, expect, test } from 'bun:test'
import { initAuthCreds } from '@whiskeysockets/baileys'
import { eq } from 'drizzle-orm'
import { createBaileysProvider } from '../../channels/baileys/provider'
import { SLOW_RETRY_MS } from '../../channels/baileys/session'
import { fakeSocketFactory, settle } from '../../channels/baileys/testing/fake-socket'
import type { ChannelProvider } from '../../channels/types'
import { plans, whatsapps } from '../../db/schema'
import { silentLogger } from '../../logger'
import { createHarness } from '../../test/harness'

describe('connections', () => {
  test('an admin creates a connection: it is the default, has an API token and starts at once with a QR code', async () => {
    const h = await createHarness()
    const q1 = h.makeQueue(h.a.id)
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    const res = await admin.post('/whatsapp', {
      name: 'Principal',
      queueIds: [q1.id],
      greetingMessage: 'Olá!',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Principal',
      isDefault: true,
      provider: 'beta',
      status: 'qrcode',
      qrcode: `fake-qr-${res.body.id}`,
      maxUseBotQueues: 3,
      timeSendQueue: 0,
      expiresTicket: 0,
      queues: [{ id: q1.id }],
    })
    expect(res.body.token.length).toBeGreaterThan(20)
    expect(res.body.expirationTime).toBeGreaterThan(0)
    expect(h.sessions.get(res.body.id)?.calls[0]?.method).toBe('start')
    const kinds = events.map((e) => [e.room, e.event, (e.data as { action: string }).action])
    expect(kinds).toContainEqual([`company:${h.a.id}:admins`, `company-${h.a.id}-whatsapp`, 'create'])
    expect(kinds).toContainEqual([`company:${h.a.id}:admins`, `company-${h.a.id}-whatsappSession`, 'update'])
    expect(kinds).toContainEqual(['operator', `company-${h.a.id}-whatsappSession`, 'update'])
    expect(events.every((e) => !e.room.startsWith(`company:${h.b.id}`))).toBe(true)
  })

  test('session status changes are written to the connection and published live', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Principal' })
    const events = h.recordEvents()
    await h.sessions.get(body.id)!.emit({
      t: 'status',
      status: 'CONNECTED',
      me: { jid: '5511999990000@s.whatsapp.net', pn: '5511999990000' },
    })
    const after = await admin.get(`/whatsapp/${body.id}`)
    expect(after.body).toMatchObject({ status: 'CONNECTED', qrcode: '', number: '5511999990000', retries: 0 })
    expect(events[0]).toMatchObject({
      event: `company-${h.a.id}-whatsappSession`,
      data: {
        action: 'update',
        session: { id: body.id, status: 'CONNECTED', qrcode: '', number: '5511999990000' },
      },
    })
    await h.sessions.get(body.id)!.emit({ t: 'status', status: 'OPENING', reason: 428, retryInMs: 1000 })
    expect((await admin.get(`/whatsapp/${body.id}`)).body).toMatchObject({ status: 'OPENING', retries: 1 })
  })

  test('other events reach the channel sink with their connection', async () => {
    const h = await createHarness()
    const connection = h.makeConnection(h.a.id)
    const seen: unknown[] = []
    h.deps.channels.onEvent((conn, event) => {
      seen.push([conn, event.t])
    })
    await h.deps.channels.start(connection)
    await h.sessions
      .get(connection.id)!
      .emit({ t: 'delete', ref: { id: 'X', chatJid: 'a@s.whatsapp.net', fromMe: false } })
    expect(seen).toEqual([[{ id: connection.id, companyId: h.a.id }, 'delete']])
  })

  test.each([
    [{ name: 'A' }, 'name', 'ERR_VALIDATION'],
    [{ name: 'x'.repeat(51) }, 'name', 'ERR_VALIDATION'],
    [{ name: 'Ok', timeSendQueue: 10 }, 'sendIdQueue', 'ERR_VALIDATION'],
    [{ name: 'Ok', expiresTicketNPS: 5 }, 'ratingMessage', 'ERR_VALIDATION'],
    [{ name: 'Ok', ratingMessage: 'Nota de 0 a 10?' }, 'expiresTicketNPS', 'ERR_VALIDATION'],
    [{ name: 'Ok', maxUseBotQueues: -1 }, 'maxUseBotQueues', 'ERR_VALIDATION'],
    [{ name: 'Ok', provider: 'sandbox' }, 'provider', 'ERR_SANDBOX_DISABLED'],
    [{ name: 'Ok', promptId: 3 }, 'promptId', 'ERR_VALIDATION'],
    [
      { name: 'Ok', collectiveVacationStart: '2026-12-20', collectiveVacationEnd: '2026-12-01' },
      'collectiveVacationEnd',
      'ERR_VALIDATION',
    ],
  ])('validation: %j answers 400 on %s', async (body, field, code) => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/whatsapp', body)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe(code)
    expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field)
  })

  test('a redirect queue needs a time, and a greeting is required with more than one queue', async () => {
    const h = await createHarness()
    const q1 = h.makeQueue(h.a.id)
    const q2 = h.makeQueue(h.a.id)
    const admin = await h.as(h.a.admin)
    const noTime = await admin.post('/whatsapp', { name: 'Ok', sendIdQueue: q1.id })
    expect(noTime.body.fields[0].field).toBe('timeSendQueue')
    const greeting = await admin.post('/whatsapp', { name: 'Ok', queueIds: [q1.id, q2.id] })
    expect(greeting.status).toBe(400)
    expect(greeting.body.error).toBe('ERR_WAPP_GREETING_REQUIRED')
    const fine = await admin.post('/whatsapp', {
      name: 'Ok',
      queueIds: [q1.id, q2.id],
      greetingMessage: 'Escolha uma fila',
      timeSendQueue: 10,
      sendIdQueue: q2.id,
      expiresTicketNPS: 5,
      ratingMessage: 'De 0 a 10?',
    })
    expect(fine.status).toBe(201)
    // Removing the greeting later is held to the same rule.
    const update = await admin.put(`/whatsapp/${fine.body.id}`, { greetingMessage: '' })
    expect(update.body.error).toBe('ERR_WAPP_GREETING_REQUIRED')
  })

  test("another company's queue cannot be linked", async () => {
    const h = await createHarness()
    const foreign = h.makeQueue(h.b.id)
    const admin = await h.as(h.a.admin)
    const res = await admin.post('/whatsapp', { name: 'Ok', queueIds: [foreign.id] })
    expect(res.status).toBe(400)
    expect(res.body.fields[0].field).toBe('queueIds')
  })

  test('one default per company; the default cannot be unset, and deleting it hands the flag on', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const first = (await admin.post('/whatsapp', { name: 'Um' })).body
    const created = await admin.post('/whatsapp', { name: 'Dois', isDefault: true })
    expect(created.status).toBe(201)
    const second = created.body
    expect(second.isDefault).toBe(true)
    expect((await admin.get(`/whatsapp/${first.id}`)).body.isDefault).toBe(false)
    const unset = await admin.put(`/whatsapp/${second.id}`, { isDefault: false })
    expect(unset.status).toBe(409)
    expect(unset.body.error).toBe('ERR_NO_OTHER_WHATSAPP')
    expect((await admin.del(`/whatsapp/${second.id}`)).status).toBe(200)
    expect(h.sessions.get(second.id)?.calls.map((c) => c.method)).toContain('logout')
    expect((await admin.get(`/whatsapp/${first.id}`)).body.isDefault).toBe(true)
    expect((await admin.get(`/whatsapp/${second.id}`)).status).toBe(404)
  })

  test('names are unique in a company', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    await admin.post('/whatsapp', { name: 'Principal' })
    const dup = await admin.post('/whatsapp', { name: 'Principal' })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toBe('ERR_WAPP_NAME_ALREADY_EXISTS')
    expect(dup.body.fields[0].field).toBe('name')
    expect((await (await h.as(h.b.admin)).post('/whatsapp', { name: 'Principal' })).status).toBe(201)
  })

  test('the plan limit on connections is enforced', async () => {
    const h = await createHarness()
    h.db.update(plans).set({ connections: 1 }).run()
    const admin = await h.as(h.a.admin)
    expect((await admin.post('/whatsapp', { name: 'Um' })).status).toBe(201)
    const over = await admin.post('/whatsapp', { name: 'Dois' })
    expect(over.status).toBe(403)
    expect(over.body.error).toBe('ERR_CONNECTION_LIMIT_REACHED')
    expect(over.body.details.limit).toBe(1)
  })

  test('session calls: start (QR or pairing code), new QR, disconnect, restart', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Principal' })
    const session = () => h.sessions.get(body.id)!
    const pairing = await admin.post(`/whatsappsession/${body.id}`, { phone: '5511988887777' })
    expect(pairing.status).toBe(200)
    expect(pairing.body).toMatchObject({ status: 'PAIRING', pairingCode: 'ABCD1234' })
    expect((await admin.post(`/whatsappsession/${body.id}`, { phone: '12ab' })).status).toBe(400)
    const renewed = await admin.put(`/whatsappsession/${body.id}`)
    expect(renewed.body.status).toBe('qrcode')
    const disconnected = await admin.del(`/whatsappsession/${body.id}`)
    expect(disconnected.body).toMatchObject({ status: 'DISCONNECTED', qrcode: '' })
    expect(session().calls.map((c) => c.method)).toContain('logout')
    const started = await admin.post(`/whatsappsession/${body.id}`)
    expect(started.body.status).toBe('qrcode')
    const restart = await admin.post('/whatsapp-restart/')
    expect(restart.status).toBe(200)
  })

  test('attendants see the connections without secrets and cannot change them', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Principal' })
    const agent = await h.as(h.a.attendant)
    const list = await agent.get('/whatsapp/?session=0')
    expect(list.status).toBe(200)
    expect(list.body[0]).toMatchObject({ id: body.id, name: 'Principal', token: null, qrcode: '' })
    for (const res of [
      await agent.post('/whatsapp', { name: 'Nova' }),
      await agent.put(`/whatsapp/${body.id}`, { name: 'Nova' }),
      await agent.del(`/whatsapp/${body.id}`),
      await agent.post(`/whatsappsession/${body.id}`),
      await agent.put(`/whatsappsession/${body.id}`),
      await agent.del(`/whatsappsession/${body.id}`),
      await agent.post('/whatsapp-restart/'),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_NO_PERMISSION')
    }
  })

  test("another company's connection ids answer 404 everywhere", async () => {
    const h = await createHarness()
    const foreign = h.makeConnection(h.b.id)
    const admin = await h.as(h.a.admin)
    for (const res of [
      await admin.get(`/whatsapp/${foreign.id}`),
      await admin.put(`/whatsapp/${foreign.id}`, { name: 'Mine' }),
      await admin.del(`/whatsapp/${foreign.id}`),
      await admin.post(`/whatsappsession/${foreign.id}`),
      await admin.put(`/whatsappsession/${foreign.id}`),
      await admin.del(`/whatsappsession/${foreign.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND')
    }
    expect((await admin.get('/whatsapp')).body).toEqual([])
    expect(h.sessions.get(foreign.id)).toBeUndefined()
  })
})

describe('boot', () => {
  test('sessions that were working come back; stale QR codes are cleared', async () => {
    const h = await createHarness()
    const connected = h.makeConnection(h.a.id, { status: 'CONNECTED' })
    const waiting = h.makeConnection(h.a.id, { status: 'qrcode', qrcode: 'old-qr' })
    const off = h.makeConnection(h.b.id, { status: 'DISCONNECTED' })
    await h.deps.channels.startAll(0)
    expect(h.sessions.get(connected.id)?.calls[0]?.method).toBe('start')
    expect(h.sessions.has(waiting.id)).toBe(false)
    expect(h.sessions.has(off.id)).toBe(false)
    const admin = await h.as(h.a.admin)
    expect((await admin.get(`/whatsapp/${waiting.id}`)).body).toMatchObject({
      status: 'DISCONNECTED',
      qrcode: '',
    })
  })
})

describe('default connection', () => {
  test('making another connection the default by update moves the flag', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const first = (await admin.post('/whatsapp', { name: 'Um' })).body
    const second = (await admin.post('/whatsapp', { name: 'Dois' })).body
    expect(second.isDefault).toBe(false)
    const res = await admin.put(`/whatsapp/${second.id}`, { isDefault: true })
    expect(res.status).toBe(200)
    expect(res.body.isDefault).toBe(true)
    expect((await admin.get(`/whatsapp/${first.id}`)).body.isDefault).toBe(false)
  })
})

describe('shutdown', () => {
  test('stopping every session keeps the rows as they were, so the next boot resumes them', async () => {
    const h = await createHarness()
    const connection = h.makeConnection(h.a.id, { status: 'CONNECTED' })
    await h.deps.channels.startAll(0)
    const session = h.sessions.get(connection.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    // A provider that reports DISCONNECTED while it stops (as Baileys does) must not change the row.
    session.stop = async () => {
      await session.emit({ t: 'status', status: 'DISCONNECTED', detail: 'stopped' })
    }
    await h.deps.channels.stopAll()
    const admin = await h.as(h.a.admin)
    expect((await admin.get(`/whatsapp/${connection.id}`)).body.status).toBe('CONNECTED')
  })
})

describe('connection tokens', () => {
  test('the server makes the token: one in a body is ignored, and no answer tells whether a token exists', async () => {
    const h = await createHarness()
    const theirs = h.makeConnection(h.b.id, { token: 'beta-secret-token-1234' })
    const admin = await h.as(h.a.admin)
    const created = await admin.post('/whatsapp', { name: 'Principal', token: theirs.token })
    expect(created.status).toBe(201)
    expect(created.body.token).not.toBe(theirs.token)
    expect(created.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    for (const token of [theirs.token, 'my-own-chosen-token']) {
      const res = await admin.put(`/whatsapp/${created.body.id}`, { name: 'Principal', token })
      expect(res.status).toBe(200)
      expect(res.body.token).toBe(created.body.token)
    }
    const row = h.db.select().from(whatsapps).where(eq(whatsapps.id, theirs.id)).get()
    expect(row?.token).toBe(theirs.token)
  })

  test('a new token: it differs, the old one stops matching, admins are told live', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { body: connection } = await admin.post('/whatsapp', { name: 'Principal' })
    const events = h.recordEvents()
    const res = await admin.post(`/whatsapp/${connection.id}/token`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: connection.id, name: 'Principal' })
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(res.body.token).not.toBe(connection.token)
    const byToken = (token: string) => h.db.select().from(whatsapps).where(eq(whatsapps.token, token)).get()
    expect(byToken(connection.token)).toBeUndefined()
    expect(byToken(res.body.token)?.id).toBe(connection.id)
    expect((await admin.get(`/whatsapp/${connection.id}`)).body.token).toBe(res.body.token)
    expect(events).toContainEqual(
      expect.objectContaining({
        room: `company:${h.a.id}:admins`,
        event: `company-${h.a.id}-whatsapp`,
        data: { action: 'update', whatsapp: expect.objectContaining({ token: res.body.token }) },
      }),
    )
    expect(events.every((e) => !e.room.startsWith(`company:${h.b.id}`))).toBe(true)
  })

  test("attendants cannot renew a token; another company's connection answers 404", async () => {
    const h = await createHarness()
    const foreign = h.makeConnection(h.b.id)
    const mine = h.makeConnection(h.a.id)
    const agent = await h.as(h.a.attendant)
    const denied = await agent.post(`/whatsapp/${mine.id}/token`)
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe('ERR_NO_PERMISSION')
    const admin = await h.as(h.a.admin)
    const res = await admin.post(`/whatsapp/${foreign.id}/token`)
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('ERR_NO_WAPP_FOUND')
    const row = h.db.select().from(whatsapps).where(eq(whatsapps.id, foreign.id)).get()
    expect(row?.token).toBe(foreign.token)
    expect((await admin.post('/whatsapp/abc/token')).status).toBe(404)
  })
})

describe('session state and its reason', () => {
  test('a session that cannot reach WhatsApp says why, live; retry and new QR work from where it stopped', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Principal' })
    const first = h.sessions.get(body.id)!
    const events = h.recordEvents()
    await first.emit({
      t: 'status',
      status: 'OPENING',
      reason: 408,
      statusReason: 'no_network',
      retryInMs: 1_000,
    })
    expect((await admin.get(`/whatsapp/${body.id}`)).body).toMatchObject({
      status: 'OPENING',
      statusReason: 'no_network',
      retries: 1,
    })
    await first.emit({ t: 'status', status: 'DISCONNECTED', reason: 408, statusReason: 'no_network' })
    const sessionFrames = events
      .filter((e) => e.event === `company-${h.a.id}-whatsappSession` && e.room.endsWith(':admins'))
      .map((e) => (e.data as { session: { status: string; statusReason: string | null } }).session)
    expect(sessionFrames.map((s) => [s.status, s.statusReason])).toEqual([
      ['OPENING', 'no_network'],
      ['DISCONNECTED', 'no_network'],
    ])

    // retry: a fresh start, the old reason cleared
    const retried = await admin.post(`/whatsappsession/${body.id}`)
    expect(retried.status).toBe(200)
    expect(retried.body).toMatchObject({ status: 'qrcode', statusReason: null, retries: 0 })
    expect(h.sessions.get(body.id)!.calls.filter((c) => c.method === 'start')).toHaveLength(2)

    await h.sessions.get(body.id)!.emit({ t: 'status', status: 'DISCONNECTED', statusReason: 'logged_out' })
    const renewed = await admin.put(`/whatsappsession/${body.id}`)
    expect(renewed.body).toMatchObject({ status: 'qrcode', statusReason: null })
    expect(renewed.body.qrcode).toStartWith('fake-qr-')
  })

  test('starting a connected session leaves it connected', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Principal' })
    const session = h.sessions.get(body.id)!
    await session.emit({ t: 'status', status: 'CONNECTED', me: { jid: '5511999990000@s.whatsapp.net' } })
    const res = await admin.post(`/whatsappsession/${body.id}`)
    expect(res.body.status).toBe('CONNECTED')
    expect(h.sessions.get(body.id)).toBe(session)
    expect(session.calls.filter((c) => c.method === 'start')).toHaveLength(1)
  })

  test('starting a session that waits for a scan starts it over with a fresh QR code', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Principal' })
    const old = h.sessions.get(body.id)!
    const res = await admin.post(`/whatsappsession/${body.id}`)
    expect(res.body.status).toBe('qrcode')
    expect(old.calls.map((c) => c.method)).toEqual(['start', 'stop'])
    expect(h.sessions.get(body.id)).not.toBe(old)
  })

  test('a restarted server retries sessions that stopped for a passing cause, not those a person must fix', async () => {
    const h = await createHarness()
    const offline = h.makeConnection(h.a.id, { status: 'DISCONNECTED', statusReason: 'no_network' })
    const unlinked = h.makeConnection(h.a.id, { status: 'DISCONNECTED', statusReason: 'logged_out' })
    const banned = h.makeConnection(h.b.id, { status: 'DISCONNECTED', statusReason: 'banned' })
    await h.deps.channels.startAll(0)
    expect(h.sessions.has(offline.id)).toBe(true)
    expect(h.sessions.has(unlinked.id)).toBe(false)
    expect(h.sessions.has(banned.id)).toBe(false)
  })
})

describe('a real (Baileys) session that cannot reach WhatsApp', () => {
  test('shows why while it retries, shows DISCONNECTED after the bound, and a retry from there shows a QR', async () => {
    const f = fakeSocketFactory()
    let build: ChannelProvider | undefined
    const h = await createHarness({ providers: { beta: (connection) => build!(connection) } })
    build = createBaileysProvider({
      log: silentLogger,
      clock: h.clock,
      authState: async () => ({
        state: { creds: initAuthCreds(), keys: { get: async () => ({}), set: async () => {} } },
        saveCreds() {},
        clear() {},
      }),
      socketFactory: f.factory,
      fetchVersion: null,
      maxRetries: 2,
      random: () => 1,
    })
    const admin = await h.as(h.a.admin)
    const { body } = await admin.post('/whatsapp', { name: 'Principal' })
    const state = async () => (await admin.get(`/whatsapp/${body.id}`)).body
    for (const retries of [1, 2]) {
      f.current.sim.close(408, 'getaddrinfo ENOTFOUND web.whatsapp.com')
      await settle()
      expect(await state()).toMatchObject({ status: 'OPENING', statusReason: 'no_network', retries })
      h.clock.advance(h.clock.delays()[0]!)
      await settle()
    }
    f.current.sim.close(408, 'getaddrinfo ENOTFOUND web.whatsapp.com')
    await settle()
    expect(await state()).toMatchObject({ status: 'DISCONNECTED', statusReason: 'no_network' })
    // it keeps trying, slowly (issue 20, defect 10: it used to stop for good)
    expect(h.clock.delays()).toEqual([SLOW_RETRY_MS])

    const retried = await admin.post(`/whatsappsession/${body.id}`)
    expect(retried.body).toMatchObject({ status: 'OPENING', statusReason: null, retries: 0 })
    f.current.sim.qr()
    await settle()
    expect(await state()).toMatchObject({ status: 'qrcode', statusReason: null })
    expect((await state()).qrcode).not.toBe('')
  })
})
