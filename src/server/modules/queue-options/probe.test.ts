/** Junk, other companies' ids and roles on every queue-options route (the rest is queue-options.test.ts). */
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  expectUploadJunkRefused,
  mutations,
  png,
  uploadTo,
} from '../../test/probe'

async function setup() {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const queue = h.makeQueue(h.a.id)
  const top = (await admin.post('/queue-options', { queueId: queue.id, title: 'Topo' })).body as {
    id: number
  }
  return { h, admin, queue, top }
}

describe('queue options: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const { h, admin, queue, top } = await setup()
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/queue-options')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/queue-options/${top.id}`)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/queue-options/reorder')
    const create = { queueId: queue.id, parentId: top.id, title: 'Filha', message: 'm', option: '7' }
    for (const body of mutations(create))
      expectNo500(`POST ${JSON.stringify(body).slice(0, 80)}`, await admin.post('/queue-options', body))
    for (const body of mutations({ title: 'T', message: 'm', option: '1' }))
      expectNo500(
        `PUT ${JSON.stringify(body).slice(0, 80)}`,
        await admin.put(`/queue-options/${top.id}`, body),
      )
    for (const body of mutations({ queueId: queue.id, parentId: null, ids: [top.id] }))
      expectNo500(
        `reorder ${JSON.stringify(body).slice(0, 80)}`,
        await admin.post('/queue-options/reorder', body),
      )
    for (const option of ['0', '1000', '-1', '1.5', '１', ' 2 ', '2e0', '٣'])
      expectNo500(
        `option ${option}`,
        await admin.post('/queue-options', { queueId: queue.id, title: 'P', option }),
      )
    for (const ids of [[top.id, top.id], [top.id, 9007199254740991], Array(501).fill(top.id)])
      expectRefused(
        `ids ${ids.length}`,
        await admin.post('/queue-options/reorder', { queueId: queue.id, parentId: -1, ids }),
        400,
      )
    expectRefused(
      'duplicate keys',
      await admin.post('/queue-options', `{"queueId":${queue.id},"title":"A","title":[]}`),
      400,
    )
  })

  test('junk ids answer 404 on every route; junk queries 400', async () => {
    const { h, admin, queue } = await setup()
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/queue-options/:id'],
        ['PUT', '/queue-options/:id'],
        ['DELETE', '/queue-options/:id'],
        ['POST', '/queue-options/:id/media-upload'],
        ['DELETE', '/queue-options/:id/media-upload'],
      ],
      'ERR_NO_QUEUE_OPTION_FOUND',
    )
    for (const q of [
      'queueId=-1',
      'queueId=1.5',
      'queueId=NaN',
      `queueId=${queue.id}&parentId=1.5`,
      `queueId=${queue.id}&parentId=-2`,
    ])
      expectRefused(q, await admin.get(`/queue-options?${q}`), 400)
  })

  test("another company's option in a reorder list is refused and nothing moves", async () => {
    const { h, admin, queue, top } = await setup()
    const other = await h.as(h.b.admin)
    const theirQueue = h.makeQueue(h.b.id)
    const theirs = (await other.post('/queue-options', { queueId: theirQueue.id, title: 'B' })).body
    const res = await admin.post('/queue-options/reorder', {
      queueId: queue.id,
      parentId: -1,
      ids: [theirs.id],
    })
    expectRefused('foreign ids', res, 400)
    expect((await other.get(`/queue-options/${theirs.id}`)).body.option).toBe('1')
    expect((await admin.get(`/queue-options/${top.id}`)).body.option).toBe('1')
  })

  test('attendants get 403 on every route, even for an id that does not exist', async () => {
    const { h, queue, top } = await setup()
    const agent = await h.as(h.a.attendant)
    for (const [method, path] of [
      ['GET', `/queue-options?queueId=${queue.id}`],
      ['GET', `/queue-options/${top.id}`],
      ['GET', '/queue-options/99999'],
      ['POST', '/queue-options/reorder'],
      ['DELETE', `/queue-options/${top.id}/media-upload`],
    ] as const) {
      const res = await h.call(method, path, {
        token: agent.token,
        body: method === 'POST' ? { queueId: queue.id, parentId: -1, ids: [top.id] } : undefined,
      })
      expectRefused(`${method} ${path}`, res, 403)
    }
  })

  test('multipart: no file, two files, a string, the wrong field, no body: 4xx and nothing stored', async () => {
    const { h, admin, top } = await setup()
    const path = `/queue-options/${top.id}/media-upload`
    await expectUploadJunkRefused(h, path, admin.token)
    expect(existsSync(join(h.deps.mediaDir, String(h.a.id)))).toBe(false)
    // A name with a path in it is a display name only: its last segment.
    const ok = await uploadTo(h, path, admin.token, [{ value: png('../../a\u0000"b.png') }])
    expect(ok.status).toBe(200)
    expect(ok.body.mediaName).not.toContain('/')
    expect(ok.body.mediaName).toEndWith('b.png')
  })
})
