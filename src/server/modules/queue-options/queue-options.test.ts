import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { queueOptions } from '../../db/schema'
import { samples } from '../../media/testing'
import { createHarness, type Harness } from '../../test/harness'

type Opt = { id: number; option: string; title: string; parentId: number; children: Opt[] }

async function setup() {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const queue = h.makeQueue(h.a.id, { name: 'Atendimento' })
  const add = async (title: string, parentId: number | null = null, extra: Record<string, unknown> = {}) => {
    const res = await admin.post('/queue-options', { queueId: queue.id, parentId, title, ...extra })
    expect(res.status).toBe(201)
    return res.body as Opt
  }
  return { h, admin, queue, add }
}

const upload = async (h: Harness, token: string, id: number | string, file: File | null, field = 'file') => {
  const form = new FormData()
  if (file) form.append(field, file)
  const r = await h.app.request(`/api/queue-options/${id}/media-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return { status: r.status, body: await r.json() }
}

describe('queue options', () => {
  test('an admin builds a two-level menu; positions follow; the tree comes nested', async () => {
    const { admin, queue, add } = await setup()
    const vendas = await add('Vendas', null, { message: 'Escolha:' })
    const suporte = await add('Suporte')
    expect([vendas.option, suporte.option]).toEqual(['1', '2'])
    expect(vendas.parentId).toBe(-1)
    const novos = await add('Novos pedidos', vendas.id)
    const trocas = await add('Trocas', vendas.id)
    expect([novos.option, trocas.option, novos.parentId]).toEqual(['1', '2', vendas.id])

    const top = await admin.get(`/queue-options?queueId=${queue.id}&parentId=-1`)
    expect(top.status).toBe(200)
    expect(top.body.map((o: Opt) => o.title)).toEqual(['Vendas', 'Suporte'])
    expect(top.body[0].children.map((o: Opt) => o.title)).toEqual(['Novos pedidos', 'Trocas'])
    expect(top.body[0]).toMatchObject({ message: 'Escolha:', mediaUrl: null, queueId: queue.id })
    const same = await admin.get(`/queue-options?queueId=${queue.id}`)
    expect(same.body).toEqual(top.body)
    const level = await admin.get(`/queue-options?queueId=${queue.id}&parentId=${vendas.id}`)
    expect(level.body.map((o: Opt) => o.title)).toEqual(['Novos pedidos', 'Trocas'])

    const edited = await admin.put(`/queue-options/${novos.id}`, {
      title: 'Pedidos novos',
      message: 'Certo!',
    })
    expect(edited.body).toMatchObject({ title: 'Pedidos novos', message: 'Certo!', option: '1' })
  })

  test('explicit positions must be free among siblings; the same position at another level is fine', async () => {
    const { admin, queue, add } = await setup()
    const a = await add('A', null, { option: '5' })
    expect(a.option).toBe('5')
    expect((await add('B')).option).toBe('6')
    const dup = await admin.post('/queue-options', { queueId: queue.id, title: 'C', option: '5' })
    expect(dup.status).toBe(400)
    expect(dup.body.fields[0].field).toBe('option')
    expect((await add('A1', a.id, { option: '5' })).option).toBe('5')
    const b = (await admin.get(`/queue-options?queueId=${queue.id}`)).body[1]
    expect((await admin.put(`/queue-options/${b.id}`, { option: '5' })).status).toBe(400)
    expect((await admin.put(`/queue-options/${b.id}`, { option: '7' })).body.option).toBe('7')
    for (const option of ['07', '0', '#', 'sair', '1000', ' ', '1.5']) {
      expect((await admin.put(`/queue-options/${b.id}`, { option })).status).toBe(400)
    }
  })

  test('reorder at any depth renumbers 1..n; a wrong set of ids is refused', async () => {
    const { admin, queue, add } = await setup()
    const root = await add('Raiz')
    const x = await add('X', root.id)
    const y = await add('Y', root.id)
    const z = await add('Z', root.id)
    const res = await admin.post('/queue-options/reorder', {
      queueId: queue.id,
      parentId: root.id,
      ids: [z.id, x.id, y.id],
    })
    expect(res.status).toBe(200)
    expect(res.body.map((o: Opt) => [o.title, o.option])).toEqual([
      ['Z', '1'],
      ['X', '2'],
      ['Y', '3'],
    ])
    for (const ids of [
      [z.id, x.id],
      [z.id, x.id, y.id, y.id],
      [z.id, x.id, root.id],
    ]) {
      const bad = await admin.post('/queue-options/reorder', { queueId: queue.id, parentId: root.id, ids })
      expect(bad.status).toBe(400)
    }
    const top = await admin.post('/queue-options/reorder', {
      queueId: queue.id,
      parentId: -1,
      ids: [root.id],
    })
    expect(top.status).toBe(200)
  })

  test('delete removes the subtree and closes the gap among siblings', async () => {
    const { h, admin, queue, add } = await setup()
    const one = await add('Um')
    const two = await add('Dois')
    await add('Três')
    const child = await add('Filho', two.id)
    await add('Neto', child.id)
    const res = await admin.del(`/queue-options/${two.id}`)
    expect(res.status).toBe(200)
    expect(res.body.deleted).toBe(3)
    const left = h.db.select().from(queueOptions).where(eq(queueOptions.queueId, queue.id)).all()
    expect(left.map((r) => [r.title, r.option]).sort()).toEqual([
      ['Três', '2'],
      ['Um', '1'],
    ])
    expect((await admin.get(`/queue-options/${child.id}`)).status).toBe(404)
    expect((await admin.get(`/queue-options/${one.id}`)).status).toBe(200)
  })

  test('a parent in another queue is refused; limits on depth', async () => {
    const { h, admin, queue, add } = await setup()
    const other = h.makeQueue(h.a.id, { name: 'Outra' })
    const foreignParent = (await admin.post('/queue-options', { queueId: other.id, title: 'Lá' })).body as Opt
    const res = await admin.post('/queue-options', {
      queueId: queue.id,
      parentId: foreignParent.id,
      title: 'Aqui',
    })
    expect(res.status).toBe(400)
    expect(res.body.fields[0].field).toBe('parentId')
    const list = await admin.get(`/queue-options?queueId=${queue.id}&parentId=${foreignParent.id}`)
    expect(list.status).toBe(400)
    let parent: Opt | null = null
    for (let i = 0; i < 10; i++) parent = await add(`N${i}`, parent?.id ?? null)
    const deep = await admin.post('/queue-options', {
      queueId: queue.id,
      parentId: parent!.id,
      title: 'Fundo',
    })
    expect(deep.status).toBe(400)
  })

  test("another company's queue and option ids answer 404; attendants 403", async () => {
    const { h, queue, add } = await setup()
    const mine = await add('Vendas')
    const other = await h.as(h.b.admin)
    const theirQueue = h.makeQueue(h.b.id)
    const theirs = (await other.post('/queue-options', { queueId: theirQueue.id, title: 'B' })).body as Opt
    const q404 = [
      await other.get(`/queue-options?queueId=${queue.id}`),
      await other.post('/queue-options', { queueId: queue.id, title: 'X' }),
      await other.post('/queue-options/reorder', { queueId: queue.id, parentId: -1, ids: [mine.id] }),
    ]
    for (const r of q404) expect([r.status, r.body.error]).toEqual([404, 'ERR_NO_QUEUE_FOUND'])
    const o404 = [
      await other.get(`/queue-options/${mine.id}`),
      await other.put(`/queue-options/${mine.id}`, { title: 'X' }),
      await other.del(`/queue-options/${mine.id}`),
      await other.del(`/queue-options/${mine.id}/media-upload`),
      await upload(h, other.token, mine.id, new File([samples.png()], 'a.png', { type: 'image/png' })),
      await other.post('/queue-options', { queueId: theirQueue.id, parentId: mine.id, title: 'X' }),
      await other.get(`/queue-options?queueId=${theirQueue.id}&parentId=${mine.id}`),
      await other.get('/queue-options/99999'),
      await other.get('/queue-options/01'),
    ]
    for (const r of o404) expect([r.status, r.body.error]).toEqual([404, 'ERR_NO_QUEUE_OPTION_FOUND'])
    expect(theirs.id).toBeGreaterThan(0)

    const agent = await h.as(h.a.attendant)
    for (const r of [
      await agent.get(`/queue-options?queueId=${queue.id}`),
      await agent.post('/queue-options', { queueId: queue.id, title: 'X' }),
      await agent.put(`/queue-options/${mine.id}`, { title: 'X' }),
      await agent.del(`/queue-options/${mine.id}`),
      await upload(h, agent.token, mine.id, new File([samples.png()], 'a.png', { type: 'image/png' })),
    ])
      expect(r.status).toBe(403)
    expect((await h.call('GET', `/queue-options?queueId=${queue.id}`)).status).toBe(401)
  })

  test('bad input answers 4xx, never 500', async () => {
    const { h, admin, queue, add } = await setup()
    const o = await add('Ok')
    const bodies: unknown[] = [
      {},
      [],
      { queueId: 'x', title: 'T' },
      { queueId: queue.id },
      { queueId: queue.id, title: '' },
      { queueId: queue.id, title: 'x'.repeat(101) },
      { queueId: queue.id, title: 'T', parentId: 0 },
      { queueId: queue.id, title: 'T', parentId: -2 },
      { queueId: queue.id, title: 'T', parentId: 1.5 },
      { queueId: queue.id, title: 'T', message: 5 },
      { queueId: queue.id, title: 'T', option: 0 },
      { queueId: queue.id, title: 'T', option: 2.5 },
      { queueId: -1, title: 'T' },
      { queueId: 1e300, title: 'T' },
    ]
    for (const body of bodies) {
      const r = await admin.post('/queue-options', body)
      expect(r.status).toBeGreaterThanOrEqual(400)
      expect(r.status).toBeLessThan(500)
    }
    for (const q of [
      '',
      '?queueId=',
      '?queueId=abc',
      `?queueId=${queue.id}&parentId=x`,
      `?queueId=${queue.id}&parentId=0`,
    ]) {
      expect((await admin.get(`/queue-options${q}`)).status).toBe(400)
    }
    expect((await admin.put(`/queue-options/${o.id}`, { title: null })).status).toBe(400)
    expect((await h.call('POST', '/queue-options', { token: admin.token, body: '{bad' })).status).toBe(400)
    expect(
      (await admin.post('/queue-options/reorder', { queueId: queue.id, parentId: -1, ids: 'x' })).status,
    ).toBe(400)
    expect((await admin.post(`/queue-options/${o.id}/media-upload`, { file: 'x' })).status).toBe(400)
  })

  test('unicode titles and messages round-trip', async () => {
    const { admin, queue, add } = await setup()
    const title = 'Atendimento 💬 Ação — 日本語'
    const o = await add(title, null, { message: 'Olá! 👋\nEscolha uma opção: ñ ü ç' })
    const got = (await admin.get(`/queue-options?queueId=${queue.id}`)).body[0]
    expect(got).toMatchObject({ id: o.id, title, message: 'Olá! 👋\nEscolha uma opção: ñ ü ç' })
  })

  test('media upload: allow-list, one file, replace, delete, files removed from disk', async () => {
    const { h, admin, add } = await setup()
    const o = await add('Catálogo')
    const res = await upload(
      h,
      admin.token,
      o.id,
      new File([samples.pdf()], 'catálogo.pdf', { type: 'application/pdf' }),
    )
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ mediaName: 'catálogo.pdf', mediaMime: 'application/pdf' })
    expect(res.body.mediaUrl).toMatch(/^\/api\/media\/\d+\/[A-Za-z0-9_-]+\.pdf\?exp=\d+&sig=/)
    const row1 = h.db.select().from(queueOptions).where(eq(queueOptions.id, o.id)).get()!
    const file1 = join(h.deps.mediaDir, String(h.a.id), row1.mediaPath!)
    expect(existsSync(file1)).toBe(true)
    // The signed link serves the file.
    expect((await h.app.request(res.body.mediaUrl)).status).toBe(200)

    const replaced = await upload(
      h,
      admin.token,
      o.id,
      new File([samples.png()], 'foto.png', { type: 'image/png' }),
    )
    expect(replaced.body).toMatchObject({ mediaName: 'foto.png', mediaMime: 'image/png' })
    expect(existsSync(file1)).toBe(false)

    const exe = await upload(h, admin.token, o.id, new File([samples.exe()], 'x.exe'))
    expect(exe.status).toBe(415)
    const svg = await upload(
      h,
      admin.token,
      o.id,
      new File([samples.svg()], 'x.svg', { type: 'image/svg+xml' }),
    )
    expect(svg.status).toBe(415)
    expect((await upload(h, admin.token, o.id, null)).status).toBe(400)
    expect((await upload(h, admin.token, o.id, new File([samples.png()], 'a.png'), 'medias')).status).toBe(
      400,
    )
    expect((await upload(h, admin.token, o.id, new File([], 'vazio.png'))).status).toBe(400)
    const two = new FormData()
    two.append('file', new File([samples.png()], 'a.png'))
    two.append('file', new File([samples.png()], 'b.png'))
    const twoRes = await h.app.request(`/api/queue-options/${o.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: two,
    })
    expect(twoRes.status).toBe(400)

    const row2 = h.db.select().from(queueOptions).where(eq(queueOptions.id, o.id)).get()!
    const file2 = join(h.deps.mediaDir, String(h.a.id), row2.mediaPath!)
    const cleared = await admin.del(`/queue-options/${o.id}/media-upload`)
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({ mediaName: null, mediaMime: null, mediaUrl: null })
    expect(existsSync(file2)).toBe(false)
    expect((await admin.del(`/queue-options/${o.id}/media-upload`)).status).toBe(200)
  })

  test('an upload over the limit answers 413', async () => {
    const { h, admin, add } = await setup()
    const o = await add('Grande')
    const big = new Uint8Array(17 * 1024 * 1024)
    big.set(samples.png())
    const res = await upload(h, admin.token, o.id, new File([big], 'grande.png', { type: 'image/png' }))
    expect(res.status).toBe(413)
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE')
  })

  test('deleting the queue removes its options and their files', async () => {
    const { h, admin, queue, add } = await setup()
    const o = await add('Com arquivo')
    await add('Filho', o.id)
    await upload(h, admin.token, o.id, new File([samples.png()], 'a.png', { type: 'image/png' }))
    const row = h.db.select().from(queueOptions).where(eq(queueOptions.id, o.id)).get()!
    const file = join(h.deps.mediaDir, String(h.a.id), row.mediaPath!)
    expect(existsSync(file)).toBe(true)
    expect((await admin.del(`/queue/${queue.id}`)).status).toBe(200)
    expect(h.db.select().from(queueOptions).where(eq(queueOptions.queueId, queue.id)).all()).toEqual([])
    expect(existsSync(file)).toBe(false)
  })
})
