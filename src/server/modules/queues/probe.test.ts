/** Junk to the queue routes, service hours included (the rest is queues.test.ts). */
import { describe, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import { expectJunkBodiesRefused, expectJunkIds404, expectNo500, mutations } from '../../test/probe'

describe('queues: probes', () => {
  test('junk bodies, content types, service hours and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const queue = h.makeQueue(h.a.id)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/queue')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/queue/${queue.id}`)
    const entry = { weekdayEn: 'friday', startTime: '22:00', endTime: '02:00' }
    const base = {
      name: 'Probe',
      color: '#0a0b0c',
      orderQueue: 1,
      greetingMessage: 'Olá {{name}}',
      outOfHoursMessage: 'Fechado',
      schedules: [entry],
      integrationId: null,
      promptId: null,
    }
    for (const body of mutations(base)) {
      expectNo500(`POST ${JSON.stringify(body).slice(0, 80)}`, await admin.post('/queue', body))
      expectNo500(`PUT ${JSON.stringify(body).slice(0, 80)}`, await admin.put(`/queue/${queue.id}`, body))
    }
    for (const e of mutations(entry))
      expectNo500(JSON.stringify(e), await admin.put(`/queue/${queue.id}`, { ...base, schedules: [e] }))
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/queue/:id'],
        ['PUT', '/queue/:id'],
        ['DELETE', '/queue/:id'],
      ],
      'ERR_NO_QUEUE_FOUND',
    )
  })
})
