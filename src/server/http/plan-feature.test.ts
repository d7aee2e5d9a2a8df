import { describe, expect, test } from 'bun:test'
import { Hono } from 'hono'
import { PLAN_FLAGS, PLAN_GATED_PATHS, type PlanFlag } from '../../shared/plans'
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

describe('every gated area answers 403 when the plan lacks its flag', () => {
  async function companyWithout(flag: PlanFlag) {
    const h = await createHarness()
    const now = h.clock.now()
    const plan = h.db
      .insert(plans)
      .values({ name: `Sem ${flag}`, [flag]: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany(`Sem ${flag} Ltda`, { planId: plan.id })
    const admin = h.makeUser(company.id, { profile: 'admin' })
    return { h, token: await h.login(admin.email) }
  }

  for (const flag of PLAN_FLAGS) {
    const paths = PLAN_GATED_PATHS[flag]
    if (paths.length === 0) continue
    test(`${flag}: ${paths.join(', ')}`, async () => {
      const { h, token } = await companyWithout(flag)
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
      for (const path of paths) {
        for (const [method, url] of [
          ['GET', `/api${path}`],
          ['POST', `/api${path}/1`],
        ] as const) {
          const res = await h.app.request(url, {
            method,
            headers,
            body: method === 'POST' ? '{}' : undefined,
          })
          expect({ url, status: res.status }).toEqual({ url, status: 403 })
          expect(await res.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', details: { flag } })
        }
      }
      // The same paths for a company whose plan has the flag are not refused by the gate.
      const allowed = await h.login(h.a.admin)
      for (const path of paths) {
        const res = await h.app.request(`/api${path}`, { headers: { authorization: `Bearer ${allowed}` } })
        expect(res.status).not.toBe(403)
      }
    })
  }

  // useExternalApi's path has no signed-in user: the caller is a connection token, so the route gates itself.
  test('useExternalApi: POST /api/messages/send (a connection token)', async () => {
    const { h } = await companyWithout('useExternalApi')
    const company = h.makeCompany('Sem API externa Ltda', {
      planId: h.db
        .select()
        .from(plans)
        .all()
        .find((p) => p.useExternalApi === false)!.id,
    })
    const gated = h.makeConnection(company.id)
    const allowed = h.makeConnection(h.a.id)
    const post = (token: string) =>
      h.app.request('/api/messages/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ number: '5511988887777', body: 'Olá' }),
      })
    const res = await post(gated.token)
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({
      error: 'ERR_PLAN_FEATURE_DISABLED',
      details: { flag: 'useExternalApi' },
    })
    // With the flag, the gate lets it through (the connection is not started: the next check answers).
    const ok = await post(allowed.token)
    expect(ok.status).not.toBe(403)
    expect((await ok.json()).error).toBe('ERR_WAPP_NOT_INITIALIZED')
  })

  test('a gated path still asks for a token first', async () => {
    const h = await createHarness()
    const res = await h.app.request('/api/schedules')
    expect(res.status).toBe(401)
  })
})
