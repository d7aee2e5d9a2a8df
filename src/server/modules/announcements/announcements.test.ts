import { afterEach, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Server } from 'bun'
import type { LiveFrame } from '../../../shared/live'
import { samples } from '../../media/testing'
import { rooms } from '../../realtime/rooms'
import type { SocketData } from '../../realtime/socket'
import { createHarness, type Harness } from '../../test/harness'
import { connectLive, listenLive, until } from '../../test/live'

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field)

async function upload(
  h: Harness,
  token: string,
  id: number | string,
  file: { bytes: Uint8Array; name: string; type: string },
) {
  const form = new FormData()
  form.append('file', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }))
  const res = await h.app.request(`/api/announcements/${id}/media-upload`, {
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

const root = (h: Harness) => h.as(h.superAdmin.email)

let server: Server<SocketData> | undefined
afterEach(() => {
  server?.stop(true)
  server = undefined
})

describe('announcements: management (super users)', () => {
  test('create, read, edit, delete; defaults priority 3 and active; every change is live to everyone', async () => {
    const h = await createHarness()
    const su = await root(h)
    const events = h.recordEvents()
    const created = await su.post('/announcements/', {
      title: '  Manutenção programada ',
      text: 'Sábado, das 22h às 23h.\nO sistema ficará fora do ar.',
      mediaPath: '../../etc/passwd',
      companyId: h.a.id,
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.any(Number),
      title: 'Manutenção programada',
      text: 'Sábado, das 22h às 23h.\nO sistema ficará fora do ar.',
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      createdAt: '2026-11-21T12:00:00.000Z',
      updatedAt: '2026-11-21T12:00:00.000Z',
    })
    const id = created.body.id
    // The row belongs to the creating super user's company (the platform's).
    expect(
      h.deps.sqlite.query('SELECT company_id AS c FROM announcements WHERE id = ?').get(id) as { c: number },
    ).toEqual({ c: h.platform.id })
    expect((await su.get(`/announcements/${id}`)).body).toEqual(created.body)

    h.clock.advance(60_000)
    const edited = await su.put(`/announcements/${id}`, {
      title: 'Manutenção',
      text: 'Nova data',
      priority: 1,
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ title: 'Manutenção', text: 'Nova data', priority: 1, status: true })
    expect(edited.body.updatedAt).toBe('2026-11-21T12:01:00.000Z')
    // Left out: priority and status keep their values.
    const off = await su.put(`/announcements/${id}`, {
      title: 'Manutenção',
      text: 'Nova data',
      status: false,
    })
    expect(off.body).toMatchObject({ priority: 1, status: false })

    expect((await su.del(`/announcements/${id}`)).status).toBe(200)
    expect((await su.get(`/announcements/${id}`)).status).toBe(404)
    // Made inactive: everyone is told it is gone; only the super users get the record (their list).
    const superRoom = rooms.user(h.platform.id, h.superAdmin.id)
    expect(events.map((e) => [e.room, e.event, (e.data as { action: string }).action])).toEqual([
      [rooms.everyone, 'announcement', 'create'],
      [rooms.everyone, 'announcement', 'update'],
      [rooms.everyone, 'announcement', 'delete'],
      [superRoom, 'announcement', 'update'],
      [rooms.everyone, 'announcement', 'delete'],
    ])
    expect(events[0]!.data).toEqual({ action: 'create', record: created.body })
    expect(events[2]!.data).toEqual({ action: 'delete', id })
    expect(events[3]!.data).toEqual({ action: 'update', record: off.body })
    expect(events[4]!.data).toEqual({ action: 'delete', id })
  })

  test('list: newest first, 20 a page with count and hasMore, searched in title and text', async () => {
    const h = await createHarness()
    const su = await root(h)
    for (let i = 1; i <= 23; i++) {
      await su.post('/announcements', {
        title: `Aviso ${i}`,
        text: i === 7 ? 'Fatura com desconto' : 'texto',
        status: i % 2 === 0,
      })
      h.clock.advance(1000)
    }
    const first = await su.get('/announcements/')
    expect(first.body.count).toBe(23)
    expect(first.body.hasMore).toBe(true)
    expect(first.body.records).toHaveLength(20)
    expect(first.body.records[0].title).toBe('Aviso 23')
    const second = await su.get('/announcements?pageNumber=2')
    expect(second.body.records.map((r: { title: string }) => r.title)).toEqual([
      'Aviso 3',
      'Aviso 2',
      'Aviso 1',
    ])
    expect(second.body.hasMore).toBe(false)
    // Inactive ones are listed to super users too.
    expect(second.body.records.map((r: { status: boolean }) => r.status)).toEqual([false, true, false])
    const found = await su.get(`/announcements?searchParam=${encodeURIComponent('FATURA')}`)
    expect(found.body).toMatchObject({ count: 1, hasMore: false })
    expect(found.body.records[0].title).toBe('Aviso 7')
    const byTitle = await su.get('/announcements?searchParam=Aviso%202')
    expect(byTitle.body.records.map((r: { title: string }) => r.title)).toEqual([
      'Aviso 23',
      'Aviso 22',
      'Aviso 21',
      'Aviso 20',
      'Aviso 2',
    ])
  })

  test('GET /announcements/ answers every signed-in user the active ones, paged and searched; drafts stay the super user`s', async () => {
    const h = await createHarness()
    const su = await root(h)
    for (let i = 1; i <= 30; i++) {
      await su.post('/announcements', {
        title: `Aviso ${i}`,
        text: i === 28 ? 'Fatura com desconto' : 'texto',
        // 4, 8, … are drafts.
        status: i % 4 !== 0,
      })
      h.clock.advance(1000)
    }
    for (const email of [h.a.attendant, h.a.admin, h.b.attendant]) {
      const user = await h.as(email)
      const first = await user.get('/announcements/')
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ count: 23, hasMore: true })
      expect(first.body.records).toHaveLength(20)
      expect(first.body.records[0].title).toBe('Aviso 30')
      expect(first.body.records.every((r: { status: boolean }) => r.status)).toBe(true)
      const second = await user.get('/announcements?pageNumber=2')
      expect(second.body.hasMore).toBe(false)
      expect(second.body.records.map((r: { title: string }) => r.title)).toEqual([
        'Aviso 3',
        'Aviso 2',
        'Aviso 1',
      ])
      // A draft is not found by search either.
      expect((await user.get('/announcements?searchParam=FATURA')).body).toMatchObject({
        count: 0,
        records: [],
      })
      expect((await user.get('/announcements?searchParam=Aviso%2030')).body.records).toHaveLength(1)
    }
    expect((await su.get('/announcements/')).body).toMatchObject({ count: 30, hasMore: true })
    expect((await su.get('/announcements?searchParam=FATURA')).body.count).toBe(1)
  })

  test('admins and attendants of a company get 403 on every management call', async () => {
    const h = await createHarness()
    const su = await root(h)
    const { id } = (await su.post('/announcements', { title: 'Aviso', text: 'x' })).body
    for (const email of [h.a.admin, h.a.attendant, h.b.admin]) {
      const user = await h.as(email)
      const calls = [
        await user.get(`/announcements/${id}`),
        await user.post('/announcements', { title: 'Meu aviso', text: 'x' }),
        await user.put(`/announcements/${id}`, { title: 'Trocado', text: 'y' }),
        await user.del(`/announcements/${id}`),
        await upload(h, user.token, id, { bytes: samples.png(), name: 'a.png', type: 'image/png' }),
        await user.del(`/announcements/${id}/media-upload`),
        // An unknown id too: the permission comes first.
        await user.get('/announcements/999'),
      ]
      for (const res of calls) {
        expect({ email, status: res.status }).toEqual({ email, status: 403 })
        expect(res.body.error).toBe('ERR_NO_PERMISSION')
      }
    }
    // Nothing changed.
    expect((await su.get(`/announcements/${id}`)).body).toMatchObject({
      title: 'Aviso',
      text: 'x',
      mediaPath: null,
    })
    expect((await su.get('/announcements')).body.count).toBe(1)
    // Without a token: 401.
    expect((await h.call('GET', '/announcements')).status).toBe(401)
    expect((await h.call('GET', '/announcements/feed')).status).toBe(401)
  })

  test('validation: title and text required, title <= 200, text <= 5000, priority 1, 2 or 3', async () => {
    const h = await createHarness()
    const su = await root(h)
    const missing = await su.post('/announcements', {})
    expect(missing.status).toBe(400)
    expect(missing.body.error).toBe('ERR_VALIDATION')
    expect(fieldsOf(missing.body).sort()).toEqual(['text', 'title'])
    const blank = await su.post('/announcements', { title: '   ', text: ' \n ' })
    expect(fieldsOf(blank.body).sort()).toEqual(['text', 'title'])
    expect(fieldsOf((await su.post('/announcements', { title: 'x'.repeat(201), text: 'x' })).body)).toEqual([
      'title',
    ])
    expect((await su.post('/announcements', { title: 'x'.repeat(200), text: 'x'.repeat(5000) })).status).toBe(
      201,
    )
    expect(fieldsOf((await su.post('/announcements', { title: 'x', text: 'x'.repeat(5001) })).body)).toEqual([
      'text',
    ])
    for (const priority of [0, 4, -1, 1.5, '1', null, true]) {
      const res = await su.post('/announcements', { title: 'x', text: 'y', priority })
      expect({ priority, status: res.status, fields: fieldsOf(res.body) }).toEqual({
        priority,
        status: 400,
        fields: ['priority'],
      })
    }
    for (const priority of [1, 2, 3]) {
      const res = await su.post('/announcements', { title: 'x', text: 'y', priority })
      expect(res.body.priority).toBe(priority)
    }
    expect(
      fieldsOf((await su.post('/announcements', { title: 'x', text: 'y', status: 'yes' })).body),
    ).toEqual(['status'])
    const { id } = (await su.post('/announcements', { title: 'x', text: 'y' })).body
    expect(fieldsOf((await su.put(`/announcements/${id}`, { title: 'x', priority: 9 })).body).sort()).toEqual(
      ['priority', 'text'],
    )
  })

  test('unknown ids answer 404 with the area code on every call', async () => {
    const h = await createHarness()
    const su = await root(h)
    const { id } = (await su.post('/announcements', { title: 'x', text: 'y' })).body
    await su.del(`/announcements/${id}`)
    for (const res of [
      await su.get(`/announcements/${id}`),
      await su.put(`/announcements/${id}`, { title: 'a', text: 'b' }),
      await su.del(`/announcements/${id}`),
      await upload(h, su.token, id, { bytes: samples.png(), name: 'a.png', type: 'image/png' }),
      await su.del(`/announcements/${id}/media-upload`),
      await su.get('/announcements/999999'),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_ANNOUNCEMENT_FOUND')
    }
    expect(existsSync(join(h.deps.mediaDir, String(h.platform.id)))).toBe(false)
  })
})

describe('announcements: media', () => {
  test('png and jpeg are stored, replaced and removed; the link is signed and serves the bytes', async () => {
    const h = await createHarness()
    const su = await root(h)
    const { id } = (await su.post('/announcements', { title: 'Com imagem', text: 'x' })).body
    const events = h.recordEvents()
    const res = await upload(h, su.token, id, { bytes: samples.png(), name: 'banner.png', type: 'image/png' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, mediaName: 'banner.png' })
    expect(res.body.mediaUrl).toStartWith(`/api/media/${h.platform.id}/${res.body.mediaPath}?exp=`)
    const file = await h.app.request(res.body.mediaUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(samples.png())
    // The link is the server's: a changed signature is refused.
    const tampered = res.body.mediaUrl.replace(
      /sig=(.)/,
      (_: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`,
    )
    expect((await h.app.request(tampered)).status).toBe(403)
    const first = join(h.deps.mediaDir, String(h.platform.id), res.body.mediaPath)
    expect(existsSync(first)).toBe(true)

    // A jpeg: accepted (stored as .jpg, by its bytes), and replaces the first file.
    const again = await upload(h, su.token, id, {
      bytes: samples.jpeg(),
      name: 'foto.jpeg',
      type: 'image/jpeg',
    })
    expect(again.status).toBe(200)
    expect(again.body.mediaName).toBe('foto.jpeg')
    expect(again.body.mediaPath).toEndWith('.jpg')
    expect(existsSync(first)).toBe(false)
    const second = join(h.deps.mediaDir, String(h.platform.id), again.body.mediaPath)

    // The feed carries the signed link too (every user loads the image).
    const reader = await h.as(h.b.attendant)
    const feed = await reader.get('/announcements/feed')
    expect(feed.body.records[0].mediaUrl).toBe(again.body.mediaUrl)
    expect((await h.app.request(feed.body.records[0].mediaUrl)).status).toBe(200)

    const removed = await su.del(`/announcements/${id}/media-upload`)
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null })
    expect(existsSync(second)).toBe(false)
    expect(
      events.filter((e) => e.event === 'announcement').map((e) => (e.data as { action: string }).action),
    ).toEqual(['update', 'update', 'update'])

    // Deleting the announcement removes its image.
    const third = await upload(h, su.token, id, { bytes: samples.png(), name: 'c.png', type: 'image/png' })
    const thirdPath = join(h.deps.mediaDir, String(h.platform.id), third.body.mediaPath)
    expect(existsSync(thirdPath)).toBe(true)
    await su.del(`/announcements/${id}`)
    expect(existsSync(thirdPath)).toBe(false)
  })

  test('anything but png, jpg or jpeg is refused by its bytes (415), and nothing is kept', async () => {
    const h = await createHarness()
    const su = await root(h)
    const { id } = (await su.post('/announcements', { title: 'Sem imagem', text: 'x' })).body
    const gif = new Uint8Array([...new TextEncoder().encode('GIF89a'), 1, 0, 1, 0, 0, 0, 0, 0x3b])
    for (const file of [
      { bytes: gif, name: 'anim.gif', type: 'image/gif' },
      { bytes: samples.text(), name: 'disfarce.png', type: 'image/png' },
      { bytes: samples.pdf(), name: 'folheto.jpg', type: 'image/jpeg' },
      { bytes: samples.svg(), name: 'logo.png', type: 'image/png' },
      { bytes: samples.exe(), name: 'app.jpeg', type: 'image/jpeg' },
    ]) {
      const res = await upload(h, su.token, id, file)
      expect({ name: file.name, status: res.status }).toEqual({ name: file.name, status: 415 })
      expect(res.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE')
      expect(typeof res.body.message).toBe('string')
    }
    const gifAnswer = await upload(h, su.token, id, { bytes: gif, name: 'anim.gif', type: 'image/gif' })
    expect(gifAnswer.body.message).toBe('Only png, jpg and jpeg images can be attached')
    expect((await su.get(`/announcements/${id}`)).body).toMatchObject({ mediaPath: null, mediaName: null })
    const dir = join(h.deps.mediaDir, String(h.platform.id))
    expect(existsSync(dir) ? [...new Bun.Glob('*').scanSync(dir)] : []).toEqual([])
  })
})

describe('announcements: the feed (every user)', () => {
  test('only active ones, newest first, 10 a page; the same for every company', async () => {
    const h = await createHarness()
    const su = await root(h)
    const ids: number[] = []
    for (let i = 1; i <= 14; i++) {
      ids.push((await su.post('/announcements', { title: `N${i}`, text: 't', status: i !== 13 })).body.id)
      h.clock.advance(1000)
    }
    // (Signing in ends the user's other sessions: the super user reads with the session it already has.)
    for (const email of [h.a.attendant, h.a.admin, h.b.attendant, null]) {
      const reader = email ? await h.as(email) : su
      const first = await reader.get('/announcements/feed')
      expect(first.status).toBe(200)
      expect(Object.keys(first.body).sort()).toEqual(['hasMore', 'records'])
      expect(first.body.records.map((r: { title: string }) => r.title)).toEqual([
        'N14',
        'N12',
        'N11',
        'N10',
        'N9',
        'N8',
        'N7',
        'N6',
        'N5',
        'N4',
      ])
      expect(first.body.hasMore).toBe(true)
      const second = await reader.get('/announcements/feed?pageNumber=2')
      expect(second.body).toMatchObject({ hasMore: false })
      expect(second.body.records.map((r: { title: string }) => r.title)).toEqual(['N3', 'N2', 'N1'])
    }
    // Deactivated: gone from the feed; active again: back.
    await su.put(`/announcements/${ids[13]}`, { title: 'N14', text: 't', status: false })
    const reader = await h.as(h.b.admin)
    expect((await reader.get('/announcements/feed')).body.records[0].title).toBe('N12')
    await su.put(`/announcements/${ids[13]}`, { title: 'N14', text: 't', status: true })
    expect((await reader.get('/announcements/feed')).body.records[0].title).toBe('N14')
    expect((await reader.get('/announcements/feed?pageNumber=0')).status).toBe(400)
    expect((await reader.get('/announcements/feed?pageNumber=x')).status).toBe(400)
  })
})

describe('announcements: live', () => {
  test('a change reaches users of every company, both the masked and the #full flavour', async () => {
    const h = await createHarness()
    server = listenLive(h)
    // isTricked enabled (the default): the #full rooms; disabled: the plain ones.
    h.deps.sqlite.query(`UPDATE users SET is_tricked = 'disabled' WHERE id = ?`).run(h.b.attendantId)
    const plain = connectLive(server, await h.login(h.b.attendant))
    const full = connectLive(server, await h.login(h.a.admin))
    await Promise.all([plain.opened, full.opened])
    const su = await root(h)
    const isAnnouncement = (action: string) => (f: LiveFrame) =>
      f.event === 'announcement' && (f.data as { action: string }).action === action
    const created = await su.post('/announcements', { title: 'Ao vivo', text: 'Olá a todos', priority: 2 })
    for (const client of [plain, full]) {
      const frame = await client.next(isAnnouncement('create'))
      expect(frame.data).toEqual({ action: 'create', record: created.body })
    }
    // Made inactive (a draft, or taken down): the other companies only hear that it is gone, never its text.
    await su.put(`/announcements/${created.body.id}`, { title: 'Rascunho', text: 'segredo', status: false })
    for (const client of [plain, full])
      expect((await client.next(isAnnouncement('delete'))).data).toEqual({
        action: 'delete',
        id: created.body.id,
      })
    const draft = await su.post('/announcements', { title: 'Rascunho 2', text: 'segredo', status: false })
    await su.del(`/announcements/${created.body.id}`)
    for (const client of [plain, full]) {
      await until(() => client.frames.filter(isAnnouncement('delete')).length >= 3, 'the three deletes')
      expect(
        client.frames.filter(isAnnouncement('delete')).map((f) => (f.data as { id: number }).id),
      ).toEqual([created.body.id, draft.body.id, created.body.id])
      expect(JSON.stringify(client.frames)).not.toContain('segredo')
    }
    // Each socket got each event once (not both flavours).
    expect(plain.frames.filter((f) => f.event === 'announcement')).toHaveLength(4)
    expect(full.frames.filter((f) => f.event === 'announcement')).toHaveLength(4)
    plain.ws.close()
    full.ws.close()
  })
})
