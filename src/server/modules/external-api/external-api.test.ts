import { describe, expect, test } from 'bun:test'
import type { ChannelSession } from '../../channels/types'
import { flushMicrotasks } from '../../clock'
import { plans } from '../../db/schema'
import { samples } from '../../media/testing'
import { createHarness, type Harness } from '../../test/harness'
import { connected, messageRow, spyOnSends } from '../messages/testing'
import { makeContact, makeTicket } from '../tickets/testing'
import { API_BURST } from './throttle'

async function send(h: Harness, token: string | null, body: unknown, headers: Record<string, string> = {}) {
  const res = await h.app.request('/api/messages/send', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
  return { status: res.status, body: (await res.json()) as any, headers: res.headers }
}

async function setup(h?: Harness) {
  const harness = h ?? (await createHarness())
  const { connection, session } = await connected(harness, harness.a.id)
  const spy = spyOnSends(harness, session)
  return { h: harness, connection, session, spy, token: connection.token }
}

describe('POST /api/messages/send (a connection token)', () => {
  test("the message lands in the contact's ticket like any other, sent through that connection", async () => {
    const { h, connection, spy, token } = await setup()
    const events = h.recordEvents()
    const res = await send(h, token, {
      number: '+55 (11) 98888-7777',
      body: '  Seu pedido saiu para entrega  ',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Message sent' })
    const [message] = res.body.messages
    expect(message).toMatchObject({
      body: 'Seu pedido saiu para entrega',
      fromMe: true,
      sendState: 'sent',
      ack: 1,
      userId: null,
    })
    expect(spy.calls[0]).toMatchObject({
      to: { jid: '5511988887777@s.whatsapp.net' },
      content: { kind: 'text' },
    })
    const ticket = h.deps.sqlite
      .query<{ whatsappId: number; status: string; contactId: number }, [number]>(
        'SELECT whatsapp_id AS whatsappId, status, contact_id AS contactId FROM tickets WHERE id = ?',
      )
      .get(res.body.ticketId)!
    expect(ticket).toMatchObject({
      whatsappId: connection.id,
      status: 'pending',
      contactId: res.body.contactId,
    })
    expect(events.some((e) => e.event === `company-${h.a.id}-appMessage`)).toBe(true)
    expect(events.every((e) => !e.room.startsWith(`company:${h.b.id}`))).toBe(true)
    // A second message to the same person goes to the same contact and ticket.
    const again = await send(h, token, { number: '5511988887777', body: 'Chegou?' })
    expect(again.body).toMatchObject({ ticketId: res.body.ticketId, contactId: res.body.contactId })
  })

  test('an existing contact and its open ticket are used', async () => {
    const { h, connection, token } = await setup()
    const contact = makeContact(h, h.a.id, { number: '5511977776666' })
    const ticket = makeTicket(h, h.a.id, { contactId: contact.id, whatsappId: connection.id, status: 'open' })
    const res = await send(h, token, { number: '5511977776666', body: 'Olá' })
    expect(res.body).toMatchObject({ ticketId: ticket.id, contactId: contact.id })
  })

  test('an unknown or missing token is 401; a user session token is not a connection token', async () => {
    const { h } = await setup()
    expect((await send(h, 'no-such-token', { number: '5511988887777', body: 'x' })).status).toBe(401)
    expect((await send(h, null, { number: '5511988887777', body: 'x' })).status).toBe(401)
    const userToken = await h.login(h.a.admin)
    expect((await send(h, userToken, { number: '5511988887777', body: 'x' })).status).toBe(401)
  })

  test('a number WhatsApp does not know, or no number at all: ERR_WAPP_INVALID_CONTACT', async () => {
    const { h, session, token, spy } = await setup()
    ;(session as ChannelSession).checkNumbers = async (phones) =>
      phones.map((phone) => ({ phone, exists: false }))
    const res = await send(h, token, { number: '5511900000000', body: 'x' })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_WAPP_INVALID_CONTACT')
    expect((await send(h, token, { number: 'abc', body: 'x' })).body.error).toBe('ERR_WAPP_INVALID_CONTACT')
    expect((await send(h, token, { number: '123', body: 'x' })).body.error).toBe('ERR_WAPP_INVALID_CONTACT')
    expect(h.deps.sqlite.query('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 })
    expect(spy.calls).toHaveLength(0)
  })

  test('a disconnected connection: ERR_WAPP_NOT_INITIALIZED, nothing written', async () => {
    const { h, session, token } = await setup()
    await session.emit({ t: 'status', status: 'DISCONNECTED' })
    const res = await send(h, token, { number: '5511988887777', body: 'x' })
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('ERR_WAPP_NOT_INITIALIZED')
    expect(h.deps.sqlite.query('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 })
  })

  test('a send WhatsApp refuses answers ERR_SENDING_WAPP_MSG; the message stays in the ticket, retryable', async () => {
    const { h, spy, token } = await setup()
    spy.state.fail = new Error('not-acceptable')
    const res = await send(h, token, { number: '5511988887777', body: 'x' })
    expect(res.status).toBe(502)
    expect(res.body).toMatchObject({
      error: 'ERR_SENDING_WAPP_MSG',
      details: { ticketId: expect.any(Number) },
    })
    const [id] = res.body.details.messageIds
    expect(messageRow(h, id)).toMatchObject({ sendState: 'failed' })
  })

  test('throttled per token: a burst, then 429 with Retry-After; another token is not affected; time refills', async () => {
    const { h, token } = await setup()
    for (let i = 0; i < API_BURST; i++)
      expect((await send(h, token, { number: '5511988887777', body: `m${i}` })).status).toBe(200)
    const limited = await send(h, token, { number: '5511988887777', body: 'demais' })
    expect(limited.status).toBe(429)
    expect(limited.body.error).toBe('ERR_TOO_MANY_ATTEMPTS')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    const other = await connected(h, h.a.id)
    spyOnSends(h, other.session)
    expect((await send(h, other.connection.token, { number: '5511988887777', body: 'x' })).status).toBe(200)
    h.clock.advance(1_000)
    expect((await send(h, token, { number: '5511988887777', body: 'de novo' })).status).toBe(200)
  })

  test('bad input is 400; multipart with files works', async () => {
    const { h, token, spy } = await setup()
    expect((await send(h, token, { number: '5511988887777', body: '   ' })).status).toBe(400)
    expect((await send(h, token, { body: 'x' })).status).toBe(400)
    expect((await send(h, token, 'not json')).status).toBe(400)
    const form = new FormData()
    form.append('number', '5511988887777')
    form.append('medias', new File([samples.pdf()], 'boleto.pdf', { type: 'application/pdf' }))
    const res = await h.app.request('/api/messages/send', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    expect(res.status).toBe(200)
    await flushMicrotasks()
    expect(spy.calls.at(-1)!.content).toMatchObject({ kind: 'document', fileName: 'boleto.pdf' })
  })

  test("the plan's useExternalApi flag gates it (403 ERR_PLAN_FEATURE_DISABLED)", async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const plan = h.db
      .insert(plans)
      .values({ name: 'Sem API', useExternalApi: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem API Ltda', { planId: plan.id })
    const { connection } = await connected(h, company.id)
    const res = await send(h, connection.token, { number: '5511988887777', body: 'x' })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({
      error: 'ERR_PLAN_FEATURE_DISABLED',
      details: { flag: 'useExternalApi' },
    })
  })
})
