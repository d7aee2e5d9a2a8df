/**
 * Start-up and idle memory of the built executable on an existing data folder, median of 5 runs:
 *   npm run bench:startup            (builds dist/balcao first if it is missing)
 * Prints, per run and as medians: time from spawn to the first answer (GET /api/health), time to the first API
 * answer (GET /api/auth/me, which loads the API), resident memory when idle before and after that, and how
 * long `balcao version` takes. Talks only to 127.0.0.1 and stops every server it starts by its pid.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../..')
const BINARY = join(ROOT, 'dist/balcao')
const RUNS = 5
const IDLE_MS = 1000

if (!existsSync(BINARY)) {
  console.log('building dist/balcao …')
  const build = Bun.spawnSync(['bun', 'scripts/build.ts'], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
  })
  if (build.exitCode !== 0) process.exit(1)
}

async function freePort() {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const { port } = server
  await server.stop(true)
  return port
}

function rssMb(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0)
  return kb / 1024
}

/** Polls `url` until it answers (any status); the time from `since` to that answer, in ms. */
async function firstAnswer(url: string, since: number, deadlineMs = 10_000) {
  while (performance.now() - since < deadlineMs) {
    try {
      await fetch(url)
      return performance.now() - since
    } catch {
      await Bun.sleep(2)
    }
  }
  throw new Error(`no answer from ${url} within ${deadlineMs} ms`)
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

const dataDir = mkdtempSync(join(tmpdir(), 'balcao-bench-startup-'))
const env = { ...process.env, BALCAO_ADMIN_PASSWORD: 'Bench-Admin-1', BALCAO_SANDBOX: '' }

async function startServer() {
  const port = await freePort()
  const started = performance.now()
  const child = Bun.spawn([BINARY, 'serve', '--data', dataDir, '--port', String(port)], {
    env,
    stdout: 'ignore',
    stderr: 'ignore',
  })
  return { child, port, started }
}

async function stopServer(child: Bun.Subprocess) {
  process.kill(child.pid, 'SIGTERM')
  await child.exited
}

// The first start creates and migrates the database: not what is measured.
{
  const { child, port, started } = await startServer()
  await firstAnswer(`http://127.0.0.1:${port}/api/health`, started)
  await stopServer(child)
}

type Run = { health: number; idle: number; api: number; idleAfterApi: number }
const runs: Run[] = []
try {
  for (let i = 0; i < RUNS; i++) {
    const { child, port, started } = await startServer()
    const health = await firstAnswer(`http://127.0.0.1:${port}/api/health`, started)
    await Bun.sleep(IDLE_MS)
    const idle = rssMb(child.pid)
    const apiStarted = performance.now()
    await fetch(`http://127.0.0.1:${port}/api/auth/me`)
    const api = performance.now() - apiStarted
    await Bun.sleep(IDLE_MS)
    const idleAfterApi = rssMb(child.pid)
    await stopServer(child)
    runs.push({ health, idle, api, idleAfterApi })
    console.log(
      `run ${i + 1}: first answer ${health.toFixed(0)} ms, idle ${idle.toFixed(1)} MB; ` +
        `first API answer ${api.toFixed(0)} ms, idle after it ${idleAfterApi.toFixed(1)} MB`,
    )
  }

  const versionTimes: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    Bun.spawnSync([BINARY, 'version', '--json'], { stdout: 'ignore' })
    versionTimes.push(performance.now() - started)
  }

  console.log('\nmedian of', RUNS, 'runs')
  console.log(`  serve: spawn to first answer      ${median(runs.map((r) => r.health)).toFixed(0)} ms`)
  console.log(`  serve: resident memory when idle  ${median(runs.map((r) => r.idle)).toFixed(1)} MB`)
  console.log(`  serve: first API answer (loads it) ${median(runs.map((r) => r.api)).toFixed(0)} ms`)
  console.log(`  serve: idle after the API loaded  ${median(runs.map((r) => r.idleAfterApi)).toFixed(1)} MB`)
  console.log(`  balcao version                    ${median(versionTimes).toFixed(0)} ms`)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
