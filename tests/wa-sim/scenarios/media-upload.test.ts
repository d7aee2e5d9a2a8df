/**
 * Issue 20, defect 12: media goes up to WhatsApp's media host with a length and a time limit. A media host that
 * never answers fails that one message (with the reason, and a retry that sends it once the host is back),
 * and the connection's next messages go out meanwhile instead of waiting behind it for good.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decryptMessageMedia, type MediaStore } from '../media/index.ts'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { messageRow, openConversation, untilValue } from './conversation'
import { type WiredCustomers, wireCustomers } from './customers'

/** A short upload limit, so the stuck upload gives up within the test. */
const UPLOAD_TIMEOUT_MS = 700

let simulator: ScenarioSimulator
let wired: WiredCustomers
let b: Balcao
let store: MediaStore
/** The Content-Length of every upload the media host received. */
const uploadLengths: (string | null)[] = []

beforeAll(async () => {
  simulator = await startScenarioSimulator()
  wired = wireCustomers(simulator)
  const { sim } = simulator.running
  // The simulator's media host (media_conn and the upload/download paths); this file notes each upload's length.
  store = simulator.running.media
  sim.httpHandlers.unshift((request) => {
    if (request.method === 'POST') uploadLengths.push(request.headers.get('content-length'))
    return undefined
  })
  b = await startBalcao(simulator, { mediaUploadTimeoutMs: UPLOAD_TIMEOUT_MS })
})
afterAll(async () => {
  store.releaseUploads()
  await b.stop()
  await simulator.stop()
})

test('a stuck upload fails its message after the limit, the next reply still goes, and retry sends the file', async () => {
  const number = await simulator.newPhone({ refresh: false })
  await b.link(number)
  const talk = await openConversation(b, wired, number, '5511988880501')
  const pdf = new Uint8Array(40_000).map((_, i) => (i * 7) % 251)
  pdf.set(new TextEncoder().encode('%PDF-1.4\n'))

  store.setUploadBehaviour({ stall: true })
  const form = new FormData()
  form.append('medias', new File([pdf], 'pedido.pdf', { type: 'application/pdf' }))
  const posted = await b.h.app.request(`/api/messages/${talk.ticketId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${b.admin.token}` },
    body: form,
  })
  expect(posted.status).toBe(201)
  const fileId = ((await posted.json()) as { message: { id: number } }).message.id
  const textId = await talk.reply('Segue o pedido em anexo')

  const failed = await untilValue(
    b,
    () => (messageRow(b, fileId).sendState === 'failed' ? messageRow(b, fileId) : undefined),
    'the stuck upload given up',
    UPLOAD_TIMEOUT_MS + 8_000,
  )
  expect(failed.sendError).toContain('upload')
  const text = await untilValue(
    b,
    () => (messageRow(b, textId).sendState === 'sent' ? messageRow(b, textId) : undefined),
    'the reply after it sent',
  )
  const relayedText = await wired.relay((m) => m.out.id === text.wid)
  const readText = await talk.customer.receive(relayedText.out, talk.company.companion.jid)
  expect(readText.entries.map((e) => e.text)).toEqual(['Segue o pedido em anexo'])

  store.setUploadBehaviour({})
  store.releaseUploads()
  expect((await b.admin.post(`/messages/${fileId}/retry`, {})).status).toBe(200)
  const sent = await untilValue(
    b,
    () => (messageRow(b, fileId).sendState === 'sent' ? messageRow(b, fileId) : undefined),
    'the file sent on retry',
  )
  const relayedFile = await wired.relay((m) => m.out.id === sent.wid)
  await talk.customer.receive(relayedFile.out, talk.company.companion.jid)
  const received = talk.customer.receivedMessage(sent.wid ?? '')
  expect(received).toBeDefined()
  const media = await decryptMessageMedia(store, received!)
  expect(media).toMatchObject({ kind: 'document', mimetype: 'application/pdf', fileName: 'pedido.pdf' })
  expect(Buffer.from(media!.bytes).equals(Buffer.from(pdf))).toBe(true)
  // Every upload told the host its length (Baileys's Bun path streams without one).
  expect(uploadLengths.length).toBeGreaterThan(0)
  expect(uploadLengths.every((length) => length !== null && Number(length) > 0)).toBe(true)
}, 30_000)
