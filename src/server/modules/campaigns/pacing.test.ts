import { describe, expect, test } from 'bun:test'
import { silentLogger } from '../../logger'
import { createHarness } from '../../test/harness'
import { readPacing, readProtection } from './pacing'
import { setCampaignSettings } from './testing'

describe("the campaigns' pace reads the settings strictly", () => {
  test('a broken value is logged with its key and paces by the default; valid ones apply', async () => {
    const h = await createHarness()
    const warnings: string[] = []
    const deps = {
      sqlite: h.deps.sqlite,
      log: {
        ...silentLogger,
        warn: (msg: string, fields?: object) => warnings.push(`${msg} ${JSON.stringify(fields)}`),
      },
    }
    setCampaignSettings(h, h.a.id, { messageInterval: 40, dailyLimit: 120 })
    expect(readPacing(deps, h.a.id).messageInterval).toBe(40)
    expect(readProtection(deps, h.a.id).dailyLimit).toBe(120)
    expect(warnings).toEqual([])
    h.deps.sqlite
      .query(
        "UPDATE campaign_settings SET value = '{not json' WHERE company_id = ? AND key = 'messageInterval'",
      )
      .run(h.a.id)
    const fallback = readPacing({ sqlite: h.deps.sqlite, log: silentLogger }, h.b.id).messageInterval
    expect(readPacing(deps, h.a.id).messageInterval).toBe(fallback)
    expect(warnings.join('\n')).toContain('"key":"messageInterval"')
  })

  test('an unreadable settings table stops the sender loudly instead of pacing by defaults', async () => {
    const h = await createHarness()
    h.deps.sqlite.run('ALTER TABLE campaign_settings RENAME TO campaign_settings_gone')
    expect(() => readPacing(h.deps, h.a.id)).toThrow()
    expect(() => readProtection(h.deps, h.a.id)).toThrow()
  })
})
