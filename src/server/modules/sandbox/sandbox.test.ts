import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import { doorOf } from '../outbound/door'

describe('sandbox API (--sandbox)', () => {
  test('without the flag the sandbox routes do not exist and sandbox connections are refused', async () => {
    const h = await createHarness()
    const connection = h.makeConnection(h.a.id, { provider: 'sandbox' })
    const admin = await h.as(h.a.admin)
    expect((await admin.post(`/sandbox/connections/${connection.id}/pair`)).status).toBe(404)
    expect(
      (
        await admin.post(`/sandbox/connections/${connection.id}/inbound`, {
          from: '5511999990001',
          body: 'Olá',
        })
      ).status,
    ).toBe(404)
    expect((await admin.get(`/sandbox/connections/${connection.id}/outbound`)).status).toBe(404)
    expect((await admin.post('/whatsapp', { name: 'Sandbox', provider: 'sandbox' })).status).toBe(400)
    expect((await h.call('GET', '/health')).body.sandbox).toBe(false)
  })

  test('a sandbox connection shows a QR code, pairs by itself after a few seconds and goes CONNECTED, live', async () => {
    const h = await createHarness({ sandbox: true })
    expect((await h.call('GET', '/health')).body.sandbox).toBe(true)
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    const created = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    expect(created.status).toBe(201)
    expect(created.body.status).toBe('qrcode')
    expect(created.body.qrcode).toContain(',')
    expect(created.body.expirationTime).toBe(h.clock.now() + 60_000)
    await h.clock.tick(5_000)
    const after = await admin.get(`/whatsapp/${created.body.id}`)
    expect(after.body.status).toBe('CONNECTED')
    expect(after.body.number).toMatch(/^\d{12,13}$/)
    const statuses = events
      .filter((e) => e.event === `company-${h.a.id}-whatsappSession` && e.room.endsWith(':admins'))
      .map((e) => (e.data as { session: { status: string } }).session.status)
    expect(statuses[0]).toBe('OPENING')
    expect(statuses).toContain('qrcode')
    expect(statuses.at(-1)).toBe('CONNECTED')
  })

  test('pair at once, inject inbound messages to the sink, and see what Balcão sent with its acks', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const { body: connection } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    const before = await admin.post(`/sandbox/connections/${connection.id}/inbound`, {
      from: '5511999990001',
      body: 'cedo demais',
    })
    expect(before.status).toBe(409)
    expect(before.body.error).toBe('ERR_WAPP_NOT_INITIALIZED')

    expect((await admin.post(`/sandbox/connections/${connection.id}/pair`)).status).toBe(200)
    expect((await admin.get(`/whatsapp/${connection.id}`)).body.status).toBe('CONNECTED')

    const received: { t: string; body?: string; pushName?: string }[] = []
    h.deps.channels.onEvent((_conn, event) => {
      received.push(event as never)
    })
    const injected = await admin.post(`/sandbox/connections/${connection.id}/inbound`, {
      from: '5511999990001',
      name: 'Maria',
      body: 'Olá',
    })
    expect(injected.status).toBe(201)
    expect(typeof injected.body.id).toBe('string')
    expect(received).toContainEqual(expect.objectContaining({ t: 'message', body: 'Olá', pushName: 'Maria' }))
    const bad = await admin.post(`/sandbox/connections/${connection.id}/inbound`, { body: 'sem remetente' })
    expect(bad.status).toBe(400)

    await doorOf(h.deps, connection.id).turn('conversation', (turn) =>
      turn
        .claim(() => true)!
        .send({ jid: '5511999990001@s.whatsapp.net' }, { kind: 'text', body: 'Bom dia!' }),
    )
    const sent = await admin.get(`/sandbox/connections/${connection.id}/outbound`)
    expect(sent.body).toEqual([
      expect.objectContaining({ to: '5511999990001@s.whatsapp.net', kind: 'text', body: 'Bom dia!', ack: 0 }),
    ])
    await h.clock.tick(2_000)
    expect((await admin.get(`/sandbox/connections/${connection.id}/outbound`)).body[0].ack).toBe(4)
    const acks = received.filter((e) => e.t === 'ack').map((e) => (e as unknown as { ack: number }).ack)
    expect(acks).toEqual([1, 2, 4])
  })

  test("another company's sandbox connection answers 404; attendants are refused", async () => {
    const h = await createHarness({ sandbox: true })
    const other = await h.as(h.b.admin)
    const { body: connection } = await other.post('/whatsapp', { name: 'Beta Demo', provider: 'sandbox' })
    const admin = await h.as(h.a.admin)
    for (const res of [
      await admin.post(`/sandbox/connections/${connection.id}/pair`),
      await admin.post(`/sandbox/connections/${connection.id}/inbound`, { from: '5511999990001', body: 'x' }),
      await admin.get(`/sandbox/connections/${connection.id}/outbound`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND')
    }
    const agent = await h.as(h.b.attendant)
    expect((await agent.get(`/sandbox/connections/${connection.id}/outbound`)).status).toBe(403)
  })

  test('on a --sandbox server a new connection is a sandbox one unless it asks for the real provider', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const plain = await admin.post('/whatsapp', { name: 'Demo' })
    expect(plain.status).toBe(201)
    expect(plain.body.provider).toBe('sandbox')
    const real = await admin.post('/whatsapp', { name: 'Real', provider: 'beta' })
    expect(real.body.provider).toBe('beta')
  })

  test('starting again a connection that waits for its QR shows a fresh QR, then pairs after the usual delay', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const { body: created } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    const seen = [created.qrcode]
    await h.clock.tick(3_000)
    const events = h.recordEvents()
    for (const restart of [
      () => admin.post(`/whatsappsession/${created.id}`),
      () => admin.put(`/whatsappsession/${created.id}`),
    ]) {
      const res = await restart()
      expect(res.status).toBe(200)
      expect(res.body.status).toBe('qrcode')
      expect(res.body.qrcode).toContain(',')
      expect(seen).not.toContain(res.body.qrcode)
      expect(res.body.expirationTime).toBe(h.clock.now() + 60_000)
      seen.push(res.body.qrcode)
      await h.clock.tick(3_000)
      expect((await admin.get(`/whatsapp/${created.id}`)).body.status).toBe('qrcode')
    }
    await h.clock.tick(2_000)
    expect((await admin.get(`/whatsapp/${created.id}`)).body.status).toBe('CONNECTED')
    const shown = events
      .filter((e) => e.event === `company-${h.a.id}-whatsappSession` && e.room.endsWith(':admins'))
      .map((e) => (e.data as { session: { status: string; qrcode: string } }).session)
    const qrs = new Set(shown.filter((s) => s.status === 'qrcode').map((s) => s.qrcode))
    expect([...qrs]).toEqual(seen.slice(1))
    expect(shown.at(-1)?.status).toBe('CONNECTED')
  })

  test('starting a connected sandbox connection keeps it connected', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const { body: created } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    await admin.post(`/sandbox/connections/${created.id}/pair`)
    const res = await admin.post(`/whatsappsession/${created.id}`)
    expect(res.body.status).toBe('CONNECTED')
    await h.clock.tick(60_000)
    expect((await admin.get(`/whatsapp/${created.id}`)).body.status).toBe('CONNECTED')
  })

  test('a disconnect it cannot recover from is shown with its reason; retry pairs again', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const { body: created } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    await admin.post(`/sandbox/connections/${created.id}/pair`)
    await h.deps.sandboxNetwork!.simulateDisconnect(created.id, 440)
    expect((await admin.get(`/whatsapp/${created.id}`)).body).toMatchObject({
      status: 'DISCONNECTED',
      statusReason: 'replaced',
    })
    const retried = await admin.post(`/whatsappsession/${created.id}`)
    expect(retried.body).toMatchObject({ status: 'CONNECTED', statusReason: null })
  })

  test('a customer shares a contact card as the README shows it, or in the short form', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const { body: connection } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    await admin.post(`/sandbox/connections/${connection.id}/pair`)
    const cards: { displayName: string; vcard: string }[] = []
    h.deps.channels.onEvent((_conn, event) => {
      if (event.t === 'message') cards.push(...(event.vcards ?? []))
    })
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João Silva\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD'
    const inbound = (contact: unknown) =>
      admin.post(`/sandbox/connections/${connection.id}/inbound`, { from: '5511999990001', contact })
    expect((await inbound({ displayName: 'João', vcard })).status).toBe(201)
    expect((await inbound({ vcard })).status).toBe(201)
    expect((await inbound({ name: 'Ana', phone: '5511977776666' })).status).toBe(201)
    expect(cards.map((c) => c.displayName)).toEqual(['João', 'João Silva', 'Ana'])
    expect(cards[0]?.vcard).toBe(vcard)
    expect(cards[2]?.vcard).toContain('waid=5511977776666')
    const bad = await inbound({ displayName: 'X', vcard: 'not a card' })
    expect(bad.status).toBe(400)
    expect(bad.body.fields).toEqual([
      { field: 'contact.vcard', message: 'must be a vCard (BEGIN:VCARD … END:VCARD)' },
    ])
  })

  test('a batch of inbound messages: every one checked first, each committed before the 201 with the ids', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const { body: connection } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    expect((await admin.post(`/sandbox/connections/${connection.id}/pair`)).status).toBe(200)
    const path = `/sandbox/connections/${connection.id}/inbound`
    const count = () =>
      h.deps.sqlite.query<{ n: number }, []>('SELECT count(*) n FROM messages WHERE from_me = 0').get()!.n
    const before = count()

    const bad = await admin.post(path, [{ from: '5511999990001', body: 'certo' }, { from: '5511999990002' }])
    expect(bad.status).toBe(400)
    expect(bad.body.fields).toEqual([{ field: '[1].body', message: expect.any(String) }])
    expect(count()).toBe(before)
    expect((await admin.post(path, [])).status).toBe(400)
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ from: '5511999990001', body: `m ${i}` }))
    expect((await admin.post(path, tooMany)).status).toBe(400)

    const batch = await admin.post(path, [
      { from: '5511999990001', name: 'Maria', body: 'um' },
      { from: '5511999990002', name: 'João', body: 'dois' },
      { from: '5511999990001', body: 'três', id: 'ABCDEF123456' },
    ])
    expect(batch.status).toBe(201)
    expect(batch.body.ids).toHaveLength(3)
    expect(batch.body.ids[2]).toBe('ABCDEF123456')
    // acknowledged means stored: no waiting
    expect(count()).toBe(before + 3)
    // the same id again is the same message (idempotent)
    expect(
      (await admin.post(path, [{ from: '5511999990001', body: 'três', id: 'ABCDEF123456' }])).status,
    ).toBe(201)
    expect(count()).toBe(before + 3)

    // stored together, published as one per message would be, with each ticket's update once; an edit in the
    // same batch finds the message it edits (held messages are stored before any other event)
    const events = h.recordEvents()
    const mixed = await admin.post(path, [
      { from: '5511999990003', body: 'primeira', id: 'EDITME000001' },
      { from: '5511999990003', body: 'segunda' },
      { from: '5511999990003', edit: { id: 'EDITME000001', body: 'primeira, corrigida' } },
      { from: '5511999990003', body: 'terceira' },
    ])
    expect(mixed.status).toBe(201)
    expect(count()).toBe(before + 6)
    const edited = h.deps.sqlite
      .query<{ body: string }, []>("SELECT body FROM messages WHERE wid = 'EDITME000001'")
      .get()
    expect(edited?.body).toBe('primeira, corrigida')
    const admins = events.filter((e) => e.room === `company:${h.a.id}:admins`)
    const creates = admins.filter(
      (e) => e.event === `company-${h.a.id}-appMessage` && (e.data as { action: string }).action === 'create',
    )
    expect(creates.map((e) => (e.data as { message: { body: string } }).message.body)).toEqual([
      'primeira',
      'segunda',
      'terceira',
    ])

    // batches and single messages at the same time: each answer comes after its own messages are committed
    const wids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${100000 + i}`)
    const stored = (ids: string[]) =>
      h.deps.sqlite
        .query<{ n: number }, string[]>(
          `SELECT count(*) n FROM messages WHERE wid IN (${ids.map(() => '?').join(',')})`,
        )
        .get(...ids)!.n
    const batchA = wids('BATCHA', 20)
    const batchB = wids('BATCHB', 20)
    const singles = wids('SINGLE', 5)
    const post = async (ids: string[]) => {
      const r = await admin.post(
        path,
        ids.map((id, i) => ({ from: `551199999${1000 + i}`, body: id, id })),
      )
      expect(r.status).toBe(201)
      expect(stored(ids)).toBe(ids.length)
    }
    const single = async (id: string) => {
      const r = await admin.post(path, { from: '5511999990009', body: id, id })
      expect(r.status).toBe(201)
      expect(stored([id])).toBe(1)
    }
    await Promise.all([post(batchA), ...singles.map(single), post(batchB)])

    // a message that cannot be stored: the others still are (each on its own), and the answer is not a 201
    h.deps.sqlite.run(
      "CREATE TEMP TRIGGER refuse BEFORE INSERT ON messages WHEN NEW.body = 'falha' BEGIN SELECT RAISE(ABORT, 'no'); END",
    )
    const partly = await admin.post(path, [
      { from: '5511999990004', body: 'antes', id: 'PARTLY000001' },
      { from: '5511999990004', body: 'falha', id: 'PARTLY000002' },
      { from: '5511999990004', body: 'depois', id: 'PARTLY000003' },
    ])
    expect(partly.status).toBe(500)
    expect(partly.body.error).toBe('ERR_CREATING_MESSAGE')
    expect(stored(['PARTLY000001', 'PARTLY000002', 'PARTLY000003'])).toBe(2)
  })
})
