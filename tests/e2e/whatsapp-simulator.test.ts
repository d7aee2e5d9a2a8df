/**
 * Issue 20's first "Must show", in a browser against the BUILT executable and the WhatsApp simulator
 * (tests/wa-sim): `dist/balcao serve --wa-simulator ws://127.0.0.1:P` runs the real Baileys provider against a
 * simulator hosted in this test process. An admin adds a WhatsApp (Baileys) connection; the simulated company
 * phone scans the QR the dialog shows, the simulator answers with `companion_reg_refresh`, the phone scans the
 * NEW QR the dialog shows and the connection turns CONNECTED. A simulated customer (a real Signal client) writes;
 * the admin accepts the ticket and answers with text, an image (file input) and a voice note recorded with the
 * composer's microphone button (chromium's fake microphone); the customer's device decrypts all three, media
 * included. `npm run build`, then `npm run test:e2e`. Screenshots land in tests/e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { qrPath } from '../../src/web/components/ui/QrCode'
import type { ReceivedEntry } from '../wa-sim/signal/simulated-customer'
import { type RunningSimulator, startSimulator } from '../wa-sim/start'
import {
  ADMIN,
  type Api,
  ARTIFACTS,
  artifactsDir,
  type Balcao,
  type Browser,
  launchPage,
  signIn,
  startBalcao,
} from './support'

const COMPANY = '5511999990001'
const CUSTOMER = { number: '5511988887777', name: 'Joana Cliente' }
const NAME = 'Loja Baileys'
const GREETING = 'Olá, vocês entregam hoje?'
const REPLY = 'Oi Joana, entregamos sim, até as 18h.'
/** The margin the dialog draws its QR with (QrCodeDialog). */
const QR_MARGIN = 3

let simulator: RunningSimulator
let server: Balcao
let browser: Browser
let page: Page
let api: Api
let connectionId = 0
const pageLog: string[] = []

type Connection = { id: number; name: string; status: string; qrcode: string }

/** The simulator's control API, as tests and people drive it. */
async function control<T = unknown>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${simulator.url}/control${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** The API as the signed-in page calls it (the bearer token the web client keeps in localStorage). */
async function pageApi(page: Page, base: string): Promise<Api> {
  const token = await page.evaluate(() => localStorage.getItem('token'))
  if (!token) throw new Error('the page holds no session token')
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const method = init.method ?? (init.body ? 'POST' : 'GET')
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
}

/** Polls `read` until `done` holds; fails with the last value seen. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms
  let last: T | undefined
  while (Date.now() < deadline) {
    last = await read()
    if (done(last)) return last
    await Bun.sleep(150)
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)?.slice(0, 500)}`)
}

/** A real PNG (a small gradient), so the product's image path (thumbnail included) meets a valid file. */
function gradientPng(width = 48, height = 32): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(Bun.hash.crc32(typed))
    return Buffer.concat([length, typed, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const rows: number[] = []
  for (let y = 0; y < height; y++) {
    rows.push(0)
    for (let x = 0; x < width; x++) rows.push((x * 255) / width, (y * 255) / height, 160)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
const PICTURE = gradientPng()

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `wa-sim-${name}.png`) })

/** The connection as the admin's API answers it (the text the dialog turns into its QR). */
const connection = () => api<Connection>(`/whatsapp/${connectionId}`)

/** Waits for the QR the API shows (other than `previous`) and for the dialog to draw exactly that QR. */
async function shownQr(previous?: string): Promise<string> {
  const { qrcode } = await until(
    connection,
    (c) => c.status === 'qrcode' && !!c.qrcode && c.qrcode !== previous,
    previous ? 'a new QR' : 'a QR',
  )
  const drawn = page.getByRole('dialog').getByTestId('qrcode').locator('path')
  const expected = qrPath(qrcode, QR_MARGIN).path
  try {
    await until(
      () => drawn.getAttribute('d', { timeout: 1_000 }).catch(() => null),
      (d) => d === expected,
      'the dialog to draw the QR the API shows',
    )
  } catch (error) {
    await shot('qr-missing')
    throw new Error(`${(error as Error).message}\nwhat the page got:\n${pageLog.join('\n')}`)
  }
  return qrcode
}

beforeAll(async () => {
  artifactsDir()
  simulator = await startSimulator()
  await control('/phones', { number: COMPANY })
  server = await startBalcao({ waSimulator: simulator.wsUrl, prefix: 'balcao-e2e-wa-sim-data-' })
  const launched = await launchPage({
    colorScheme: 'light',
    locale: 'pt-BR',
    prefix: 'balcao-e2e-wa-sim-chromium-',
    // The composer records with MediaRecorder: chromium's fake microphone (a beep) answers getUserMedia.
    args: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  })
  browser = launched
  page = launched.page
  // What the page learnt about its connections and when (printed when the dialog misses a QR).
  const started = Date.now()
  const note = (what: string) => pageLog.push(`${Date.now() - started}ms ${what.slice(0, 160)}`)
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      const text = String(f.payload)
      if (/whatsapp/i.test(text)) note(`ws ${text.replace(/"qrcode":"[^"]{20,}"/, '"qrcode":"<qr>"')}`)
    }),
  )
  page.on('response', (res) => {
    if (!/\/api\/whatsapp/.test(res.url())) return
    const asked = `http ${res.request().method()} ${new URL(res.url()).pathname} ${res.status()}`
    res
      .json()
      .then((body: { status?: string } | { status?: string }[]) =>
        note(`${asked} status ${Array.isArray(body) ? body.map((c) => c.status).join(',') : body.status}`),
      )
      .catch(() => note(asked))
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await simulator?.stop()
})

describe('WhatsApp (Baileys) against the simulator, in a browser', () => {
  test('the admin adds a Baileys connection; the phone scans the QR, then the refreshed one: CONNECTED', async () => {
    await signIn(page, server.url, ADMIN)
    // One session per user: the API calls below use the page's own session (its token), not a second login.
    api = await pageApi(page, server.url)
    await page.goto(`${server.url}/connections`)
    await page.getByRole('heading', { name: 'Conexões' }).waitFor()
    await page.getByRole('button', { name: 'Adicionar WhatsApp' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Adicionar WhatsApp' }).waitFor()
    await dialog.getByLabel(/^Nome/).fill(NAME)
    // Not a --sandbox server: a new connection is the Baileys ("beta") one users run.
    expect(await dialog.getByLabel('Tipo de conexão').textContent()).toContain('WhatsApp (Baileys)')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Conexão salva com sucesso!').waitFor()

    const qrDialog = page.getByRole('dialog').filter({ hasText: 'Conectar o WhatsApp' })
    await qrDialog.waitFor({ state: 'attached' })
    const list = await api<Connection[] | { whatsapps?: Connection[] }>('/whatsapp')
    const rows = Array.isArray(list) ? list : (list.whatsapps ?? [])
    connectionId = rows.find((c) => c.name === NAME)?.id ?? 0
    expect(connectionId).toBeGreaterThan(0)

    const first = await shownQr()
    await qrDialog.getByRole('img', { name: `QR Code da conexão ${NAME}` }).waitFor()
    await shot('qr-dialog')
    // WhatsApp today: the first scan makes the server send companion_reg_refresh; the phone needs a new QR.
    expect(
      await control<{ linked: boolean; reason?: string }>(`/phones/${COMPANY}/scan`, { qr: first }),
    ).toMatchObject({ linked: false, reason: 'refreshed' })
    const second = await shownQr(first)
    expect(second.split(',')[0]).not.toBe('')
    await shot('qr-dialog-refreshed')
    const linked = await control<{ linked: boolean; jid?: string }>(`/phones/${COMPANY}/scan`, { qr: second })
    expect(linked.linked).toBe(true)

    await page.getByText('WhatsApp conectado com sucesso!').waitFor({ timeout: 20_000 })
    await qrDialog.waitFor({ state: 'detached' })
    const row = page.getByRole('row').filter({ hasText: NAME })
    await row.getByTestId('status-pill').filter({ hasText: 'Conectado' }).waitFor({ timeout: 10_000 })
    expect((await connection()).status).toBe('CONNECTED')
    await page.waitForTimeout(400)
    await shot('connected')
  }, 60_000)

  test('a customer writes; the admin answers with text, an image and a voice note; the customer decrypts all three', async () => {
    await control('/customers', CUSTOMER)
    const { id: inboundId } = await control<{ id: string }>(`/customers/${CUSTOMER.number}/send`, {
      to: COMPANY,
      text: GREETING,
    })
    expect(inboundId).toBeTruthy()

    await page.goto(`${server.url}/tickets`)
    await page.getByRole('tab', { name: /Aguardando/ }).click()
    await page.getByText(GREETING).first().waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Aceitar' }).first().click()
    await page.waitForURL(/\/tickets\/[\w-]+$/)
    const input = page.getByRole('textbox', { name: /Mensagem/ })
    await input.waitFor()

    // Text.
    await input.fill(REPLY)
    await input.press('Enter')
    await page.getByText(REPLY).first().waitFor()

    // An image, through the attach button's file input.
    await page.getByTestId('file-input').setInputFiles({
      name: 'catalogo.png',
      mimeType: 'image/png',
      buffer: PICTURE,
    })
    await page.getByRole('button', { name: 'Enviar', exact: true }).click()

    // A voice note, recorded with the microphone button (chromium's fake microphone).
    await page.getByRole('button', { name: 'Gravar áudio' }).click()
    await page.getByTestId('recording-time').waitFor()
    await page.waitForTimeout(2_000)
    await page.getByRole('button', { name: 'Enviar áudio' }).click()

    const received = await until(
      () => control<ReceivedEntry[]>(`/customers/${CUSTOMER.number}/received`),
      (entries) => entries.length >= 3,
      'the customer to receive three messages',
      30_000,
    )
    expect(received).toHaveLength(3)
    const [text, image, voice] = received as [ReceivedEntry, ReceivedEntry, ReceivedEntry]
    expect(text).toMatchObject({ kind: 'text' })
    expect(text.text).toContain(REPLY)

    expect(image).toMatchObject({ kind: 'image', mimetype: 'image/png', fileLength: PICTURE.length })
    const imageBytes = await simulator.media.decryptUploaded(requireMedia(image), 'image')
    expect(Buffer.from(imageBytes).equals(PICTURE)).toBe(true)

    expect(voice).toMatchObject({ kind: 'audio', ptt: true })
    expect(voice.mimetype).toMatch(/^audio\/ogg; ?codecs=opus$/)
    const voiceBytes = Buffer.from(await simulator.media.decryptUploaded(requireMedia(voice), 'audio'))
    expect(voiceBytes.length).toBe(voice.fileLength ?? -1)
    // What the browser recorded (WebM in chromium), rewrapped by the server as Ogg Opus, as WhatsApp plays it.
    expect(voiceBytes.subarray(0, 4).toString('latin1')).toBe('OggS')
    expect(voiceBytes.includes(Buffer.from('OpusHead'))).toBe(true)

    // Balcão stored the three as sent and delivered (ack 2): the customer's devices answer each with a delivery
    // receipt, which Baileys may fold into its buffered echo of our own send (issue 20 defect 5).
    const { tickets } = await api<{ tickets: { id: number; contact: { name: string } }[] }>(
      '/tickets?status=open&showAll=true',
    )
    const ticketId = tickets.find((t) => t.contact.name === CUSTOMER.name)?.id
    type Row = { fromMe: boolean; mediaType: string; ack: number; sendState: string | null; ptt: boolean }
    const replies = await until(
      async () => (await api<{ messages: Row[] }>(`/messages/${ticketId}`)).messages.filter((m) => m.fromMe),
      (rows) => rows.length === 3 && rows.every((m) => m.sendState === 'sent' && m.ack >= 2),
      'the three replies stored as sent and delivered',
    )
    expect(replies.map((m) => [m.mediaType, m.ptt])).toEqual([
      ['chat', false],
      ['image', false],
      ['audio', true],
    ])

    await page.waitForTimeout(600)
    await shot('conversation')
  }, 60_000)
})

function requireMedia(entry: ReceivedEntry): NonNullable<ReceivedEntry['media']> & { fileLength?: number } {
  if (!entry.media) throw new Error(`${entry.kind} ${entry.id} carries no media fields`)
  return entry.media
}
