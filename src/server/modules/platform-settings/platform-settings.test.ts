import { beforeEach, describe, expect, test } from 'bun:test'
import { platformSettings } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { platformSetting } from './service'

let h: Harness
let root: Awaited<ReturnType<Harness['as']>>
beforeEach(async () => {
  h = await createHarness()
  root = await h.as(h.superAdmin.email)
})

describe('platform settings', () => {
  test('only the super user reads or writes them', async () => {
    for (const email of [h.a.admin, h.a.attendant]) {
      const user = await h.as(email)
      expect((await user.get('/platform-settings')).status).toBe(403)
      expect((await user.put('/platform-settings/pixKey', { value: 'x' })).status).toBe(403)
    }
    expect((await root.get('/platform-settings')).status).toBe(200)
  })

  test('a saved value wins over the environment; clearing it falls back', async () => {
    h.deps.env = { BALCAO_PIX_KEY: 'env@example.com' }
    expect(platformSetting(h.deps, 'pixKey')).toBe('env@example.com')
    const saved = await root.put('/platform-settings/pixKey', { value: ' pix@example.com ' })
    expect(saved.body).toMatchObject({
      key: 'pixKey',
      value: 'pix@example.com',
      source: 'settings',
      isSet: true,
    })
    expect(platformSetting(h.deps, 'pixKey')).toBe('pix@example.com')
    const cleared = await root.put('/platform-settings/pixKey', { value: null })
    expect(cleared.body).toMatchObject({ value: 'env@example.com', source: 'environment' })
  })

  test('secrets are sealed in the database and never answered', async () => {
    const url = 'smtp://ana:s3nh4@mail.example:587'
    const saved = await root.put('/platform-settings/smtpUrl', { value: url })
    expect(saved.body).toMatchObject({
      key: 'smtpUrl',
      value: null,
      secret: true,
      isSet: true,
      source: 'settings',
    })
    const list = await root.get('/platform-settings')
    expect(JSON.stringify(list.body)).not.toContain('s3nh4')
    const row = h.deps.db.select().from(platformSettings).all()[0]
    expect(row?.value).not.toContain('s3nh4')
    expect(platformSetting(h.deps, 'smtpUrl')).toBe(url)
  })

  test('unknown keys answer 404; long or wrongly typed values 400', async () => {
    expect((await root.put('/platform-settings/nope', { value: 'x' })).status).toBe(404)
    expect((await root.put('/platform-settings/pixMerchantCity', { value: 'x'.repeat(16) })).status).toBe(400)
    expect((await root.put('/platform-settings/pixKey', { value: 12 })).status).toBe(400)
    expect((await root.put('/platform-settings/pixKey', { value: { a: 1 } })).status).toBe(400)
    expect((await root.put('/platform-settings/pixKey', [])).status).toBe(400)
  })
})
