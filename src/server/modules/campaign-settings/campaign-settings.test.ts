import { describe, expect, test } from 'bun:test'
import { plans } from '../../db/schema'
import { silentLogger } from '../../logger'
import { createHarness } from '../../test/harness'
import { expectJunkBodiesRefused, expectNo500, expectRefused, JUNK_VALUES } from '../../test/probe'
import { readCampaignSettings } from './service'

const DEFAULTS = [
  { key: 'messageInterval', value: 20 },
  { key: 'longerIntervalAfter', value: 20 },
  { key: 'greaterInterval', value: 60 },
  { key: 'dailyLimit', value: null },
  { key: 'sendWindow', value: null },
  { key: 'variables', value: [] },
]

describe('campaign settings', () => {
  test('unset: the spec defaults; a save answers and persists the whole settings, per company', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const other = await h.as(h.b.admin)
    expect((await admin.get('/campaign-settings')).body).toEqual(DEFAULTS)
    const events = h.recordEvents()
    const saved = await admin.post('/campaign-settings', {
      settings: {
        messageInterval: 5,
        greaterInterval: 120,
        variables: [
          { key: 'loja', value: 'Centro' },
          { key: ' loja ', value: 'ignored duplicate' },
          { key: 'cupom', value: 'BLACK10' },
        ],
        unknown: 1,
      },
    })
    expect(saved.status).toBe(200)
    const expected = [
      { key: 'messageInterval', value: 5 },
      { key: 'longerIntervalAfter', value: 20 },
      { key: 'greaterInterval', value: 120 },
      { key: 'dailyLimit', value: null },
      { key: 'sendWindow', value: null },
      {
        key: 'variables',
        value: [
          { key: 'loja', value: 'Centro' },
          { key: 'cupom', value: 'BLACK10' },
        ],
      },
    ]
    expect(saved.body).toEqual(expected)
    expect((await admin.get('/campaign-settings')).body).toEqual(expected)
    // Another company is untouched.
    expect((await other.get('/campaign-settings')).body).toEqual(DEFAULTS)
    // Keys left out keep their values.
    await admin.post('/campaign-settings', { settings: { longerIntervalAfter: 0 } })
    const after = (await admin.get('/campaign-settings')).body
    expect(after[0]).toEqual({ key: 'messageInterval', value: 5 })
    expect(after[1]).toEqual({ key: 'longerIntervalAfter', value: 0 })
    // Stored per key as JSON, which the campaigns engine reads.
    const rows = h.deps.sqlite
      .query('SELECT key, value FROM campaign_settings WHERE company_id = ? ORDER BY key')
      .all(h.a.id)
    expect(rows).toContainEqual({ key: 'messageInterval', value: '5' })
    expect(rows).toContainEqual({
      key: 'variables',
      value: '[{"key":"loja","value":"Centro"},{"key":"cupom","value":"BLACK10"}]',
    })
    const live = events.filter((e) => e.event === `company-${h.a.id}-campaignSettings`)
    expect(live.length).toBe(2)
    expect(live[0]).toMatchObject({ room: `company:${h.a.id}:admins`, data: { action: 'update' } })
  })

  test('values outside the spec options are 400', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const settings of [
      { messageInterval: 7 },
      { messageInterval: 30 },
      { messageInterval: '20' },
      { longerIntervalAfter: 2 },
      { greaterInterval: 121 },
      { greaterInterval: -1 },
      { variables: [{ key: '', value: 'x' }] },
      { variables: [{ key: 'a b', value: 'x' }] },
      { variables: [{ key: '{x}', value: 'x' }] },
      { variables: [{ key: 'k'.repeat(51), value: 'x' }] },
      { variables: [{ key: 'k', value: 'v'.repeat(1001) }] },
      { variables: Array.from({ length: 101 }, (_, i) => ({ key: `k${i}`, value: '' })) },
      { variables: 'x' },
    ]) {
      const res = await admin.post('/campaign-settings', { settings })
      expectRefused(JSON.stringify(settings).slice(0, 60), res, 400)
    }
    expectRefused('no settings', await admin.post('/campaign-settings', {}), 400)
    for (const option of [0, 5, 10, 15, 20])
      expect((await admin.post('/campaign-settings', { settings: { messageInterval: option } })).status).toBe(
        200,
      )
    for (const option of [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120]) {
      const res = await admin.post('/campaign-settings', {
        settings: { longerIntervalAfter: option, greaterInterval: option },
      })
      expect(res.status).toBe(200)
    }
    expect((await admin.get('/campaign-settings')).body[0]).toEqual({ key: 'messageInterval', value: 20 })
  })

  test('dailyLimit (whole 1..10000, null: the warm-up) and sendWindow (two HH:MM that differ, may cross midnight; null: any hour)', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const get = async () =>
      Object.fromEntries(
        ((await admin.get('/campaign-settings')).body as { key: string; value: unknown }[]).map((i) => [
          i.key,
          i.value,
        ]),
      )
    const saved = await admin.post('/campaign-settings', {
      settings: { dailyLimit: 120, sendWindow: { start: '22:00', end: '06:30', extra: 1 } },
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toContainEqual({ key: 'dailyLimit', value: 120 })
    expect(saved.body).toContainEqual({ key: 'sendWindow', value: { start: '22:00', end: '06:30' } })
    expect(await get()).toMatchObject({ dailyLimit: 120, sendWindow: { start: '22:00', end: '06:30' } })
    // The engine reads the same rows.
    const rows = h.deps.sqlite
      .query('SELECT key, value FROM campaign_settings WHERE company_id = ? ORDER BY key')
      .all(h.a.id)
    expect(rows).toContainEqual({ key: 'dailyLimit', value: '120' })
    expect(rows).toContainEqual({ key: 'sendWindow', value: '{"start":"22:00","end":"06:30"}' })
    for (const settings of [
      { dailyLimit: 0 },
      { dailyLimit: -1 },
      { dailyLimit: 10001 },
      { dailyLimit: 1.5 },
      { dailyLimit: '50' },
      { dailyLimit: true },
      { sendWindow: '22:00-06:00' },
      { sendWindow: { start: '22:00' } },
      { sendWindow: { start: '24:00', end: '06:00' } },
      { sendWindow: { start: '9:00', end: '18:00' } },
      { sendWindow: { start: '09:00', end: '18:60' } },
      { sendWindow: { start: '09:00:00', end: '18:00' } },
      { sendWindow: { start: '10:00', end: '10:00' } },
      { sendWindow: { start: 900, end: 1800 } },
      { sendWindow: [] },
    ]) {
      const res = await admin.post('/campaign-settings', { settings })
      expectRefused(JSON.stringify(settings).slice(0, 60), res, 400)
    }
    // Refused bodies changed nothing.
    expect(await get()).toMatchObject({ dailyLimit: 120, sendWindow: { start: '22:00', end: '06:30' } })
    for (const dailyLimit of [1, 10000])
      expect((await admin.post('/campaign-settings', { settings: { dailyLimit } })).status).toBe(200)
    expect((await get()).dailyLimit).toBe(10000)
    // null turns each back off: the warm-up, any hour.
    const off = await admin.post('/campaign-settings', { settings: { dailyLimit: null, sendWindow: null } })
    expect(off.status).toBe(200)
    expect(await get()).toMatchObject({ dailyLimit: null, sendWindow: null })
  })

  test('admins only; an attendant is 403', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    expect((await agent.get('/campaign-settings')).status).toBe(403)
    expect((await agent.post('/campaign-settings', { settings: { messageInterval: 5 } })).status).toBe(403)
    expect((await h.call('GET', '/campaign-settings')).status).toBe(401)
  })

  test('plan flag useCampaigns off: 403 ERR_PLAN_FEATURE_DISABLED', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const basic = h.db
      .insert(plans)
      .values({ name: 'Sem campanhas', useCampaigns: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Campanhas', { planId: basic.id })
    const admin = h.makeUser(company.id, { profile: 'admin' })
    const token = await h.login(admin.email)
    for (const method of ['GET', 'POST']) {
      const res = await h.call(method, '/campaign-settings', {
        token,
        body: method === 'POST' ? { settings: {} } : undefined,
      })
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
  })

  test('probes: junk bodies and values are 4xx, never a 500; a stored value that is not JSON reads as default', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/campaign-settings')
    for (const value of JUNK_VALUES) {
      for (const key of [
        'messageInterval',
        'longerIntervalAfter',
        'greaterInterval',
        'dailyLimit',
        'sendWindow',
        'variables',
      ])
        expectNo500(
          `${key}=${JSON.stringify(value)}`,
          await admin.post('/campaign-settings', { settings: { [key]: value } }),
        )
      expectNo500(
        `sendWindow.start=${JSON.stringify(value)}`,
        await admin.post('/campaign-settings', { settings: { sendWindow: { start: value, end: '10:00' } } }),
      )
      expectNo500(
        `settings=${JSON.stringify(value)}`,
        await admin.post('/campaign-settings', { settings: value }),
      )
      expectNo500(
        `variable=${JSON.stringify(value)}`,
        await admin.post('/campaign-settings', { settings: { variables: [{ key: value, value }] } }),
      )
    }
    h.deps.sqlite.query('UPDATE campaign_settings SET value = ? WHERE company_id = ?').run('not json', h.a.id)
    const res = await admin.get('/campaign-settings')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(DEFAULTS)
  })

  test('one reader: a broken row is logged with its key and reads as its default; an unreadable table throws', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const warnings: string[] = []
    h.deps.log = { ...silentLogger, warn: (msg, fields) => warnings.push(`${msg} ${JSON.stringify(fields)}`) }
    await admin.post('/campaign-settings', { settings: { messageInterval: 5, dailyLimit: 300 } })
    expect((await admin.get('/campaign-settings')).body).toContainEqual({ key: 'dailyLimit', value: 300 })
    expect(warnings).toEqual([])
    const store = h.deps.sqlite.query(
      'UPDATE campaign_settings SET value = ? WHERE company_id = ? AND key = ?',
    )
    store.run('{"start":', h.a.id, 'messageInterval')
    store.run('"lots"', h.a.id, 'dailyLimit')
    const res = await admin.get('/campaign-settings')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(DEFAULTS)
    expect(warnings).toHaveLength(2)
    expect(warnings.join('\n')).toContain('"key":"messageInterval"')
    expect(warnings.join('\n')).toContain('"key":"dailyLimit"')
    h.deps.sqlite.run('ALTER TABLE campaign_settings RENAME TO campaign_settings_gone')
    expect(() => readCampaignSettings(h.deps, h.a.id)).toThrow()
  })
})
