import { describe, expect, test } from 'bun:test'
import { createHarness } from '../test/harness'
import { pageCount, pageOf, pageWindow } from './paging'
import { plans } from './schema'

describe('paging helper', () => {
  test('asks for one row more than the page and cuts it off to answer hasMore', () => {
    const at = pageWindow(2, 3)
    expect(at).toEqual({ size: 3, offset: 3, limit: 4 })
    expect(pageOf([1, 2, 3, 4], at)).toEqual({ rows: [1, 2, 3], hasMore: true, offset: 3 })
    expect(pageOf([1, 2], at)).toEqual({ rows: [1, 2], hasMore: false, offset: 3 })
    expect(pageWindow(undefined, 20).offset).toBe(0)
  })

  test('counts only while more pages exist, or past the end', () => {
    let counted = 0
    const count = () => {
      counted++
      return 99
    }
    expect(pageCount(pageOf([1, 2], pageWindow(3, 3)), count)).toBe(8)
    expect(pageCount(pageOf([], pageWindow(1, 3)), count)).toBe(0)
    expect(counted).toBe(0)
    expect(pageCount(pageOf([1, 2, 3, 4], pageWindow(1, 3)), count)).toBe(99)
    expect(pageCount(pageOf([], pageWindow(9, 3)), count)).toBe(99)
    expect(counted).toBe(2)
  })
})

describe('the users, companies and plans lists page with it', () => {
  test('companies: 20 a page, count and hasMore, and an empty page past the end', async () => {
    const h = await createHarness()
    for (let i = 0; i < 25; i++) h.makeCompany(`Empresa ${String(i).padStart(2, '0')}`)
    const root = await h.as(h.superAdmin.email)
    const first = await root.get('/companies?pageNumber=1')
    expect(first.body).toMatchObject({ count: 28, hasMore: true })
    expect(first.body.companies).toHaveLength(20)
    const second = await root.get('/companies?pageNumber=2')
    expect(second.body).toMatchObject({ count: 28, hasMore: false })
    expect(second.body.companies).toHaveLength(8)
    const past = await root.get('/companies?pageNumber=9')
    expect(past.body).toEqual({ companies: [], count: 28, hasMore: false })
    const search = await root.get('/companies?searchParam=EMPRESA%2007')
    expect(search.body.companies.map((c: { name: string }) => c.name)).toEqual(['Empresa 07'])
    expect((await root.get('/companies?searchParam=_')).body.count).toBe(0)
  })

  test('plans: the same shape, and timestamps as ISO text in the response', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    for (let i = 0; i < 21; i++)
      h.db
        .insert(plans)
        .values({ name: `Plano ${String(i).padStart(2, '0')}`, createdAt: now, updatedAt: now })
        .run()
    const root = await h.as(h.superAdmin.email)
    const first = await root.get('/plans')
    expect(first.body).toMatchObject({ count: 22, hasMore: true })
    expect(first.body.plans[0].createdAt).toBe(new Date(now).toISOString())
    const second = await root.get('/plans?pageNumber=2')
    expect(second.body).toMatchObject({ count: 22, hasMore: false })
    expect(second.body.plans).toHaveLength(2)
  })
})
