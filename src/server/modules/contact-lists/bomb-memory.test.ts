import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { bootstrap } from '../../bootstrap'
import { openDataDir } from '../../deps'
import { silentLogger } from '../../logger'
import { bombXlsx } from './testing'

/**
 * The zip bomb against a real server process: a 500 KB .xlsx whose sheet inflates to 500 MB took the server to
 * 2 GB. Uploaded over HTTP to `balcao serve` (a child process on 127.0.0.1), it must be refused with a 413 while
 * the server's peak resident memory (VmHWM, Linux) stays under 300 MB.
 */
const main = join(import.meta.dir, '../../../main.ts')
const ROOT = 'root@bomb.test'
const PASSWORD = 'first-pass-123'
const PEAK_LIMIT_MB = 300

const peakMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? Number.NaN) / 1024
}

describe.if(process.platform === 'linux')('zip bomb against a running server', () => {
  let data: string
  let server: Subprocess
  let url: string

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'balcao-bomb-'))
    const deps = await openDataDir(data, { log: silentLogger })
    await bootstrap(deps, { email: ROOT, password: PASSWORD })
    deps.sqlite.close()
    const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const port = probe.port
    probe.stop(true)
    url = `http://127.0.0.1:${port}`
    server = Bun.spawn(
      [process.execPath, main, 'serve', '--data', data, '--host', '127.0.0.1', '--port', String(port)],
      { env: { ...process.env, CI: 'true', BALCAO_LOG_FORMAT: 'json' }, stdout: 'ignore', stderr: 'ignore' },
    )
    // Generous: on a loaded machine the first start (migrations, bootstrap) can take a while.
    for (let i = 0; i < 900; i++) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`)
      if (
        await fetch(`${url}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return
      await Bun.sleep(100)
    }
    throw new Error('the server did not start')
  }, 120_000)

  afterAll(async () => {
    server?.kill()
    await server?.exited
    rmSync(data, { recursive: true, force: true })
  })

  test(`a 500 MB sheet in a 500 KB .xlsx answers 413; the server's peak stays under ${PEAK_LIMIT_MB} MB`, async () => {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ROOT, password: PASSWORD }),
    })
    const { token } = (await login.json()) as { token: string }
    // Honest sizes first, then sizes that lie (the server must inflate to find out, with its cap).
    const answers: { lie: boolean; status: number; error: string }[] = []
    for (const lie of [false, true]) {
      const form = new FormData()
      form.append('file', new File([bombXlsx(500, lie)], 'bomba.xlsx'))
      const res = await fetch(`${url}/api/contacts/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      const { error } = (await res.json()) as { error: string }
      answers.push({ lie, status: res.status, error })
    }
    const peak = peakMb(server.pid)
    console.log(`server peak resident memory: ${peak.toFixed(0)} MB`)
    expect(answers).toEqual([
      { lie: false, status: 413, error: 'ERR_SPREADSHEET_TOO_LARGE' },
      { lie: true, status: 413, error: 'ERR_SPREADSHEET_TOO_LARGE' },
    ])
    expect(peak).toBeLessThan(PEAK_LIMIT_MB)
  }, 120_000)
})
