/**
 * The built executable honours BALCAO_WA_WEBSOCKET: its Baileys reaches the npm `ws` package or Bun's
 * shim as asked (the plugin ran inside Bun.build), and the noise handshake bytes reach a local server.
 * Runs from an empty folder, so no bunfig.toml preload can help.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BINARY as binary, ensureBinary } from './support'

beforeAll(ensureBinary, 300_000)

async function doctor(env: Record<string, string>, args: string[] = []) {
  const cwd = mkdtempSync(join(tmpdir(), 'balcao-doctor-'))
  try {
    const base: Record<string, string | undefined> = { ...process.env }
    delete base.BALCAO_WA_WEBSOCKET
    const proc = Bun.spawn([binary, 'doctor', 'websocket', '--json', ...args], {
      cwd,
      env: { ...base, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ])
    // A result is printed on stdout, an error on stderr (one JSON document either way).
    const json = (out.trim() || err.trim().split('\n').at(-1) || '').trim()
    return { code, out, err, body: json.startsWith('{') ? JSON.parse(json) : null }
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
}

describe('dist/balcao doctor websocket', () => {
  for (const impl of ['npm', 'bun'] as const) {
    test(`BALCAO_WA_WEBSOCKET=${impl}`, async () => {
      const r = await doctor({ BALCAO_WA_WEBSOCKET: impl })
      expect(r.code).toBe(0)
      expect(r.body).toMatchObject({
        ok: true,
        requested: impl,
        used: impl,
        patched: true,
        standalone: true,
        noiseHeader: true,
        origin: 'https://web.whatsapp.com',
      })
      expect(r.body.url).toStartWith('ws://127.0.0.1:')
      expect(r.body.firstFrameHex).toStartWith('57410603')
    })
  }

  test('npm is the default, and --impl overrides the environment', async () => {
    const byDefault = await doctor({})
    expect(byDefault.code).toBe(0)
    expect(byDefault.body).toMatchObject({ ok: true, requested: 'npm', used: 'npm' })
    const overridden = await doctor({ BALCAO_WA_WEBSOCKET: 'npm' }, ['--impl', 'bun'])
    expect(overridden.code).toBe(0)
    expect(overridden.body).toMatchObject({ ok: true, requested: 'bun', used: 'bun' })
  })

  test('a bad setting fails with a usage error', async () => {
    const r = await doctor({ BALCAO_WA_WEBSOCKET: 'node' })
    expect(r.code).toBe(2)
    expect(r.body.error).toBe('ERR_VALIDATION')
  })
})
