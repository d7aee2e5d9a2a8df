/** Junk on the super user's platform settings: never a 500; junk keys are 404; nothing is stored from junk. */
import { describe, expect, test } from 'bun:test'
import { platformSettings } from '../../db/schema'
import { createHarness } from '../../test/harness'
import { expectJunkBodiesRefused, expectNo500, expectRefused, JUNK_VALUES } from '../../test/probe'

describe('platform settings: probes', () => {
  test('junk bodies, values and keys', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    await expectJunkBodiesRefused(h, root.token, 'PUT', '/platform-settings/pixKey')
    for (const value of JUNK_VALUES) {
      const label = JSON.stringify(value)?.slice(0, 40)
      expectNo500(`value ${label}`, await root.put('/platform-settings/smtpUrl', { value }))
    }
    for (const key of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '%00',
      'PIXKEY',
      'x'.repeat(500),
    ])
      expectRefused(key, await root.put(`/platform-settings/${key}`, { value: 'x' }), 404)
    // Only the string values (and the clearing ones) were taken: nothing else is stored.
    const stored = h.db.select().from(platformSettings).all()
    expect(stored.every((r) => r.key === 'smtpUrl' || r.key === 'pixKey')).toBe(true)
  })
})
