import { afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { checkWebSocket } from './ws-check'
import {
  BunWebSocket,
  baileysWebSocketPatched,
  NpmWebSocket,
  parseWebSocketImpl,
  setWebSocketImpl,
  WEBSOCKET_ENV,
  webSocketsConstructed,
} from './ws-impl'
import { rewriteBaileysWebSocket, WS_IMPL_MODULE } from './ws-plugin'

const root = join(import.meta.dir, '../../../..')
const saved = process.env[WEBSOCKET_ENV]
afterEach(() => {
  setWebSocketImpl(undefined)
  if (saved === undefined) delete process.env[WEBSOCKET_ENV]
  else process.env[WEBSOCKET_ENV] = saved
})

describe('WebSocket implementation switch', () => {
  test('the npm class is not Bun shim, and the setting parses', () => {
    expect(NpmWebSocket).not.toBe(BunWebSocket)
    expect(NpmWebSocket.OPEN).toBe(BunWebSocket.OPEN)
    expect(parseWebSocketImpl(undefined)).toBe('npm')
    expect(parseWebSocketImpl(' BUN ')).toBe('bun')
    expect(() => parseWebSocketImpl('node')).toThrow(WEBSOCKET_ENV)
  })

  test("the plugin rewrites Baileys' ws import and refuses a file without it", async () => {
    const source = await Bun.file(
      join(root, 'node_modules/@whiskeysockets/baileys/lib/Socket/Client/websocket.js'),
    ).text()
    const out = rewriteBaileysWebSocket(source)
    expect(out).not.toMatch(/from ['"]ws['"]/)
    expect(out).toContain(JSON.stringify(WS_IMPL_MODULE))
    expect(() => rewriteBaileysWebSocket("import { WebSocket } from 'undici'")).toThrow('ws-plugin.ts')
  })

  for (const impl of ['npm', 'bun'] as const) {
    test(`Baileys speaks its handshake over the ${impl} WebSocket (--impl ${impl})`, async () => {
      const before = webSocketsConstructed()[impl]
      const result = await checkWebSocket({ impl, timeoutMs: 5000 })
      expect(result.error).toBeUndefined()
      expect(result).toMatchObject({
        ok: true,
        requested: impl,
        used: impl,
        patched: true,
        noiseHeader: true,
      })
      expect(result.origin).toBe('https://web.whatsapp.com')
      expect(result.firstFrameHex?.startsWith('57410603')).toBe(true)
      expect(result.url).toStartWith('ws://127.0.0.1:')
      expect(webSocketsConstructed()[impl]).toBe(before + 1)
    })
  }

  test('without --impl the environment decides', async () => {
    process.env[WEBSOCKET_ENV] = 'bun'
    const result = await checkWebSocket({ timeoutMs: 5000 })
    expect(result).toMatchObject({ ok: true, requested: 'bun', used: 'bun' })
  })

  test('the preload is active under bun test', async () => {
    await import('@whiskeysockets/baileys')
    expect(baileysWebSocketPatched()).toBe(true)
  })

  for (const impl of ['npm', 'bun'] as const) {
    test(`balcao doctor websocket --json from sources (${WEBSOCKET_ENV}=${impl})`, async () => {
      const proc = Bun.spawn([process.execPath, 'src/main.ts', 'doctor', 'websocket', '--json'], {
        cwd: root,
        env: { ...process.env, [WEBSOCKET_ENV]: impl },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
      expect(code).toBe(0)
      expect(JSON.parse(out)).toMatchObject({
        ok: true,
        requested: impl,
        used: impl,
        patched: true,
        standalone: false,
      })
    })
  }

  test('a bad --impl exits 2 with ERR_VALIDATION', async () => {
    const proc = Bun.spawn(
      [process.execPath, 'src/main.ts', 'doctor', 'websocket', '--json', '--impl', 'node'],
      {
        cwd: root,
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
    expect(code).toBe(2)
    expect(JSON.parse(err.trim().split('\n').at(-1) ?? '').error).toBe('ERR_VALIDATION')
  })
})
