import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { defaultSchedules } from '../../../shared/schedules'
import { companies } from '../../db/schema'
import { createHarness } from '../../test/harness'

const week = defaultSchedules().map((s) =>
  s.weekdayEn === 'sunday' ? { ...s, startTime: '10:00', endTime: '14:00' } : s,
)

describe('company service hours', () => {
  test('an admin reads the defaults, saves the hours and reads them back; stored as the shared JSON', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const first = await admin.get(`/companies/${h.a.id}/schedules`)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ id: h.a.id, schedules: defaultSchedules() })
    const put = await admin.put(`/companies/${h.a.id}/schedules`, { schedules: week })
    expect(put.status).toBe(200)
    expect(put.body.schedules[6]).toEqual({
      weekday: 'Domingo',
      weekdayEn: 'sunday',
      startTime: '10:00',
      endTime: '14:00',
    })
    expect((await admin.get(`/companies/${h.a.id}/schedules`)).body.schedules).toEqual(week)
    const row = h.db.select().from(companies).where(eq(companies.id, h.a.id)).get()!
    expect(JSON.parse(row.schedules)[0]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTime: '08:00',
      endTime: '18:00',
    })
  })

  test('the super user may edit any company; other admins get 404, attendants 403', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    expect((await root.put(`/companies/${h.b.id}/schedules`, { schedules: week })).status).toBe(200)
    const other = await h.as(h.b.admin)
    for (const r of [
      await other.get(`/companies/${h.a.id}/schedules`),
      await other.put(`/companies/${h.a.id}/schedules`, { schedules: week }),
      await other.get('/companies/99999/schedules'),
    ])
      expect([r.status, r.body.error]).toEqual([404, 'ERR_NO_COMPANY_FOUND'])
    expect((await root.get('/companies/99999/schedules')).status).toBe(404)
    const agent = await h.as(h.a.attendant)
    expect((await agent.put(`/companies/${h.a.id}/schedules`, { schedules: week })).status).toBe(403)
    expect((await agent.get(`/companies/${h.a.id}/schedules`)).status).toBe(403)
    // The rest of /companies stays the super user's (an admin reads their own company only).
    expect((await other.put(`/companies/${h.b.id}`, { dueDate: '2099-01-01' })).status).toBe(403)
    expect((await other.get('/companies')).status).toBe(403)
  })

  test('bad input answers 400', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const body of [
      {},
      { schedules: 'x' },
      { schedules: [{ weekdayEn: 'monday', startTime: '08:00', endTime: '8:30' }] },
      { schedules: [{ weekdayEn: 'someday', startTime: '08:00', endTime: '18:00' }] },
      { schedules: new Array(8).fill({ weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }) },
    ]) {
      const r = await admin.put(`/companies/${h.a.id}/schedules`, body)
      expect(r.status).toBe(400)
    }
    expect((await admin.put(`/companies/0${h.a.id}/schedules`, { schedules: week })).status).toBe(404)
  })
})
