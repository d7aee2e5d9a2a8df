import { describe, expect, test } from 'bun:test'
import { Hono } from 'hono'
import { plans } from '../db/schema'
import { createHarness } from '../test/harness'
import { requireAuth, requirePlanFeature } from './auth'
import type { AppEnv } from './env'
import { handleError } from './errors'

/** Areas gated by a plan flag mount this middleware; it is tested here on a small route of its own. */
async function gatedApp() {
  const h = await createHarness()
  const app = new Hono<AppEnv>()
  app.onError(handleError)
  app.use(async (c, next) => {
    c.set('deps', h.deps)
    await next()
  })
  app.get('/api/schedules', requireAuth, requirePlanFeature('useSchedules'), (c) => c.json({ ok: true }))
  return { h, app }
}

describe('plan flags gate routes on the server', () => {
  test('a plan with the flag on passes', async () => {
    const { h, app } = await gatedApp()
    const token = await h.login(h.a.attendant)
    const res = await app.request('/api/schedules', { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
  })

  test('a plan with the flag off answers 403 ERR_PLAN_FEATURE_DISABLED, whatever the profile', async () => {
    const { h, app } = await gatedApp()
    const now = h.clock.now()
    const basic = h.db
      .insert(plans)
      .values({ name: 'Sem agenda', useSchedules: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Agenda Ltda', { planId: basic.id })
    const admin = h.makeUser(company.id, { profile: 'admin' })
    const token = await h.login(admin.email)
    const res = await app.request('/api/schedules', { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({
      error: 'ERR_PLAN_FEATURE_DISABLED',
      details: { flag: 'useSchedules' },
    })
  })
})
