import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { samples } from '../../media/testing'
import { createHarness, type Harness } from '../../test/harness'

const MB = 1024 * 1024
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field)

async function upload(
  h: Harness,
  token: string,
  id: number | string,
  file: { bytes: Uint8Array; name: string; type: string } | null,
  extra: Record<string, string> = { typeArch: 'quickMessage' },
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(extra)) form.append(k, v)
  if (file)
    form.append('file', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }))
  const res = await h.app.request(`/api/quick-messages/${id}/media-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
  return { status: res.status, body: body as any }
}

describe('quick messages: happy paths', () => {
  test('create, read, edit, delete; company-wide ones are live to the company', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.admin)
    const events = h.recordEvents()
    const created = await agent.post('/quick-messages', {
      shortcode: '/oi',
      message: 'Olá! Como posso ajudar?',
      geral: true,
      isMedia: false,
      mediaPath: '../../etc/passwd',
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      shortcode: 'oi',
      message: 'Olá! Como posso ajudar?',
      geral: true,
      status: true,
      isMedia: false,
      mediaPath: null,
      mediaUrl: null,
      userId: h.a.adminId,
      companyId: h.a.id,
      createdAt: '2026-11-21T12:00:00.000Z',
    })
    const id = created.body.id
    expect((await agent.get(`/quick-messages/${id}`)).body).toMatchObject({ id, shortcode: 'oi' })
    const updated = await agent.put(`/quick-messages/${id}`, { shortcode: 'ola', status: false })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({
      shortcode: 'ola',
      message: 'Olá! Como posso ajudar?',
      status: false,
    })
    expect((await agent.del(`/quick-messages/${id}`)).status).toBe(200)
    expect((await agent.get(`/quick-messages/${id}`)).status).toBe(404)
    const live = events.filter((e) => e.event === `company-${h.a.id}-quickmessage`)
    expect(live.map((e) => [e.room, (e.data as { action: string }).action])).toEqual([
      [`company:${h.a.id}`, 'create'],
      [`company:${h.a.id}`, 'update'],
      [`company:${h.a.id}`, 'delete'],
    ])
    expect(live[2]!.data).toEqual({ action: 'delete', id })
  })

  test("personal ones go only to their owner's room; turning one company-wide and back moves it", async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.admin)
    const events = h.recordEvents()
    const { id } = (await agent.post('/quick-messages', { shortcode: 'meu', message: 'pessoal' })).body
    await agent.put(`/quick-messages/${id}`, { shortcode: 'meu', geral: true })
    await agent.put(`/quick-messages/${id}`, { shortcode: 'meu', geral: false })
    await agent.del(`/quick-messages/${id}`)
    const userRoom = `company:${h.a.id}:user:${h.a.adminId}`
    const companyRoom = `company:${h.a.id}`
    const live = events.filter((e) => e.event === `company-${h.a.id}-quickmessage`)
    expect(live.map((e) => [e.room, (e.data as { action: string }).action])).toEqual([
      [userRoom, 'create'],
      [userRoom, 'delete'],
      [companyRoom, 'update'],
      [companyRoom, 'delete'],
      [userRoom, 'update'],
      [userRoom, 'delete'],
    ])
  })

  test('the page: company-wide and own ones, 20 by shortcode, searched; /list has the active ones only', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    for (let i = 0; i < 22; i++)
      await agent.post('/quick-messages', {
        shortcode: `c${String(i).padStart(2, '0')}`,
        message: `texto ${i}`,
      })
    await admin.post('/quick-messages', { shortcode: 'geral1', message: 'para todos', geral: true })
    await admin.post('/quick-messages', { shortcode: 'adminonly', message: 'do admin' })
    await admin.post('/quick-messages', { shortcode: 'inativa', message: 'x', geral: true, status: false })
    const first = await agent.get('/quick-messages')
    expect(first.body).toMatchObject({ count: 24, hasMore: true })
    expect(first.body.records).toHaveLength(20)
    expect(first.body.records[0].shortcode).toBe('c00')
    const second = await agent.get('/quick-messages/?pageNumber=2')
    expect(second.body.records.map((r: { shortcode: string }) => r.shortcode)).toEqual([
      'c20',
      'c21',
      'geral1',
      'inativa',
    ])
    const search = await agent.get(`/quick-messages?searchParam=${encodeURIComponent('TODOS')}`)
    expect(search.body).toMatchObject({ count: 1, hasMore: false })
    expect(search.body.records[0].shortcode).toBe('geral1')
    const list = (await agent.get('/quick-messages/list')).body
    expect(list).toHaveLength(23)
    expect(
      list.some((r: { shortcode: string }) => r.shortcode === 'inativa' || r.shortcode === 'adminonly'),
    ).toBe(false)
    // The admin's page is company-wide ones and their own: another user's personal ones are theirs.
    expect((await admin.get('/quick-messages')).body.count).toBe(3)
  })

  test('media: upload, replace (old file removed), remove; the link is signed and serves the bytes', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const { id } = (await agent.post('/quick-messages', { shortcode: 'cat', message: 'catálogo' })).body
    const res = await upload(h, agent.token, id, {
      bytes: samples.pdf(),
      name: 'catálogo.pdf',
      type: 'application/pdf',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ isMedia: true, mediaName: 'catálogo.pdf', mediaMime: 'application/pdf' })
    expect(res.body.mediaUrl).toStartWith(`/api/media/${h.a.id}/`)
    const file = await h.app.request(res.body.mediaUrl)
    expect(file.status).toBe(200)
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(samples.pdf())
    const first = join(h.deps.mediaDir, String(h.a.id), res.body.mediaPath)
    expect(existsSync(first)).toBe(true)
    const again = await upload(h, agent.token, id, {
      bytes: samples.png(),
      name: 'foto.png',
      type: 'image/png',
    })
    expect(again.body).toMatchObject({ mediaName: 'foto.png', mediaMime: 'image/png' })
    expect(existsSync(first)).toBe(false)
    const second = join(h.deps.mediaDir, String(h.a.id), again.body.mediaPath)
    const removed = await agent.del(`/quick-messages/${id}/media-upload`)
    expect(removed.body).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null, mediaUrl: null })
    expect(existsSync(second)).toBe(false)
    // Deleting a quick message removes its file too.
    const third = await upload(h, agent.token, id, {
      bytes: samples.jpeg(),
      name: 'a.jpg',
      type: 'image/jpeg',
    })
    await agent.del(`/quick-messages/${id}`)
    expect(existsSync(join(h.deps.mediaDir, String(h.a.id), third.body.mediaPath))).toBe(false)
  })
})

describe('quick messages: validation and errors', () => {
  test.each([
    [{}, 'shortcode'],
    [{ shortcode: '' }, 'shortcode'],
    [{ shortcode: '   ' }, 'shortcode'],
    [{ shortcode: '/' }, 'shortcode'],
    [{ shortcode: 'dois termos' }, 'shortcode'],
    [{ shortcode: 'x'.repeat(51) }, 'shortcode'],
    [{ shortcode: 7 }, 'shortcode'],
    [{ shortcode: ['a'] }, 'shortcode'],
    [{ shortcode: 'ok', message: 5 }, 'message'],
    [{ shortcode: 'ok', message: '<10,001 characters>' }, 'message'],
    [{ shortcode: 'ok', geral: 'true' }, 'geral'],
    [{ shortcode: 'ok', status: 1 }, 'status'],
  ])('%j answers 400 naming %s', async (body, field) => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const long = (body as { message?: unknown }).message === '<10,001 characters>'
    const res = await agent.post('/quick-messages', long ? { ...body, message: 'x'.repeat(10_001) } : body)
    expect(res.status).toBe(400)
    expect(fieldsOf(res.body)).toContain(field)
  })

  test('bodies that are not objects, or too large, are 4xx; unicode is kept as sent', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    for (const body of ['[]', 'null', '"x"', '{', '1', `${'['.repeat(100)}${']'.repeat(100)}`])
      expect((await agent.post('/quick-messages', body)).status).toBe(400)
    expect(
      (await agent.post('/quick-messages', { shortcode: 'big', message: 'x'.repeat(3 * MB) })).status,
    ).toBe(413)
    const text = 'Olá 👋🏽 — ação, ñ, 中文, \u202eRTL, \u0000 nul'
    const res = await agent.post('/quick-messages', { shortcode: 'ação👋', message: text })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ shortcode: 'ação👋', message: text })
    expect((await agent.get('/quick-messages?searchParam=%F0%9F%91%8B')).body.count).toBe(1)
    expect((await agent.get(`/quick-messages?searchParam=${'x'.repeat(201)}`)).status).toBe(400)
    for (const q of ['pageNumber=0', 'pageNumber=abc', 'pageNumber=1e3', 'pageNumber=-1'])
      expect((await agent.get(`/quick-messages?${q}`)).status).toBe(400)
  })

  test.each(['0', '01', '-1', 'abc', '1e3', '99999999999999999', '%00', '1.5', 'list2'])(
    'junk id %s answers 404',
    async (id) => {
      const h = await createHarness()
      const agent = await h.as(h.a.attendant)
      expect((await agent.get(`/quick-messages/${id}`)).status).toBe(404)
      expect((await agent.put(`/quick-messages/${id}`, { shortcode: 'x' })).status).toBe(404)
      expect((await agent.del(`/quick-messages/${id}`)).status).toBe(404)
      expect((await agent.del(`/quick-messages/${id}/media-upload`)).status).toBe(404)
      expect(
        (await upload(h, agent.token, id, { bytes: samples.png(), name: 'a.png', type: 'image/png' })).status,
      ).toBe(404)
    },
  )

  test('a shortcode no user could tell apart is refused with ERR_QUICK_MESSAGE_SHORTCODE_EXISTS (409)', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const admin = await h.as(h.a.admin)
    await agent.post('/quick-messages', { shortcode: 'oi', message: 'meu' })
    // The same user, any case: refused.
    const dup = await agent.post('/quick-messages', { shortcode: 'OI' })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toBe('ERR_QUICK_MESSAGE_SHORTCODE_EXISTS')
    expect(fieldsOf(dup.body)).toEqual(['shortcode'])
    // Another user's personal one: each sees only their own.
    expect((await admin.post('/quick-messages', { shortcode: 'oi' })).status).toBe(201)
    // A company-wide one would show beside both personal ones.
    expect((await admin.post('/quick-messages', { shortcode: 'Oi', geral: true })).status).toBe(409)
    const wide = (await admin.post('/quick-messages', { shortcode: 'tchau', geral: true })).body
    expect((await agent.post('/quick-messages', { shortcode: 'tchau' })).status).toBe(409)
    const mine = (await agent.post('/quick-messages', { shortcode: 'outra' })).body
    expect((await agent.put(`/quick-messages/${mine.id}`, { shortcode: 'TCHAU' })).status).toBe(409)
    expect(
      (await agent.put(`/quick-messages/${mine.id}`, { shortcode: 'outra', message: 'ok' })).status,
    ).toBe(200)
    expect((await admin.put(`/quick-messages/${wide.id}`, { shortcode: 'tchau', geral: false })).status).toBe(
      200,
    )
    // Another company is another world.
    expect(
      (await (await h.as(h.b.admin)).post('/quick-messages', { shortcode: 'oi', geral: true })).status,
    ).toBe(201)
  })
})

describe('quick messages: security', () => {
  test("another company's quick messages are 404 for every call, and never listed", async () => {
    const h = await createHarness()
    const owner = await h.as(h.a.admin)
    const { id } = (await owner.post('/quick-messages', { shortcode: 'segredo', message: 'A', geral: true }))
      .body
    for (const email of [h.b.admin, h.b.attendant]) {
      const other = await h.as(email)
      expect((await other.get(`/quick-messages/${id}`)).status).toBe(404)
      expect((await other.put(`/quick-messages/${id}`, { shortcode: 'roubado' })).status).toBe(404)
      expect((await other.del(`/quick-messages/${id}`)).status).toBe(404)
      expect((await other.del(`/quick-messages/${id}/media-upload`)).status).toBe(404)
      const up = await upload(h, other.token, id, { bytes: samples.png(), name: 'a.png', type: 'image/png' })
      expect(up.status).toBe(404)
      expect(up.body.error).toBe('ERR_NO_QUICK_MESSAGE_FOUND')
      expect((await other.get('/quick-messages')).body).toMatchObject({ records: [], count: 0 })
      expect((await other.get('/quick-messages/list')).body).toEqual([])
    }
    expect((await owner.get(`/quick-messages/${id}`)).body.shortcode).toBe('segredo')
    expect(existsSync(join(h.deps.mediaDir, String(h.b.id)))).toBe(false)
  })

  test("another user's personal one is 404 to a non-admin; an admin may read, edit and delete it", async () => {
    const h = await createHarness()
    const second = h.makeUser(h.a.id, { email: 'second@alpha.test' })
    const agent = await h.as(h.a.attendant)
    const peer = await h.as(second.email)
    const admin = await h.as(h.a.admin)
    const { id } = (await agent.post('/quick-messages', { shortcode: 'minha', message: 'só minha' })).body
    expect((await peer.get(`/quick-messages/${id}`)).status).toBe(404)
    expect((await peer.put(`/quick-messages/${id}`, { shortcode: 'x' })).status).toBe(404)
    expect((await peer.del(`/quick-messages/${id}`)).status).toBe(404)
    expect(
      (await upload(h, peer.token, id, { bytes: samples.png(), name: 'a.png', type: 'image/png' })).status,
    ).toBe(404)
    expect((await peer.get('/quick-messages')).body.count).toBe(0)
    expect((await admin.get(`/quick-messages/${id}`)).status).toBe(200)
    const edited = await admin.put(`/quick-messages/${id}`, { shortcode: 'minha2' })
    expect(edited.body).toMatchObject({ shortcode: 'minha2', userId: h.a.attendantId })
    expect((await admin.del(`/quick-messages/${id}`)).status).toBe(200)
  })

  test('a company-wide one is usable by all, but only an admin changes it (403 otherwise)', async () => {
    const h = await createHarness()
    const second = h.makeUser(h.a.id, { email: 'second2@alpha.test' })
    const peer = await h.as(second.email)
    const admin = await h.as(h.a.admin)
    const { id } = (await admin.post('/quick-messages', { shortcode: 'todos', geral: true })).body
    expect((await peer.get(`/quick-messages/${id}`)).status).toBe(200)
    expect((await peer.get('/quick-messages/list')).body.map((r: { id: number }) => r.id)).toEqual([id])
    const put = await peer.put(`/quick-messages/${id}`, { shortcode: 'meu' })
    expect(put.status).toBe(403)
    expect(put.body.error).toBe('ERR_NO_PERMISSION')
    expect((await peer.del(`/quick-messages/${id}`)).status).toBe(403)
    expect((await peer.del(`/quick-messages/${id}/media-upload`)).status).toBe(403)
    expect(
      (await upload(h, peer.token, id, { bytes: samples.png(), name: 'a.png', type: 'image/png' })).status,
    ).toBe(403)
    expect(
      (await admin.put(`/quick-messages/${id}`, { shortcode: 'todos', message: 'editado' })).status,
    ).toBe(200)
    expect((await admin.del(`/quick-messages/${id}`)).status).toBe(200)
  })

  test('an attendant keeps personal quick messages but shares none with the company (403)', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const events = h.recordEvents()
    const shared = await agent.post('/quick-messages', { shortcode: 'todos', message: 'x', geral: true })
    expect(shared.status).toBe(403)
    expect(shared.body.error).toBe('ERR_NO_PERMISSION')
    const mine = await agent.post('/quick-messages', { shortcode: 'minha', message: 'só minha' })
    expect(mine.status).toBe(201)
    const id = mine.body.id
    expect((await agent.put(`/quick-messages/${id}`, { shortcode: 'minha', geral: true })).status).toBe(403)
    expect((await agent.put(`/quick-messages/${id}`, { shortcode: 'minha2', message: 'ok' })).status).toBe(
      200,
    )
    expect((await agent.get(`/quick-messages/${id}`)).body).toMatchObject({
      shortcode: 'minha2',
      geral: false,
    })
    // One an attendant owns that is already company-wide (made before this rule) is the admins' now.
    h.deps.sqlite.query('UPDATE quick_messages SET geral = 1 WHERE id = ?').run(id)
    expect((await agent.put(`/quick-messages/${id}`, { shortcode: 'minha3' })).status).toBe(403)
    expect((await agent.del(`/quick-messages/${id}`)).status).toBe(403)
    const rooms = events.filter((e) => e.event === `company-${h.a.id}-quickmessage`).map((e) => e.room)
    expect(rooms.every((room) => room === `company:${h.a.id}:user:${h.a.attendantId}`)).toBe(true)
  })

  test('without a session every call is 401', async () => {
    const h = await createHarness()
    for (const [method, path] of [
      ['GET', '/quick-messages'],
      ['GET', '/quick-messages/list'],
      ['GET', '/quick-messages/1'],
      ['POST', '/quick-messages'],
      ['PUT', '/quick-messages/1'],
      ['DELETE', '/quick-messages/1'],
      ['POST', '/quick-messages/1/media-upload'],
    ] as const)
      expect((await h.call(method, path, { body: method === 'GET' ? undefined : {} })).status).toBe(401)
  })

  test('media: the allow-list (415), the kind limit (413), one file, a form; nothing is kept on refusal', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const { id } = (await agent.post('/quick-messages', { shortcode: 'arq' })).body
    const exe = await upload(h, agent.token, id, {
      bytes: samples.exe(),
      name: 'nota.pdf',
      type: 'application/pdf',
    })
    expect(exe.status).toBe(415)
    expect(exe.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE')
    expect(
      (await upload(h, agent.token, id, { bytes: samples.svg(), name: 'a.svg', type: 'image/svg+xml' }))
        .status,
    ).toBe(415)
    const big = new Uint8Array(16 * MB + 1)
    big.set(samples.jpeg())
    const tooBig = await upload(h, agent.token, id, { bytes: big, name: 'big.jpg', type: 'image/jpeg' })
    expect(tooBig.status).toBe(413)
    expect(tooBig.body).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE', details: { limit: 16 * MB } })
    const none = await upload(h, agent.token, id, null)
    expect(none.status).toBe(400)
    expect(fieldsOf(none.body)).toEqual(['file'])
    const empty = await upload(h, agent.token, id, {
      bytes: new Uint8Array(0),
      name: 'a.png',
      type: 'image/png',
    })
    expect(empty.status).toBe(400)
    const json = await agent.post(`/quick-messages/${id}/media-upload`, { file: 'x' })
    expect(json.status).toBe(400)
    const junk = await h.app.request(`/api/quick-messages/${id}/media-upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent.token}`,
        'content-type': 'multipart/form-data; boundary=zzz',
      },
      body: 'not a form',
    })
    expect(junk.status).toBe(400)
    expect((await agent.get(`/quick-messages/${id}`)).body).toMatchObject({ isMedia: false, mediaPath: null })
    expect(existsSync(join(h.deps.mediaDir, String(h.a.id)))).toBe(false)
  })
})
