/** Junk, other companies' ids and the plan flag on the Kanban routes (the rest is kanban.test.ts). */
import { describe, expect, test } from 'bun:test'
import { plans } from '../../db/schema'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
} from '../../test/probe'
import { makeContact, makeTag, makeTicket } from '../contacts/testing'

describe('kanban: probes', () => {
  test('junk bodies, content types and tag ids are refused; never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const ticket = makeTicket(h, h.a.id, { contactId: makeContact(h, h.a.id).id })
    const lane = makeTag(h, h.a.id, 'Lane', '#111111', 1)
    const path = `/ticket/kanban/${ticket.id}`
    await expectJunkBodiesRefused(h, admin.token, 'PUT', path)
    for (const body of mutations({ tagId: lane.id }))
      expectNo500(JSON.stringify(body), await admin.put(path, body))
    expectRefused('duplicate keys', await admin.put(path, `{"tagId":${lane.id},"tagId":"x"}`), 400)
    await expectJunkIds404(h, admin.token, [['PUT', '/ticket/kanban/:id']], 'ERR_NO_TICKET_FOUND')
  })

  test('junk queries are 400, never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const q of [
      'queueIds=[-1]',
      'queueIds=[NaN]',
      'queueIds=[9007199254740993]',
      'queueIds=["1"]',
      'queueIds=[[1]]',
      'queueIds=null',
      'queueIds=1',
      `queueIds=${encodeURIComponent(JSON.stringify(Array.from({ length: 201 }, (_, i) => i + 1)))}`,
      `queueIds=${encodeURIComponent(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)}`,
      'showAll=TRUE',
      'pageNumber=1.5',
      'pageNumber=100001',
    ])
      expectRefused(q, await admin.get(`/ticket/kanban?${q}`), 400)
    expect((await admin.get('/ticket/kanban?queueIds=[]&showAll=false&other=1')).status).toBe(200)
  })

  test("another company's queue ids in the filter bring none of its tickets", async () => {
    const h = await createHarness()
    const theirQueue = h.makeQueue(h.b.id)
    makeTicket(h, h.b.id, { contactId: makeContact(h, h.b.id).id, queueId: theirQueue.id })
    makeTicket(h, h.b.id, { contactId: makeContact(h, h.b.id).id })
    for (const email of [h.a.admin, h.a.attendant]) {
      const client = await h.as(email)
      const res = await client.get(`/ticket/kanban?showAll=true&queueIds=[${theirQueue.id}]`)
      expect(res.status).toBe(200)
      expect(res.body.tickets).toEqual([])
    }
    const b = await h.as(h.b.admin)
    expect((await b.get('/ticket/kanban?showAll=true')).body.tickets).toHaveLength(2)
  })

  test('the plan flag useKanban off refuses every spelling of the board and lanes (403)', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const plan = h.db
      .insert(plans)
      .values({ name: 'Sem Kanban', useKanban: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Kanban', { planId: plan.id })
    const client = await h.as(h.makeUser(company.id).email)
    const ticket = makeTicket(h, company.id, { contactId: makeContact(h, company.id).id })
    const lane = makeTag(h, company.id, 'Lane', '#111111', 1)
    for (const [method, path] of [
      ['GET', '/ticket/kanban/'],
      ['GET', '/ticket/kanban?queueIds=[1]'],
      ['GET', '/tags/kanban/'],
      ['PUT', `/ticket/kanban/${ticket.id}/`],
      ['PUT', '/ticket/kanban/abc'],
    ] as const) {
      const res = await h.call(method, path, {
        token: client.token,
        body: method === 'PUT' ? { tagId: lane.id } : undefined,
      })
      expectRefused(`${method} ${path}`, res, 403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
  })
})
