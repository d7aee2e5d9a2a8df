import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChannelSession, ContactRef } from '../../channels/types'
import { flushMicrotasks } from '../../clock'
import { createHarness, type Harness } from '../../test/harness'
import { PICTURE_REFRESH_MS, refreshProfilePicture } from './picture'
import { makeContact, setTricked } from './testing'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function connected(h: Harness) {
  const conn = h.makeConnection(h.a.id)
  await h.deps.channels.start(conn)
  const fake = h.sessions.get(conn.id)!
  await fake.emit({ t: 'status', status: 'CONNECTED' })
  const session: ChannelSession = fake
  const asked: unknown[] = []
  let answer: string | null = null
  session.profilePictureUrl = async (ref: ContactRef) => {
    asked.push(ref)
    return answer
  }
  return { conn, asked, answer: (url: string | null) => (answer = url) }
}

const pictureOf = (h: Harness, id: number) =>
  h.deps.sqlite
    .query('SELECT profile_pic_url AS url, profile_pic_checked_at AS at FROM contacts WHERE id = ?')
    .get(id) as {
    url: string
    at: number | null
  }

describe('profile pictures', () => {
  test("asked of the contact's connection at most once a day; a change is stored and live", async () => {
    const h = await createHarness()
    const { conn, asked, answer } = await connected(h)
    const contact = makeContact(h, h.a.id, { number: '5511987654321', lid: '111222', whatsappId: conn.id })
    answer('data:image/png;base64,AAAA')
    const events = h.recordEvents()
    await refreshProfilePicture(h.deps, contact.id)
    expect(asked).toEqual([{ jid: '111222@lid', pn: '5511987654321', lid: '111222' }])
    expect(pictureOf(h, contact.id)).toEqual({ url: 'data:image/png;base64,AAAA', at: h.clock.now() })
    expect(events.filter((e) => e.event === `company-${h.a.id}-contact`)).toHaveLength(1)
    // Within a day: not asked again.
    h.clock.advance(PICTURE_REFRESH_MS - 1000)
    await refreshProfilePicture(h.deps, contact.id)
    expect(asked).toHaveLength(1)
    // After a day: asked again; the picture is gone (privacy), so the field empties.
    h.clock.advance(2000)
    answer(null)
    await refreshProfilePicture(h.deps, contact.id)
    expect(asked).toHaveLength(2)
    expect(pictureOf(h, contact.id).url).toBe('')
    // force: asked at once (WhatsApp said the picture changed); the same answer publishes nothing.
    const before = events.length
    await refreshProfilePicture(h.deps, contact.id, { force: true })
    expect(asked).toHaveLength(3)
    expect(events.length).toBe(before)
  })

  test("a picture on WhatsApp's host is downloaded, stored with the company's media, and linked signed", async () => {
    const h = await createHarness()
    const mediaDir = mkdtempSync(join(tmpdir(), 'balcao-pic-'))
    dirs.push(mediaDir)
    ;(h.deps as { mediaDir: string }).mediaDir = mediaDir
    const { conn, answer } = await connected(h)
    const contact = makeContact(h, h.a.id, { number: '5511987654321', whatsappId: conn.id })
    answer('https://pps.whatsapp.net/v/t61/abc.jpg?oe=1')
    const fetched: string[] = []
    const fetchImage = async (url: string) => {
      fetched.push(url)
      return { bytes: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]), mime: 'image/jpeg' }
    }
    await refreshProfilePicture(h.deps, contact.id, { fetch: fetchImage })
    expect(fetched).toEqual(['https://pps.whatsapp.net/v/t61/abc.jpg?oe=1'])
    const url = pictureOf(h, contact.id).url
    expect(url).toMatch(new RegExp(`^/api/media/${h.a.id}/[A-Za-z0-9_-]+\\.jpe?g\\?exp=\\d+&sig=`))
    expect(readdirSync(join(mediaDir, String(h.a.id)))).toHaveLength(1)
    // The link is served (signed, this company's folder).
    const served = await h.app.request(url)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]))
    // The same bytes a day later keep the file; a new picture replaces it (the old file goes).
    h.clock.advance(PICTURE_REFRESH_MS + 1)
    await refreshProfilePicture(h.deps, contact.id, { fetch: fetchImage })
    expect(readdirSync(join(mediaDir, String(h.a.id)))).toHaveLength(1)
    h.clock.advance(PICTURE_REFRESH_MS + 1)
    await refreshProfilePicture(h.deps, contact.id, {
      fetch: async () => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 9]), mime: 'image/jpeg' }),
    })
    const files = readdirSync(join(mediaDir, String(h.a.id)))
    expect(files).toHaveLength(1)
    expect(pictureOf(h, contact.id).url).toContain(`/${files[0]}?`)
    // Deleting the contact deletes its picture.
    expect((await (await h.as(h.a.admin)).del(`/contacts/${contact.id}`)).status).toBe(200)
    expect(readdirSync(join(mediaDir, String(h.a.id)))).toHaveLength(0)
  })

  test('without a connected session nothing is asked nor marked; a failing channel waits for tomorrow', async () => {
    const h = await createHarness()
    const contact = makeContact(h, h.a.id, { number: '5511987654321' })
    await refreshProfilePicture(h.deps, contact.id)
    expect(pictureOf(h, contact.id).at).toBeNull()
    const { asked } = await connected(h)
    const session: ChannelSession = [...h.sessions.values()][0]!
    session.profilePictureUrl = async (ref: ContactRef) => {
      asked.push(ref)
      throw new Error('rate limited')
    }
    await expect(refreshProfilePicture(h.deps, contact.id)).rejects.toThrow('rate limited')
    expect(pictureOf(h, contact.id).at).toBe(h.clock.now())
    await refreshProfilePicture(h.deps, contact.id)
    expect(asked).toHaveLength(1)
  })

  test('a contact created through the API gets its picture after the answer', async () => {
    const h = await createHarness()
    const { asked, answer } = await connected(h)
    answer('data:image/png;base64,BBBB')
    setTricked(h, h.a.attendantId, 'disabled')
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/contacts', { name: 'Com foto', number: '5511987654321' })
    expect(res.status).toBe(201)
    await flushMicrotasks()
    expect(asked).toEqual([{ jid: '5511987654321@s.whatsapp.net', pn: '5511987654321' }])
    expect((await agent.get(`/contacts/${res.body.id}`)).body.profilePicUrl).toBe(
      'data:image/png;base64,BBBB',
    )
  })
})
