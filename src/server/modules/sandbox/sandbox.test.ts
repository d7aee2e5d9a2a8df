import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'

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
    await h.timers.advance(5_000)
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

    await h.deps.channels.send(
      connection.id,
      { jid: '5511999990001@s.whatsapp.net' },
      { kind: 'text', body: 'Bom dia!' },
    )
    const sent = await admin.get(`/sandbox/connections/${connection.id}/outbound`)
    expect(sent.body).toEqual([
      expect.objectContaining({ to: '5511999990001@s.whatsapp.net', kind: 'text', body: 'Bom dia!', ack: 0 }),
    ])
    await h.timers.advance(2_000)
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
})
