import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { mediaFilePath } from '../../media/store'
import { samples } from '../../media/testing'
import { createHarness, type Harness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
  png,
  rawRequest,
  uploadTo,
} from '../../test/probe'

const MB = 1024 * 1024

/** The spec's multipart: fileId, typeArch=fileList, and per option its file, mediaType, name and id. */
function uploadOptions(
  h: Harness,
  token: string,
  fileId: number,
  parts: { id: number | string; file: File }[],
) {
  return uploadTo(h, `/files/uploadList/${fileId}`, token, [
    { name: 'fileId', value: String(fileId) },
    { name: 'typeArch', value: 'fileList' },
    ...parts.flatMap((p) => [
      { name: 'files', value: p.file },
      { name: 'mediaType', value: p.file.type },
      { name: 'name', value: 'x' },
      { name: 'id', value: String(p.id) },
    ]),
  ])
}

const stored = (h: Harness, companyId: number, path: string) =>
  existsSync(mediaFilePath(h.deps, companyId, path) ?? '/nonexistent')

describe('files', () => {
  test('create, list, search, get, update options, upload, delete: files removed, events live', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const events = h.recordEvents()
    const created = await admin.post('/files', {
      name: 'Catálogo',
      message: 'Veja nosso catálogo',
      options: [{ name: 'Frente' }, { name: 'Verso' }],
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      name: 'Catálogo',
      message: 'Veja nosso catálogo',
      companyId: h.a.id,
    })
    const [front, back] = created.body.options
    expect(front).toMatchObject({ name: 'Frente', path: null, mediaUrl: null })
    await admin.post('/files', { name: 'Boletos', message: 'Segue o boleto' })

    const page = await admin.get('/files?searchParam=cat')
    expect(page.body).toMatchObject({ count: 1, hasMore: false })
    expect(page.body.files.map((f: { name: string }) => f.name)).toEqual(['Catálogo'])
    expect(page.body.files[0].options.length).toBe(2)
    expect((await admin.get('/files')).body.files.map((f: { name: string }) => f.name)).toEqual([
      'Boletos',
      'Catálogo',
    ])
    expect((await admin.get('/files/list')).body.length).toBe(2)

    const up = await uploadOptions(h, admin.token, created.body.id, [
      { id: front.id, file: png('frente.png') },
      { id: back.id, file: new File([samples.pdf()], 'verso.pdf', { type: 'application/pdf' }) },
    ])
    expect(up.status).toBe(200)
    const [f1, b1] = up.body.options
    expect(f1).toMatchObject({ mediaName: 'frente.png', mediaType: 'image/png' })
    expect(f1.path).toMatch(/^[A-Za-z0-9_-]{16,64}\.png$/)
    expect(f1.mediaUrl).toContain(`/api/media/${h.a.id}/${f1.path}?exp=`)
    expect(b1).toMatchObject({ mediaName: 'verso.pdf', mediaType: 'application/pdf' })
    expect(stored(h, h.a.id, f1.path)).toBe(true)

    // Replacing an attachment removes the old file.
    const again = await uploadOptions(h, admin.token, created.body.id, [
      { id: front.id, file: png('nova.png') },
    ])
    expect(again.status).toBe(200)
    const f2 = again.body.options[0]
    expect(f2.path).not.toBe(f1.path)
    expect(stored(h, h.a.id, f1.path)).toBe(false)

    // PUT: rename one, drop the other (its file goes), add a new one; remove an attachment.
    const put = await admin.put(`/files/${created.body.id}`, {
      name: 'Catálogo 2026',
      message: 'Veja nosso catálogo',
      options: [{ id: front.id, name: 'Capa', removeAttachment: true }, { name: 'Nova' }],
    })
    expect(put.status).toBe(200)
    expect(put.body.name).toBe('Catálogo 2026')
    expect(put.body.message).toBe('Veja nosso catálogo')
    expect(put.body.options.map((o: { name: string }) => o.name)).toEqual(['Capa', 'Nova'])
    expect(put.body.options[0].path).toBeNull()
    expect(stored(h, h.a.id, f2.path)).toBe(false)
    expect(stored(h, h.a.id, b1.path)).toBe(false)

    // An option id of another list is refused, nothing changes.
    const other = (await admin.post('/files', { name: 'Outra', message: 'm', options: [{ name: 'o' }] })).body
    const wrong = await admin.put(`/files/${created.body.id}`, {
      name: 'XYZ',
      message: 'm',
      options: [{ id: other.options[0].id, name: 'roubada' }],
    })
    expectRefused('foreign option', wrong, 400)
    expect((await admin.get(`/files/${created.body.id}`)).body.name).toBe('Catálogo 2026')
    expectRefused(
      'upload to a foreign option',
      await uploadOptions(h, admin.token, created.body.id, [{ id: other.options[0].id, file: png() }]),
      400,
    )

    const last = await uploadOptions(h, admin.token, created.body.id, [
      { id: put.body.options[1].id, file: png() },
    ])
    const lastPath = last.body.options[1].path
    expect(stored(h, h.a.id, lastPath)).toBe(true)
    expect((await admin.del(`/files/${created.body.id}`)).status).toBe(200)
    expect(stored(h, h.a.id, lastPath)).toBe(false)
    expect((await admin.get(`/files/${created.body.id}`)).status).toBe(404)

    const names = events
      .filter((e) => e.event === `company-${h.a.id}-file`)
      .map((e) => (e.data as { action: string }).action)
    expect(names).toEqual(['create', 'create', 'update', 'update', 'update', 'create', 'update', 'delete'])
    expect(events.find((e) => e.event === `company-${h.a.id}-file`)).toMatchObject({
      room: `company:${h.a.id}`,
    })
  })

  test('tenancy: another company’s list is 404 on every route', async () => {
    const h = await createHarness()
    const a = await h.as(h.a.admin)
    const b = await h.as(h.b.admin)
    const { id, options } = (
      await a.post('/files', { name: 'Privado', message: 'm', options: [{ name: 'o' }] })
    ).body
    expect((await b.get(`/files/${id}`)).status).toBe(404)
    expect((await b.put(`/files/${id}`, { name: 'xyz', message: 'm' })).status).toBe(404)
    expect((await b.del(`/files/${id}`)).status).toBe(404)
    const up = await uploadOptions(h, b.token, id, [{ id: options[0].id, file: png() }])
    expect(up.status).toBe(404)
    expect(up.body.error).toBe('ERR_NO_FILE_FOUND')
    expect((await b.get('/files')).body).toMatchObject({ files: [], count: 0 })
    expect((await b.get('/files/list')).body).toEqual([])
    expect((await a.get(`/files/${id}`)).body.name).toBe('Privado')
  })

  test('validation (spec 3): name of at least 3 characters, message required; 400 naming the field', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const fieldsOf = (res: { status: number; body: { fields?: { field: string }[] } }) => {
      expect(res.status).toBe(400)
      return (res.body.fields ?? []).map((f) => f.field)
    }
    expect(fieldsOf(await admin.post('/files', { name: 'ab', message: 'Mensagem' }))).toEqual(['name'])
    expect(fieldsOf(await admin.post('/files', { name: '  ab  ', message: 'Mensagem' }))).toEqual(['name'])
    expect(fieldsOf(await admin.post('/files', { name: 'Boletos' }))).toEqual(['message'])
    expect(fieldsOf(await admin.post('/files', { name: 'Boletos', message: '   ' }))).toEqual(['message'])
    const created = await admin.post('/files', { name: 'abc', message: 'Mensagem' })
    expect(created.status).toBe(201)
    expect(fieldsOf(await admin.put(`/files/${created.body.id}`, { name: 'abc', message: '' }))).toEqual([
      'message',
    ])
    expect(fieldsOf(await admin.put(`/files/${created.body.id}`, { name: 'x', message: 'm' }))).toEqual([
      'name',
    ])
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM files').get()).toEqual({ n: 1 })
  })

  test('roles: attendants read, only admins write', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const agent = await h.as(h.a.attendant)
    const { id, options } = (
      await admin.post('/files', { name: 'Lista', message: 'm', options: [{ name: 'o' }] })
    ).body
    expect((await agent.get('/files')).status).toBe(200)
    expect((await agent.get(`/files/${id}`)).status).toBe(200)
    expect((await agent.post('/files', { name: 'xyz', message: 'm' })).status).toBe(403)
    expect((await agent.put(`/files/${id}`, { name: 'xyz', message: 'm' })).status).toBe(403)
    expect((await agent.del(`/files/${id}`)).status).toBe(403)
    expect((await uploadOptions(h, agent.token, id, [{ id: options[0].id, file: png() }])).status).toBe(403)
    expect((await h.call('GET', '/files')).status).toBe(401)
  })

  test('uploads: the allow-list (415), the kind limit (413), files and ids in step; nothing kept on refusal', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { id, options } = (
      await admin.post('/files', { name: 'Lista', message: 'm', options: [{ name: 'a' }, { name: 'b' }] })
    ).body
    const exe = await uploadOptions(h, admin.token, id, [
      { id: options[0].id, file: new File([samples.exe()], 'nota.pdf', { type: 'application/pdf' }) },
    ])
    expect(exe.status).toBe(415)
    expect(exe.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE')
    const svg = await uploadOptions(h, admin.token, id, [
      { id: options[0].id, file: new File([samples.svg()], 'a.svg', { type: 'image/svg+xml' }) },
    ])
    expect(svg.status).toBe(415)
    const big = new Uint8Array(16 * MB + 1)
    big.set(samples.jpeg())
    const tooBig = await uploadOptions(h, admin.token, id, [
      { id: options[0].id, file: new File([big], 'big.jpg', { type: 'image/jpeg' }) },
    ])
    expect(tooBig.status).toBe(413)
    expect(tooBig.body).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE', details: { limit: 16 * MB } })
    const path = `/files/uploadList/${id}`
    expectRefused(
      'no files',
      await uploadTo(h, path, admin.token, [{ name: 'id', value: String(options[0].id) }]),
      400,
    )
    expectRefused('no id', await uploadTo(h, path, admin.token, [{ name: 'files', value: png() }]), 400)
    expectRefused(
      'bad id',
      await uploadTo(h, path, admin.token, [
        { name: 'files', value: png() },
        { name: 'id', value: '01' },
      ]),
      400,
    )
    expectRefused(
      'one option twice',
      await uploadOptions(h, admin.token, id, [
        { id: options[0].id, file: png() },
        { id: options[0].id, file: png() },
      ]),
      400,
    )
    expectRefused(
      'file as text',
      await uploadTo(h, path, admin.token, [
        { name: 'files', value: 'x' },
        { name: 'id', value: '1' },
      ]),
      400,
    )
    expectRefused('no body', await rawRequest(h, 'POST', path, admin.token, null, null))
    expectRefused('text body', await rawRequest(h, 'POST', path, admin.token, 'text/plain', 'x'))
    expectRefused('json body', await admin.post(path, { files: 'x' }))
    expectRefused(
      'typeArch too long',
      await uploadTo(h, path, admin.token, [
        { name: 'typeArch', value: 'x'.repeat(51) },
        { name: 'files', value: png() },
        { name: 'id', value: String(options[0].id) },
      ]),
      400,
    )
    const after = (await admin.get(`/files/${id}`)).body
    expect(after.options.every((o: { path: string | null }) => o.path === null)).toBe(true)
    // A display name is its last segment only.
    const ok = await uploadOptions(h, admin.token, id, [{ id: options[0].id, file: png('../../x.png') }])
    expect(ok.body.options[0].mediaName).toBe('x.png')
    // More than 70 MiB in one request: 413 before it is read.
    const huge = await h.app.request(path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin.token}`,
        'content-type': 'multipart/form-data; boundary=zz',
        'content-length': String(71 * MB),
      },
      body: 'x',
    })
    expect(huge.status).toBeLessThan(500)
  })

  test('probes: junk bodies, values, ids and queries are 4xx, never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { id } = (await admin.post('/files', { name: 'base', message: 'm', options: [{ name: 'o' }] })).body
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/files')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/files/${id}`)
    const base = { name: 'probe', message: 'texto', options: [{ name: 'o' }] }
    for (const body of [
      ...mutations(base),
      ...mutations({ name: 'p', options: [{ id: 1, name: 'o', removeAttachment: true }] }).map((o) => ({
        name: 'p',
        options: [o],
      })),
    ]) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await admin.post('/files', body))
      expectNo500(`PUT ${label}`, await admin.put(`/files/${id}`, body))
    }
    expectRefused(
      'too many options',
      await admin.post('/files', {
        name: 'xyz',
        message: 'm',
        options: Array.from({ length: 11 }, () => ({ name: 'o' })),
      }),
      400,
    )
    expectRefused('name too long', await admin.post('/files', { name: 'n'.repeat(101), message: 'm' }), 400)
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/files/:id'],
        ['PUT', '/files/:id'],
        ['DELETE', '/files/:id'],
        ['POST', '/files/uploadList/:id'],
      ],
      'ERR_NO_FILE_FOUND',
    )
    for (const q of ['pageNumber=NaN', 'pageNumber=1.5', 'pageNumber=100001'])
      expectRefused(q, await admin.get(`/files?${q}`), 400)
    expectNo500('bad escape', await admin.get('/files?searchParam=%ZZ'))
  })
})
