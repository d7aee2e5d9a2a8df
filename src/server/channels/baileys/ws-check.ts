/**
 * `balcao doctor websocket`: proves which WebSocket implementation Baileys really uses and that it
 * speaks the start of WhatsApp's handshake. A local Bun WebSocket server on 127.0.0.1 (random port)
 * stands in for `wss://web.whatsapp.com/ws/chat`; a Baileys socket with a throwaway in-memory auth
 * state connects to it; the check waits for the first binary frame (the noise header `WA` 6 3 and the
 * ClientHello), then ends the socket and stops the server. Nothing leaves 127.0.0.1.
 */
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger.js'
import {
  baileysWebSocketPatched,
  configuredWebSocketImpl,
  setWebSocketImpl,
  WEBSOCKET_ENV,
  type WebSocketImpl,
  webSocketImplOf,
} from './ws-impl'

export type WebSocketCheck = {
  ok: boolean
  /** The implementation asked for (`--impl`, else `BALCAO_WA_WEBSOCKET`, else npm). */
  requested: WebSocketImpl
  /** The class Baileys' socket really is an instance of. */
  used: WebSocketImpl | 'unknown'
  /** Whether Baileys' websocket module was rewritten by our plugin (else the setting is ignored). */
  patched: boolean
  standalone: boolean
  url: string
  /** The Origin header of the upgrade request (Baileys sends https://web.whatsapp.com). */
  origin: string | null
  /** Hex of the first bytes of the first binary frame. */
  firstFrameHex: string | null
  firstFrameBytes: number
  /** The frame starts with the noise header: 'W' 'A' 0x06 0x03. */
  noiseHeader: boolean
  ms: number
  error?: string
}

const NOISE_HEADER = [0x57, 0x41, 0x06, 0x03]

const silentLogger: ILogger = {
  level: 'silent',
  child: () => silentLogger,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
}

export async function checkWebSocket(
  options: { impl?: WebSocketImpl; timeoutMs?: number } = {},
): Promise<WebSocketCheck> {
  const started = performance.now()
  const timeoutMs = options.timeoutMs ?? 10_000
  if (options.impl) setWebSocketImpl(options.impl)
  const requested = configuredWebSocketImpl()

  let origin: string | null = null
  let resolveFrame: (bytes: Uint8Array) => void = () => {}
  const firstFrame = new Promise<Uint8Array>((resolve) => {
    resolveFrame = resolve
  })
  let serverSide: { close(code?: number, reason?: string): void } | undefined
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req, srv) {
      origin = req.headers.get('origin')
      if (srv.upgrade(req)) return undefined
      return new Response('expected a WebSocket upgrade', { status: 426 })
    },
    websocket: {
      open(ws) {
        serverSide = ws
      },
      message(_ws, message) {
        if (typeof message !== 'string') resolveFrame(new Uint8Array(message))
      },
    },
  })
  const url = `ws://127.0.0.1:${server.port}/ws/chat`

  const result: WebSocketCheck = {
    ok: false,
    requested,
    used: 'unknown',
    patched: false,
    standalone: Bun.isStandaloneExecutable,
    url,
    origin: null,
    firstFrameHex: null,
    firstFrameBytes: 0,
    noiseHeader: false,
    ms: 0,
  }
  let sock: { ws: unknown; end(error: Error | undefined): Promise<void> } | undefined
  let closed: Promise<void> = Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const baileys = await import('@whiskeysockets/baileys')
    result.patched = baileysWebSocketPatched()
    const keys = new Map<string, unknown>()
    const created = baileys.makeWASocket({
      waWebSocketUrl: url,
      auth: {
        creds: baileys.initAuthCreds(),
        keys: {
          get: (type, ids) => {
            const out: Record<string, never> = {}
            for (const id of ids) {
              const v = keys.get(`${type}.${id}`)
              if (v) out[id] = v as never
            }
            return out
          },
          set: (data) => {
            for (const [type, entries] of Object.entries(data)) {
              for (const [id, v] of Object.entries(entries ?? {})) {
                if (v == null) keys.delete(`${type}.${id}`)
                else keys.set(`${type}.${id}`, v)
              }
            }
          },
        },
      },
      logger: silentLogger,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      fireInitQueries: false,
      connectTimeoutMs: timeoutMs,
    })
    sock = created
    closed = new Promise<void>((resolve) => {
      created.ev.on('connection.update', (update) => {
        if (update.connection === 'close') resolve()
      })
    })
    // the socket Baileys opened right away: which class is it really?
    result.used = webSocketImplOf((created.ws as unknown as { socket: unknown }).socket)
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no binary frame within ${timeoutMs} ms`)), timeoutMs)
    })
    const frame = await Promise.race([firstFrame, timeout])
    result.firstFrameBytes = frame.byteLength
    result.firstFrameHex = Buffer.from(frame.subarray(0, 16)).toString('hex')
    result.noiseHeader = NOISE_HEADER.every((b, i) => frame[i] === b)
    result.origin = origin
    const problems: string[] = []
    if (!result.patched) {
      problems.push(
        `Baileys' websocket module was not rewritten (run with bunfig.toml's preload or the built executable); ${WEBSOCKET_ENV} is ignored`,
      )
    }
    if (result.used !== requested)
      problems.push(`asked for the ${requested} WebSocket, Baileys used ${result.used}`)
    if (!result.noiseHeader)
      problems.push(`the first frame does not start with the noise header (${result.firstFrameHex})`)
    if (problems.length) result.error = problems.join('; ')
    result.ok = problems.length === 0
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err)
  } finally {
    clearTimeout(timer)
    // Closing from the server side lets Baileys settle its pending handshake wait (ending the socket
    // ourselves first would leave that wait's connectTimeoutMs timer running).
    if (serverSide) {
      serverSide.close(1000, 'balcao doctor done')
      let grace: ReturnType<typeof setTimeout> | undefined
      await Promise.race([closed, new Promise<void>((resolve) => (grace = setTimeout(resolve, 2000)))])
      clearTimeout(grace)
    }
    await sock?.end(undefined).catch(() => {})
    server.stop(true)
    if (options.impl) setWebSocketImpl(undefined)
    result.ms = Math.round(performance.now() - started)
  }
  return result
}
