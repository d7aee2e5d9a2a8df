/** The sandbox's inbound, a placed call included: junk, other companies and roles (the rest is sandbox.test.ts). */
import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
} from '../../test/probe'

async function setup() {
  const h = await createHarness({ sandbox: true })
  const admin = await h.as(h.a.admin)
  const { body: conn } = await admin.post('/whatsapp', { name: 'Demo', provider: 'sandbox' })
  await admin.post(`/sandbox/connections/${conn.id}/pair`)
  return { h, admin, path: `/sandbox/connections/${conn.id}/inbound` }
}

const call = { from: '5511977776666', call: true }

describe('sandbox inbound: probes', () => {
  test('junk bodies and content types are refused; a call with anything but video, name, id, lidOnly, timestamp is 400', async () => {
    const { h, admin, path } = await setup()
    await expectJunkBodiesRefused(h, admin.token, 'POST', path)
    const full = {
      ...call,
      video: true,
      name: 'Maria',
      id: 'CALL123456',
      lidOnly: true,
      timestamp: 1,
      offline: false,
    }
    for (const body of mutations(full))
      expectNo500(JSON.stringify(body).slice(0, 80), await admin.post(path, body))
    for (const extra of [
      { call: 'true' },
      { call: 1 },
      { body: 'oi' },
      { media: { kind: 'image', mimetype: 'image/png' } },
      { location: { latitude: 0, longitude: 0 } },
      { contact: { name: 'A', phone: '5511999990000' } },
      { reaction: { to: 'ABCDEF', emoji: '👍' } },
      { edit: { id: 'ABCDEF', body: 'x' } },
      { delete: { id: 'ABCDEF' } },
      { group: { id: '12345' } },
      { replyTo: 'ABCDEF' },
      { fromMe: true },
      { id: '../../etc/passwd' },
      { timestamp: -1 },
      { timestamp: Number.MAX_VALUE },
    ])
      expectRefused(JSON.stringify(extra), await admin.post(path, { ...call, ...extra }), 400)
    expectRefused(
      'video without call',
      await admin.post(path, { from: call.from, video: true, body: 'oi' }),
      400,
    )
    for (const batch of [[call], [{ from: '5511999990001', body: 'oi' }, call]]) {
      const res = await admin.post(path, batch)
      expectRefused('call in a batch', res, 400)
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(`[${batch.length - 1}].call`)
    }
    expectRefused(
      'duplicate keys',
      await admin.post(path, '{"from":"5511977776666","call":true,"call":"x"}'),
      400,
    )
    expect((await admin.post(path, call)).status).toBe(201)
  })

  test("junk ids are 404; another company's connection is 404 and an attendant's call 403", async () => {
    const { h, admin, path } = await setup()
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['POST', '/sandbox/connections/:id/inbound'],
        ['POST', '/sandbox/connections/:id/pair'],
        ['GET', '/sandbox/connections/:id/outbound'],
      ],
      'ERR_NO_WAPP_FOUND',
    )
    const other = await h.as(h.b.admin)
    const res = await other.post(path, call)
    expectRefused('other company', res, 404)
    expect(res.body.error).toBe('ERR_NO_WAPP_FOUND')
    expectRefused('attendant', await (await h.as(h.a.attendant)).post(path, call), 403)
    // A connection of another provider is no sandbox connection.
    const beta = h.makeConnection(h.a.id)
    expectRefused('not sandbox', await admin.post(`/sandbox/connections/${beta.id}/inbound`, call), 404)
  })
})
