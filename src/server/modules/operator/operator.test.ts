import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'

const operator = { authorization: 'Operator operator-test-token' }

describe('operator API (the terminal)', () => {
  test('needs the operator credential; user tokens do not work', async () => {
    const h = await createHarness()
    expect((await h.call('GET', '/operator/connections')).status).toBe(401)
    expect(
      (await h.call('GET', '/operator/connections', { headers: { authorization: 'Operator wrong' } })).status,
    ).toBe(401)
    const root = await h.login(h.superAdmin.email)
    expect((await h.call('GET', '/operator/connections', { token: root })).status).toBe(401)
  })

  test('lists every company connection and pairs one from the terminal', async () => {
    const h = await createHarness()
    const a = h.makeConnection(h.a.id, { name: 'Alpha WA' })
    h.makeConnection(h.b.id, { name: 'Beta WA' })
    const list = await h.call('GET', '/operator/connections', { headers: operator })
    expect(list.status).toBe(200)
    expect(list.body.map((c: { companyName: string; name: string }) => `${c.companyName}/${c.name}`)).toEqual(
      ['Alpha/Alpha WA', 'Beta/Beta WA'],
    )
    const paired = await h.call('POST', `/operator/connections/${a.id}/pair`, {
      headers: operator,
      body: { phone: '5511999990000' },
    })
    expect(paired.status).toBe(202)
    expect(paired.body).toMatchObject({ id: a.id, status: 'PAIRING', pairingCode: 'ABCD1234' })
    const qr = await h.call('POST', `/operator/connections/${a.id}/pair`, { headers: operator })
    expect(qr.body).toMatchObject({ status: 'qrcode', qrcode: `fake-qr-${a.id}` })
    expect(
      (await h.call('GET', `/operator/connections/${a.id}`, { headers: operator })).body.expirationTime,
    ).toBeGreaterThan(0)
    expect((await h.call('GET', '/operator/connections/999', { headers: operator })).status).toBe(404)
  })
})
