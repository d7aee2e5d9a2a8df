import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JOBS_STOP_BOUND_MS } from './jobs/registry'

const REPO = join(import.meta.dir, '..', '..')
const dataDir = mkdtempSync(join(tmpdir(), 'balcao-shutdown-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** A port on 127.0.0.1 that was free a moment ago. */
function freePort() {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
  const port = probe.port
  probe.stop(true)
  return port
}

type LogLine = { msg: string; jobs?: string[]; late?: string[] }

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const found = await probe()
    if (found !== undefined) return found
    await Bun.sleep(50)
  }
  throw new Error(`timed out waiting for ${what}`)
}

test('serve stops every job on SIGTERM within its bound', async () => {
  const port = freePort()
  const child = Bun.spawn(
    [
      process.execPath,
      'src/main.ts',
      'serve',
      '--data',
      dataDir,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
    ],
    {
      cwd: REPO,
      env: { ...process.env, BALCAO_LOG_FORMAT: 'json', BALCAO_BACKUP_KEEP: '0' },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  )
  let stderr = ''
  const reading = (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true })
  })()
  const lines = () =>
    stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine)
  const line = (msg: string) => lines().find((l) => l.msg === msg)
  try {
    await until('health', 30_000, async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null)
      return res?.ok ? true : undefined
    })
    const started = await until('the jobs to start', 30_000, () => line('jobs started'))

    const began = Date.now()
    child.kill('SIGTERM')
    const code = await Promise.race([child.exited, Bun.sleep(JOBS_STOP_BOUND_MS + 5_000).then(() => 'hung')])
    expect(code).toBe(0)
    expect(Date.now() - began).toBeLessThan(JOBS_STOP_BOUND_MS + 5_000)
    await reading

    // Every job the server started, stopped, the last started first, none given up on.
    const names = started.jobs ?? []
    expect(names).toEqual(
      expect.arrayContaining([
        'inbound',
        'chatbot',
        'channels',
        'outbound',
        'schedules',
        'campaigns',
        'invoices',
      ]),
    )
    const stopped = line('jobs stopped')
    expect(stopped?.jobs).toEqual([...names].reverse())
    expect(stopped?.late).toBeUndefined()
  } finally {
    child.kill('SIGKILL')
  }
}, 60_000)
