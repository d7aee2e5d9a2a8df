import { describe, expect, test } from 'bun:test'
import { opusPackets, webmOpus } from '../../media/testing'
import { createHarness } from '../../test/harness'

/** The whole path on the simulated network: Baileys' shapes, the inbound pipeline, the channel's acks. */
describe('messages through the sandbox', () => {
  test('a customer writes, the attendant replies quoting them and sends a voice note; acks move forward', async () => {
    const h = await createHarness({ sandbox: true })
    const admin = await h.as(h.a.admin)
    const { body: connection } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
    await admin.post(`/sandbox/connections/${connection.id}/pair`)
    const inbound = await admin.post(`/sandbox/connections/${connection.id}/inbound`, {
      from: '5511999990001',
      name: 'Maria',
      body: 'Olá, meu pedido atrasou',
    })
    expect(inbound.status).toBe(201)
    await h.clock.tick(100)
    const ticketId = h.deps.sqlite
      .query<{ id: number }, [number]>('SELECT id FROM tickets WHERE company_id = ? ORDER BY id DESC LIMIT 1')
      .get(h.a.id)!.id
    h.deps.sqlite
      .query(`UPDATE tickets SET status = 'open', user_id = ? WHERE id = ?`)
      .run(h.a.adminId, ticketId)
    const opened = await admin.get(`/messages/${ticketId}`)
    const customer = opened.body.messages[0]
    expect(customer).toMatchObject({ body: 'Olá, meu pedido atrasou', fromMe: false, wid: inbound.body.id })

    const reply = await admin.post(`/messages/${ticketId}`, {
      body: 'Vou verificar!',
      quotedMsg: customer.id,
    })
    expect(reply.status).toBe(201)
    const form = new FormData()
    form.append('medias', new File([webmOpus(opusPackets(25))], 'gravacao.webm', { type: 'audio/webm' }))
    const voice = await h.app.request(`/api/messages/${ticketId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    })
    expect(voice.status).toBe(201)
    await h.clock.tick(50)
    const sent = (await admin.get(`/sandbox/connections/${connection.id}/outbound`)).body
    expect(sent).toHaveLength(2)
    expect(sent[0]).toMatchObject({ kind: 'text', body: 'Vou verificar!', quotedId: inbound.body.id })
    expect(sent[1]).toMatchObject({ kind: 'audio', media: { mimetype: 'audio/ogg; codecs=opus' } })

    await h.clock.tick(5_000)
    const after = (await admin.get(`/messages/${ticketId}`)).body.messages
    const ours = after.filter((m: { fromMe: boolean }) => m.fromMe)
    expect(ours).toHaveLength(2)
    for (const m of ours) {
      expect(m.sendState).toBe('sent')
      expect(m.wid).toBeTruthy()
      expect(m.ack).toBeGreaterThanOrEqual(2)
    }
    expect(ours[0].quotedMsg).toMatchObject({ id: customer.id })
    expect(ours[1]).toMatchObject({ mediaType: 'audio', ptt: true })
    // Acks never go back, whatever arrives late.
    const top = ours.map((m: { ack: number }) => m.ack)
    await h.clock.tick(60_000)
    const later = (await admin.get(`/messages/${ticketId}`)).body.messages.filter(
      (m: { fromMe: boolean }) => m.fromMe,
    )
    later.forEach((m: { ack: number }, i: number) => {
      expect(m.ack).toBeGreaterThanOrEqual(top[i])
    })
  })
})
