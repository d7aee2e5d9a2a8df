import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MessageDto } from '../../../shared/api'
import { rawOf } from '../messages/refs'
import { INBOUND_MEDIA_MAX_BYTES, MEDIA_BACKOFF_MS, MediaDownloader } from './media'
import { count, messagesOf, sandboxHarness } from './testing'

const CUSTOMER = '5511988887777'
const PHOTO = Buffer.from('not really a jpeg, but bytes all the same').toString('base64')

const image = (id: string) => ({
  from: CUSTOMER,
  id,
  media: { kind: 'image', mimetype: 'image/jpeg', dataBase64: PHOTO, caption: 'foto do pedido' },
})

type Live = { room: string; event: string; data: unknown }
const mediaStates = (events: Live[], companyId: number) =>
  events
    .filter(
      (e) =>
        e.event === `company-${companyId}-appMessage` &&
        e.room.endsWith(':admins') &&
        (e.data as { action: string }).action === 'update',
    )
    .map((e) => (e.data as { message: MessageDto }).message.mediaState)

const downloadRow = (h: Awaited<ReturnType<typeof sandboxHarness>>['h'], id: number) =>
  h.deps.sqlite
    .query<{ attempts: number; reuploads: number; nextAt: number; lastError: string | null }, [number]>(
      `SELECT attempts, reuploads, next_attempt_at AS nextAt, last_error AS lastError
         FROM media_downloads WHERE message_id = ?`,
    )
    .get(id)

describe('inbound media', () => {
  test('is shown at once as pending, then downloaded after commit and stored under the company', async () => {
    const { h, net, conn } = await sandboxHarness()
    const events = h.recordEvents()
    await net.inject(conn.id, image('IMG000000001'))
    await h.inbound.idle()
    const [row] = messagesOf(h)
    expect(row).toMatchObject({ mediaType: 'image', body: 'foto do pedido', mediaState: 'stored' })
    expect(row!.mediaName).toMatch(/\.jpg$/)
    const file = join(h.deps.mediaDir, String(h.a.id), row!.mediaPath!)
    expect(readFileSync(file).toString('base64')).toBe(PHOTO)
    expect(count(h, 'media_downloads')).toBe(0)
    const create = events.find((e) => (e.data as { action: string }).action === 'create')
    expect((create!.data as { message: MessageDto }).message.mediaState).toBe('pending')
    expect(mediaStates(events, h.a.id)).toEqual(['stored'])
    const admin = await h.as(h.a.admin)
    const page = await admin.get(`/messages/${row!.ticketId}`)
    expect(page.body.messages[0].mediaUrl).toMatch(new RegExp(`^/api/media/${h.a.id}/`))
  })

  test('a failed download is retried after its backoff', async () => {
    const { h, net, conn } = await sandboxHarness()
    net.failDownloads(1)
    await net.inject(conn.id, image('IMG000000002'))
    await h.inbound.idle()
    const [row] = messagesOf(h)
    expect(row!.mediaState).toBe('pending')
    expect(downloadRow(h, row!.id)).toMatchObject({
      attempts: 1,
      nextAt: h.clock.now() + MEDIA_BACKOFF_MS[0]!,
    })
    expect(downloadRow(h, row!.id)!.lastError).toContain('ERR_WAPP_DOWNLOAD_MEDIA')
    h.clock.advance(MEDIA_BACKOFF_MS[0]! - 1)
    await h.inbound.idle()
    expect(messagesOf(h)[0]!.mediaState).toBe('pending')
    h.clock.advance(1)
    await h.inbound.idle()
    expect(messagesOf(h)[0]!.mediaState).toBe('stored')
  })

  test('an expired file is asked of the phone again (re-upload) and downloaded from its new address', async () => {
    const { h, net, conn } = await sandboxHarness()
    net.failDownloads(1)
    await net.inject(conn.id, image('IMG000000003'))
    await h.inbound.idle()
    const [row] = messagesOf(h)
    const before = rawOf(
      h.deps.sqlite
        .query<{ p: string }, [number]>('SELECT provider_data AS p FROM messages WHERE id = ?')
        .get(row!.id)?.p,
    )
    net.expireMedia(conn.id, 'IMG000000003')
    h.clock.advance(MEDIA_BACKOFF_MS[0]!)
    await h.inbound.idle()
    expect(messagesOf(h)[0]!.mediaState).toBe('stored')
    const after = rawOf(
      h.deps.sqlite
        .query<{ p: string }, [number]>('SELECT provider_data AS p FROM messages WHERE id = ?')
        .get(row!.id)?.p,
    )
    // the message now holds the re-uploaded address, for a later download or a forward
    expect(Buffer.from(after!).equals(Buffer.from(before!))).toBe(false)
  })

  test('ends as failed after the last attempt, live; the retry route starts over', async () => {
    const { h, net, conn } = await sandboxHarness()
    const events = h.recordEvents()
    net.failDownloads(100)
    await net.inject(conn.id, image('IMG000000004'))
    await h.inbound.idle()
    const id = messagesOf(h)[0]!.id
    for (const wait of MEDIA_BACKOFF_MS) {
      expect(messagesOf(h)[0]!.mediaState).toBe('pending')
      h.clock.advance(wait)
      await h.inbound.idle()
    }
    expect(messagesOf(h)[0]!.mediaState).toBe('failed')
    expect(mediaStates(events, h.a.id)).toEqual(['failed'])
    expect(h.clock.pendingTimers).toBe(0)

    net.failDownloads(0)
    const admin = await h.as(h.a.admin)
    const retried = await admin.post(`/messages/${id}/media/retry`)
    expect(retried.status).toBe(202)
    expect(retried.body).toMatchObject({ id, mediaState: 'pending' })
    await h.inbound.idle()
    expect(messagesOf(h)[0]!.mediaState).toBe('stored')
    expect(mediaStates(events, h.a.id)).toEqual(['failed', 'pending', 'stored'])
    // nothing left to retry
    const again = await admin.post(`/messages/${id}/media/retry`)
    expect(again.status).toBe(400)
  })

  test('a file the phone lost too ends as failed, after at most two re-uploads', async () => {
    const { h, net, conn } = await sandboxHarness()
    net.failDownloads(1)
    await net.inject(conn.id, image('IMG000000005'))
    net.expireMedia(conn.id, 'IMG000000005', { lost: true })
    await h.inbound.idle()
    const id = messagesOf(h)[0]!.id
    for (const wait of MEDIA_BACKOFF_MS) {
      h.clock.advance(wait)
      await h.inbound.idle()
    }
    expect(messagesOf(h)[0]!.mediaState).toBe('failed')
    expect(downloadRow(h, id)).toMatchObject({ attempts: 6, reuploads: 2 })
  })

  test('a file larger than the inbound limit is not downloaded: failed at once', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, image('IMG000000007'))
    await h.inbound.idle()
    const id = messagesOf(h)[0]!.id
    h.deps.sqlite
      .query(`UPDATE messages SET media_state = 'failed', media_size = ? WHERE id = ?`)
      .run(INBOUND_MEDIA_MAX_BYTES + 1, id)
    expect(h.inbound.media.retry(h.a.id, id)).toBe(true)
    await h.inbound.idle()
    expect(messagesOf(h)[0]!.mediaState).toBe('failed')
    expect(downloadRow(h, id)!.lastError).toContain('Larger than 100 MB')
  })

  test('downloads resume after a restart from their rows', async () => {
    const { h, net, conn } = await sandboxHarness()
    net.failDownloads(1)
    await net.inject(conn.id, image('IMG000000006'))
    await h.inbound.idle()
    // the server stops; a new one starts on the same database
    h.inbound.media.stop()
    h.clock.advance(MEDIA_BACKOFF_MS[0]!)
    expect(messagesOf(h)[0]!.mediaState).toBe('pending')
    const next = new MediaDownloader(h.deps)
    next.resume()
    await next.idle()
    const [row] = messagesOf(h)
    expect(row!.mediaState).toBe('stored')
    expect(existsSync(join(h.deps.mediaDir, String(h.a.id), row!.mediaPath!))).toBe(true)
  })

  test('the retry route: 404 for another company, 403 for a ticket the user may not see, 400 for no media', async () => {
    const { h, net, conn, connB } = await sandboxHarness({}, { companyB: true })
    net.failDownloads(100)
    await net.inject(connB!.id, image('IMGB00000001'))
    await net.inject(conn.id, { from: CUSTOMER, body: 'sem mídia' })
    await h.inbound.idle()
    const [inB] = messagesOf(h, 'company_id = ?', h.b.id)
    const [inA] = messagesOf(h, 'company_id = ?', h.a.id)
    const adminA = await h.as(h.a.admin)
    expect((await adminA.post(`/messages/${inB!.id}/media/retry`)).status).toBe(404)
    expect((await adminA.post('/messages/abc/media/retry')).status).toBe(404)
    expect((await adminA.post(`/messages/${inA!.id}/media/retry`)).status).toBe(400)
    // company B's attendant is in no queue and the ticket has none: not theirs to see
    const attendantB = await h.as(h.b.attendant)
    const denied = await attendantB.post(`/messages/${inB!.id}/media/retry`)
    expect(denied.status).toBe(403)
    expect((await h.call('POST', `/messages/${inB!.id}/media/retry`)).status).toBe(401)
  })
})
