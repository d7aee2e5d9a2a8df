import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { flushMicrotasks } from '../clock'
import { addMessage, conversation, messageRow, spyOnSends } from '../modules/messages/testing'
import { createHarness, type Harness } from '../test/harness'
import { signedMediaUrl } from './sign'
import { mediaFilePath } from './store'
import { opusPackets, samples, webmOpus } from './testing'

const MB = 1024 * 1024

type Part = { bytes: Uint8Array<ArrayBuffer>; name: string; type: string }

async function upload(
  h: Harness,
  token: string,
  path: string,
  files: Part[],
  fields: Record<string, string> = {},
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  for (const f of files) form.append('medias', new File([f.bytes], f.name, { type: f.type }))
  const res = await h.app.request(`/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
  return { status: res.status, body: (await res.json()) as any }
}

async function setup() {
  const h = await createHarness()
  const c = await conversation(h, h.a.id, { userId: h.a.adminId })
  const spy = spyOnSends(h, c.session)
  const admin = await h.as(h.a.admin)
  return { h, ...c, spy, admin }
}

describe('sending files', () => {
  test('each file is stored under the company, sent as its kind, and shown through a signed link', async () => {
    const { h, ticket, admin, spy } = await setup()
    const res = await upload(
      h,
      admin.token,
      `/messages/${ticket.id}`,
      [
        { bytes: samples.jpeg(), name: 'foto.jpg', type: 'image/jpeg' },
        { bytes: samples.pdf(), name: 'orçamento.pdf', type: 'application/pdf' },
      ],
      { body: ' segue ' },
    )
    expect(res.status).toBe(201)
    const [photo, doc] = res.body.messages
    expect(photo).toMatchObject({
      mediaType: 'image',
      body: 'segue',
      mediaName: 'foto.jpg',
      mediaMime: 'image/jpeg',
    })
    expect(doc).toMatchObject({ mediaType: 'application', body: '', mediaName: 'orçamento.pdf' })
    expect(photo.mediaUrl).toMatch(
      new RegExp(`^/api/media/${h.a.id}/[A-Za-z0-9_-]{24}\\.jpg\\?exp=\\d+&sig=`),
    )
    await flushMicrotasks()
    expect(spy.calls.map((c) => c.content)).toEqual([
      {
        kind: 'image',
        path: expect.stringContaining(`/${h.a.id}/`),
        mimetype: 'image/jpeg',
        fileName: 'foto.jpg',
        caption: 'segue',
      },
      {
        kind: 'document',
        path: expect.stringContaining('.pdf'),
        mimetype: 'application/pdf',
        fileName: 'orçamento.pdf',
      },
    ])
    const file = await h.app.request(photo.mediaUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/jpeg')
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(samples.jpeg())
    const pdf = await h.app.request(doc.mediaUrl)
    expect(pdf.headers.get('content-disposition')).toStartWith('attachment')
  })

  test('a type off the allow-list is 415; a file over its limit is 413 with the limit; nothing is kept', async () => {
    const { h, ticket, admin, spy } = await setup()
    const exe = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes: samples.exe(), name: 'nota.pdf', type: 'application/pdf' },
    ])
    expect(exe.status).toBe(415)
    expect(exe.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE')
    const svg = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes: samples.svg(), name: 'a.svg', type: 'image/svg+xml' },
    ])
    expect(svg.status).toBe(415)
    const big = new Uint8Array(16 * MB + 1)
    big.set(samples.jpeg())
    const tooBig = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes: big, name: 'big.jpg', type: 'image/jpeg' },
    ])
    expect(tooBig.status).toBe(413)
    expect(tooBig.body).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE', details: { limit: 16 * MB } })
    expect(tooBig.body.message).toContain('16 MB')
    const huge = new Uint8Array(71 * MB)
    huge.set(samples.mp4())
    const whole = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes: huge, name: 'v.mp4', type: 'video/mp4' },
    ])
    expect(whole.status).toBe(413)
    expect(whole.body.message).toContain('70 MB')
    expect(h.deps.sqlite.query('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 })
    expect(existsSync(`${h.deps.mediaDir}/${h.a.id}`)).toBe(false)
    await flushMicrotasks()
    expect(spy.calls).toHaveLength(0)
    // The 2 MiB limit still holds for JSON everywhere.
    const json = await admin.post(`/messages/${ticket.id}`, { body: 'x'.repeat(3 * MB) })
    expect(json.status).toBe(413)
  })

  test("a browser's WebM/Opus recording reaches WhatsApp as an Ogg/Opus voice note", async () => {
    const { h, ticket, admin, spy } = await setup()
    const res = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes: webmOpus(opusPackets(50)), name: 'audio-1700000000.webm', type: 'audio/webm;codecs=opus' },
    ])
    expect(res.status).toBe(201)
    expect(res.body.message).toMatchObject({
      mediaType: 'audio',
      ptt: true,
      mediaMime: 'audio/ogg',
      mediaName: 'audio-1700000000.ogg',
    })
    await flushMicrotasks()
    expect(spy.calls[0]!.content).toMatchObject({
      kind: 'audio',
      ptt: true,
      mimetype: 'audio/ogg; codecs=opus',
    })
    const row = messageRow(h, res.body.message.id)
    const stored = await Bun.file(mediaFilePath(h.deps, h.a.id, row.mediaPath!)!).bytes()
    expect(new TextDecoder().decode(stored.subarray(0, 4))).toBe('OggS')
  })

  test('an MP3 is an audio file, not a voice note; a note with a file is never sent', async () => {
    const { h, ticket, admin, spy } = await setup()
    const mp3 = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes: samples.mp3(), name: 'a.mp3', type: 'audio/mpeg' },
    ])
    expect(mp3.body.message).toMatchObject({ mediaType: 'audio', ptt: false })
    const note = await upload(
      h,
      admin.token,
      `/messages/${ticket.id}`,
      [{ bytes: samples.png(), name: 'print.png', type: 'image/png' }],
      {
        isPrivate: 'true',
      },
    )
    expect(note.body.message).toMatchObject({ isPrivate: true, sendState: null, mediaType: 'image' })
    await flushMicrotasks()
    expect(spy.calls.map((c) => c.content?.kind)).toEqual(['audio'])
    expect(spy.calls[0]!.content).toMatchObject({ mimetype: 'audio/mpeg' })
    expect((spy.calls[0]!.content as { ptt?: boolean }).ptt).toBeUndefined()
  })

  test('bad multipart input is 400', async () => {
    const { h, ticket, admin } = await setup()
    const empty = await upload(h, admin.token, `/messages/${ticket.id}`, [], { body: '  ' })
    expect(empty.status).toBe(400)
    const zero = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes: new Uint8Array(), name: 'x.jpg', type: 'image/jpeg' },
    ])
    expect(zero.status).toBe(400)
    const quoted = await upload(h, admin.token, `/messages/${ticket.id}`, [], {
      body: 'oi',
      quotedMsg: 'abc',
    })
    expect(quoted.status).toBe(400)
    const broken = await h.app.request(`/api/messages/${ticket.id}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin.token}`,
        'content-type': 'multipart/form-data; boundary=zzz',
      },
      body: 'not a form',
    })
    expect(broken.status).toBe(400)
  })
})

describe('GET /api/media/...', () => {
  async function stored() {
    const { h, ticket, admin } = await setup()
    const bytes = new Uint8Array(10_000).map((_, i) => i & 0xff)
    bytes.set(samples.mp3())
    const res = await upload(h, admin.token, `/messages/${ticket.id}`, [
      { bytes, name: 'a.mp3', type: 'audio/mpeg' },
    ])
    return { h, url: res.body.message.mediaUrl as string, bytes, ticket, admin }
  }

  test('range requests answer 206 with the part; past the end 416', async () => {
    const { h, url, bytes } = await stored()
    const part = await h.app.request(url, { headers: { range: 'bytes=100-199' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`)
    expect(part.headers.get('content-length')).toBe('100')
    expect(part.headers.get('content-type')).toBe('audio/mpeg')
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(100, 200))
    const tail = await h.app.request(url, { headers: { range: 'bytes=-10' } })
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(-10))
    const past = await h.app.request(url, { headers: { range: `bytes=${bytes.length}-` } })
    expect(past.status).toBe(416)
    const whole = await h.app.request(url)
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
  })

  test('a tampered or foreign link is 403, an expired one 403, an unknown file 404', async () => {
    const { h, url } = await stored()
    const u = new URL(url, 'http://x')
    const sig = u.searchParams.get('sig')!
    const tampered = `${u.pathname}?exp=${u.searchParams.get('exp')}&sig=${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`
    expect((await h.app.request(tampered)).status).toBe(403)
    const later = `${u.pathname}?exp=${Number(u.searchParams.get('exp')) + 86_400}&sig=${sig}`
    expect((await h.app.request(later)).status).toBe(403)
    expect((await h.app.request(u.pathname)).status).toBe(403)
    const otherCompany = url.replace(`/api/media/${h.a.id}/`, `/api/media/${h.b.id}/`)
    expect((await h.app.request(otherCompany)).status).toBe(403)
    const traversal = await h.app.request(`/api/media/${h.a.id}/..%2Fsecrets.json?exp=1&sig=x`)
    expect(traversal.status).toBe(404)
    const missing = signedMediaUrl(h.deps, h.a.id, 'AAAAAAAAAAAAAAAAAAAAAAAA.jpg')
    expect((await h.app.request(missing)).status).toBe(404)
    h.clock.advance(8 * 60 * 60 * 1000)
    const expired = await h.app.request(url)
    expect(expired.status).toBe(403)
    expect((await expired.json()).message).toContain('expired')
  })

  test('a listed message carries a fresh signed link', async () => {
    const { h, ticket } = await stored()
    addMessage(h, ticket, { body: 'depois' })
    h.clock.advance(8 * 60 * 60 * 1000)
    const list = await (await h.as(h.a.admin)).get(`/messages/${ticket.id}`)
    const media = list.body.messages.find((m: { mediaUrl: string | null }) => m.mediaUrl)
    expect((await h.app.request(media.mediaUrl)).status).toBe(200)
  })
})
