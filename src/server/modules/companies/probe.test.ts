/** Junk, other companies' ids and roles on a company's service hours (the rest is schedules.test.ts). */
import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
} from '../../test/probe'

const monday = { weekday: 'Segunda', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }

describe('company service hours: probes', () => {
  test('junk bodies, content types, entries and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const path = `/companies/${h.a.id}/schedules`
    await expectJunkBodiesRefused(h, admin.token, 'PUT', path)
    for (const body of mutations({ schedules: [monday] }))
      expectNo500(JSON.stringify(body), await admin.put(path, body))
    for (const entry of mutations(monday))
      expectNo500(JSON.stringify(entry).slice(0, 80), await admin.put(path, { schedules: [entry] }))
    for (const schedules of [
      [monday, monday],
      [
        { ...monday, weekdayEn: 'MONDAY ' },
        { ...monday, weekdayEn: 'monday' },
      ],
      [{ ...monday, startTime: '８:00' }],
      [{ ...monday, endTime: '23:60' }],
      [{ ...monday, weekdayEn: '__proto__' }],
      Array(8).fill(monday),
      { 0: monday, length: 1 },
    ])
      expectRefused(JSON.stringify(schedules).slice(0, 60), await admin.put(path, { schedules }), 400)
    expectRefused('duplicate keys', await admin.put(path, '{"schedules":[],"schedules":"x"}'), 400)
    // The hours are unchanged by everything refused.
    expect((await admin.get(path)).body.schedules[0]).toMatchObject({ weekdayEn: 'monday' })
  })

  test('junk ids answer 404 on both routes', async () => {
    const h = await createHarness()
    for (const email of [h.a.admin, h.superAdmin.email]) {
      const client = await h.as(email)
      await expectJunkIds404(
        h,
        client.token,
        [
          ['GET', '/companies/:id/schedules'],
          ['PUT', '/companies/:id/schedules'],
        ],
        'ERR_NO_COMPANY_FOUND',
      )
    }
  })

  test("another company's id is 404 to its attendants and admins alike; the attendant's own is 403", async () => {
    const h = await createHarness()
    const agent = await h.as(h.b.attendant)
    for (const res of [
      await agent.get(`/companies/${h.a.id}/schedules`),
      await agent.put(`/companies/${h.a.id}/schedules`, { schedules: [monday] }),
    ])
      expectRefused('other company', res, 404)
    expectRefused(
      'own, as attendant',
      await agent.put(`/companies/${h.b.id}/schedules`, { schedules: [monday] }),
      403,
    )
    expectRefused('platform', await agent.get(`/companies/${h.platform.id}/schedules`), 404)
  })
})
