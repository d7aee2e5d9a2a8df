import { describe, expect, test } from 'bun:test'
import { SETTING_KEYS } from '../../../shared/settings'
import { createHarness } from '../../test/harness'

describe('settings', () => {
  test('every company has every setting with its default', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const res = await agent.get('/settings')
    expect(res.status).toBe(200)
    expect(res.body.map((s: { key: string }) => s.key)).toEqual(SETTING_KEYS)
    expect(res.body).toContainEqual({ key: 'userRating', value: 'disabled' })
    expect(res.body).toContainEqual({ key: 'scheduleType', value: 'disabled' })
  })

  test('an admin changes a setting; only that company sees the change, live', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    const res = await admin.put('/settings/scheduleType', { key: 'scheduleType', value: 'queue' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ key: 'scheduleType', value: 'queue' })
    expect((await admin.get('/settings')).body).toContainEqual({ key: 'scheduleType', value: 'queue' })
    const other = await h.as(h.b.admin)
    expect((await other.get('/settings')).body).toContainEqual({ key: 'scheduleType', value: 'disabled' })
    expect(events.filter((e) => e.event.endsWith('-settings'))).toEqual([
      {
        room: `company:${h.a.id}`,
        event: `company-${h.a.id}-settings`,
        data: { action: 'update', setting: { key: 'scheduleType', value: 'queue' } },
      },
    ])
  })

  test('unknown keys answer 404 ERR_NO_SETTING_FOUND, bad values 400, attendants 403', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const unknown = await admin.put('/settings/nope', { value: 'enabled' })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toBe('ERR_NO_SETTING_FOUND')
    const bad = await admin.put('/settings/userRating', { value: 'maybe' })
    expect(bad.status).toBe(400)
    expect(bad.body.fields[0].field).toBe('value')
    expect((await admin.put('/settings/userRating', {})).status).toBe(400)
    const agent = await h.as(h.a.attendant)
    expect((await agent.put('/settings/userRating', { value: 'enabled' })).status).toBe(403)
  })
})
