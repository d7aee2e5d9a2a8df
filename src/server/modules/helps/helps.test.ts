import { describe, expect, test } from 'bun:test'
import { helpEmbedUrl, helpThumbnailUrl, youtubeVideoId } from '../../../shared/helps'
import { createHarness } from '../../test/harness'

const ID = 'dQw4w9WgXcQ'
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field)

describe('youtubeVideoId', () => {
  test('reads an id and every link form; refuses anything else', () => {
    for (const input of [
      ID,
      ` ${ID} `,
      `https://www.youtube.com/watch?v=${ID}`,
      `https://youtube.com/watch?v=${ID}&t=42s`,
      `http://m.youtube.com/watch?feature=share&v=${ID}`,
      `www.youtube.com/watch?v=${ID}`,
      `youtube.com/watch?v=${ID}`,
      `https://youtu.be/${ID}`,
      `https://youtu.be/${ID}?si=abc&t=3`,
      `youtu.be/${ID}`,
      `https://www.youtube.com/embed/${ID}`,
      `https://www.youtube-nocookie.com/embed/${ID}?autoplay=1`,
      `https://www.youtube.com/shorts/${ID}`,
      `https://youtube.com/shorts/${ID}?feature=share`,
      `HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`,
    ])
      expect({ input, id: youtubeVideoId(input) }).toEqual({ input, id: ID })
    for (const input of [
      '',
      '   ',
      'dQw4w9WgXc', // 10 characters
      'dQw4w9WgXcQQ', // 12
      'dQw4w9WgXc!',
      'not a video',
      `https://vimeo.com/${ID}`,
      `https://evil.example/watch?v=${ID}`,
      `https://youtube.com.evil.example/watch?v=${ID}`,
      `https://evil.example/?u=https://youtu.be/${ID}`,
      `javascript:alert(1)//youtu.be/${ID}`,
      `ftp://youtube.com/watch?v=${ID}`,
      `https://user:pw@youtube.com/watch?v=${ID}`,
      `https://youtube.com:8443/watch?v=${ID}`,
      'https://www.youtube.com/watch?v=short',
      'https://www.youtube.com/watch',
      `https://www.youtube.com/embed/${ID}/extra`,
      `https://youtu.be/${ID}/more`,
      `https://www.youtube.com/channel/${ID}`,
      `https://youtu.be/watch?v=${ID}`,
      `<iframe src="https://www.youtube.com/embed/${ID}"></iframe>`,
      `${ID}${' '.repeat(600)}x`,
    ])
      expect({ input, id: youtubeVideoId(input) }).toEqual({ input, id: null })
  })

  test('thumbnail and player addresses', () => {
    expect(helpThumbnailUrl(ID)).toBe(`https://i.ytimg.com/vi/${ID}/hqdefault.jpg`)
    expect(helpEmbedUrl(ID)).toBe(`https://www.youtube-nocookie.com/embed/${ID}?autoplay=1`)
  })
})

describe('help videos', () => {
  test('the super user creates, edits and deletes; a link is stored as its id', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const created = await root.post('/helps', {
      title: '  Primeiros passos  ',
      description: 'Como atender o primeiro ticket',
      video: `https://www.youtube.com/watch?v=${ID}&t=10`,
      companyId: h.b.id,
      id: 999,
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.any(Number),
      title: 'Primeiros passos',
      description: 'Como atender o primeiro ticket',
      video: ID,
      createdAt: '2026-11-21T12:00:00.000Z',
      updatedAt: '2026-11-21T12:00:00.000Z',
    })
    const id = created.body.id
    expect(id).not.toBe(999)
    const row = h.deps.sqlite.query('SELECT company_id AS c FROM helps WHERE id = ?').get(id) as { c: number }
    expect(row.c).toBe(h.platform.id)

    h.clock.advance(60_000)
    const updated = await root.put(`/helps/${id}`, {
      title: 'Primeiros passos (2)',
      video: 'https://youtu.be/abcdefghijk',
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({
      id,
      title: 'Primeiros passos (2)',
      description: 'Como atender o primeiro ticket', // left out: kept
      video: 'abcdefghijk',
      updatedAt: '2026-11-21T12:01:00.000Z',
    })
    expect(
      (await root.put(`/helps/${id}`, { title: 'T', description: '', video: ID })).body.description,
    ).toBe('')

    expect((await root.del(`/helps/${id}`)).status).toBe(200)
    expect((await root.get('/helps/list')).body).toEqual([])
    expect((await root.del(`/helps/${id}`)).body.error).toBe('ERR_NO_HELP_FOUND')
  })

  test('every signed-in user of every company reads; only super users write', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const { id } = (await root.post('/helps', { title: 'Tags', video: ID })).body
    for (const email of [h.a.admin, h.a.attendant, h.b.admin, h.b.attendant]) {
      const user = await h.as(email)
      const list = await user.get('/helps/list')
      expect({ email, status: list.status, ids: list.body.map((x: { id: number }) => x.id) }).toEqual({
        email,
        status: 200,
        ids: [id],
      })
      const page = await user.get('/helps')
      expect({ email, page: page.body }).toMatchObject({ email, page: { count: 1, hasMore: false } })
      for (const res of [
        await user.post('/helps', { title: 'Mine', video: ID }),
        await user.put(`/helps/${id}`, { title: 'Mine', video: ID }),
        await user.del(`/helps/${id}`),
        // Even for an id that does not exist: the permission is checked first.
        await user.del('/helps/987654'),
      ])
        expect({ email, status: res.status, error: res.body.error }).toEqual({
          email,
          status: 403,
          error: 'ERR_NO_PERMISSION',
        })
    }
    expect((await root.get('/helps/list')).body).toMatchObject([{ id, title: 'Tags' }])
    // Signed out: 401.
    expect((await h.call('GET', '/helps/list')).status).toBe(401)
    expect((await h.call('GET', '/helps')).status).toBe(401)
    expect((await h.call('POST', '/helps', { body: { title: 'x', video: ID } })).status).toBe(401)
  })

  test('validation: title required and bounded, description bounded, video an id or a YouTube link', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const cases: [Record<string, unknown>, string[]][] = [
      [{ video: ID }, ['title']],
      [{ title: '   ', video: ID }, ['title']],
      [{ title: 'x'.repeat(201), video: ID }, ['title']],
      [{ title: 'ok', description: 'x'.repeat(1001), video: ID }, ['description']],
      [{ title: 'ok' }, ['video']],
      [{ title: 'ok', video: '' }, ['video']],
      [{ title: 'ok', video: 'https://vimeo.com/123456' }, ['video']],
      [{ title: 'ok', video: 'not a video' }, ['video']],
      [{ title: 'ok', video: 12345678901 }, ['video']],
      [{ title: 'ok', video: 'x'.repeat(501) }, ['video']],
    ]
    for (const [body, fields] of cases) {
      const res = await root.post('/helps', body)
      expect({ body, status: res.status, error: res.body.error, fields: fieldsOf(res.body) }).toEqual({
        body,
        status: 400,
        error: 'ERR_VALIDATION',
        fields,
      })
    }
    const bad = await root.post('/helps', { title: 'ok', video: 'https://example.com/x' })
    expect(bad.body.fields[0].message).toContain('YouTube video id or link')
    expect(
      (await root.post('/helps', { title: 'x'.repeat(200), description: 'd'.repeat(1000), video: ID }))
        .status,
    ).toBe(201)
    for (const video of [
      'abcdefghij0',
      'https://youtube.com/watch?v=abcdefghij1',
      'https://youtu.be/abcdefghij2',
      'https://www.youtube.com/embed/abcdefghij3',
      'https://www.youtube.com/shorts/abcdefghij4',
    ]) {
      const res = await root.post('/helps', { title: video, video })
      expect({ video, status: res.status, id: res.body.video }).toEqual({
        video,
        status: 201,
        id: video.slice(-11),
      })
    }
  })

  test('a duplicate title is 409 ERR_HELP_DUPLICATED, on create and on edit, whatever the case', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const first = (await root.post('/helps', { title: 'Filas', video: ID })).body
    const second = (await root.post('/helps', { title: 'Tags', video: ID })).body
    for (const res of [
      await root.post('/helps', { title: 'Filas', video: ID }),
      await root.post('/helps', { title: ' filas ', video: ID }),
      await root.put(`/helps/${second.id}`, { title: 'FILAS', video: ID }),
    ]) {
      expect(res.status).toBe(409)
      expect(res.body.error).toBe('ERR_HELP_DUPLICATED')
      expect(fieldsOf(res.body)).toEqual(['title'])
    }
    // Its own title is no clash.
    expect((await root.put(`/helps/${first.id}`, { title: 'filas', video: ID })).status).toBe(200)
  })

  test('unknown ids are 404 ERR_NO_HELP_FOUND', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    for (const res of [
      await root.put('/helps/4242', { title: 'x', video: ID }),
      await root.del('/helps/4242'),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_HELP_FOUND')
    }
  })

  test('the page is 20 by title, searched in title and description, with count and hasMore', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    for (let i = 25; i >= 1; i--)
      await root.post('/helps', {
        title: `Vídeo ${String(i).padStart(2, '0')}`,
        description: i === 7 ? 'Sobre campanhas' : '',
        video: ID,
      })
    const agent = await h.as(h.a.attendant)
    const one = (await agent.get('/helps')).body
    expect(one.records).toHaveLength(20)
    expect(one.records[0].title).toBe('Vídeo 01')
    expect(one).toMatchObject({ count: 25, hasMore: true })
    const two = (await agent.get('/helps?pageNumber=2')).body
    expect(two.records.map((r: { title: string }) => r.title)).toEqual(
      [21, 22, 23, 24, 25].map((n) => `Vídeo ${n}`),
    )
    expect(two.hasMore).toBe(false)
    const found = (await agent.get('/helps?searchParam=CAMPANHAS')).body
    expect(found.records.map((r: { title: string }) => r.title)).toEqual(['Vídeo 07'])
    expect(found.count).toBe(1)
    expect((await agent.get('/helps?searchParam=%25')).body.count).toBe(0)
    const all = (await agent.get('/helps/list')).body
    expect(all).toHaveLength(25)
    expect(all[24].title).toBe('Vídeo 25')
  })

  test('the CSP allows YouTube thumbnails and the nocookie player, and no other third party', async () => {
    const h = await createHarness()
    const csp = (await h.app.request('/api/health')).headers.get('content-security-policy') ?? ''
    const directive = (name: string) => csp.match(new RegExp(`(?:^|;\\s*)${name} ([^;]*)`))?.[1]
    expect(directive('img-src')).toBe("'self' data: blob: https://i.ytimg.com")
    expect(directive('frame-src')).toBe('https://www.youtube-nocookie.com')
    expect(directive('default-src')).toBe("'self'")
    expect(directive('script-src')).toBeUndefined()
  })
})
