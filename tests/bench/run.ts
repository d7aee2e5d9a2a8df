/**
 * The inbox benchmarks on the reference dataset (../shared/notes/reference-dataset.md):
 *   npm run bench [-- --build] [--seconds 10] [--warmup 3] [--clients 10,50] [--only a,a2,b,c,d,e] [--threads 2]
 *                     [--inbound-seconds 5] [--inbound-batch 50] [--path /api/… (one more GET to measure)]
 * Builds the dataset into tests/bench/.data/ when it is missing or its generator changed, builds dist/balcao when
 * it is missing (or with --build), starts the executable on a copy of the dataset on 127.0.0.1 and a free port,
 * signs in as the dataset's admin and measures with wrk, per scenario and client count: requests/s, p50, p99,
 * errors (socket errors and every answer outside 2xx) and the server's peak memory (VmHWM, reset before each).
 * (e) starts a --sandbox server, pairs a sandbox connection and ramps the concurrency of inbound messages (posted
 * `--inbound-batch` per request, as a JSON array; 1 posts single objects) until the rate stops growing, then counts
 * the messages that are durable in the database.
 * Talks only to 127.0.0.1; stops every server it starts by its pid; every loop is bounded.
 */
import { Database } from 'bun:sqlite'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join, resolve } from 'node:path'
import { ADMIN_EMAIL, ADMIN_PASSWORD, SIZES } from './dataset'
import { formatChecks, generateDataset } from './generate'
import { haveWrk, runWrk, type WrkResult, writeWrkScripts } from './wrk'

const ROOT = resolve(import.meta.dir, '../..')
const BINARY = join(ROOT, 'dist/balcao')
const CACHE = join(import.meta.dir, '.data')
const DATASET = join(CACHE, 'reference')
const STAMP = join(CACHE, 'reference.stamp')

// ---------------------------------------------------------------------------------------------------------
// options

function option(name: string, fallback: string) {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 && process.argv[i + 1] && !process.argv[i + 1]!.startsWith('--')
    ? process.argv[i + 1]!
    : fallback
}
const flag = (name: string) => process.argv.includes(`--${name}`)
const SECONDS = Math.max(1, Math.min(120, Number(option('seconds', '10'))))
const WARMUP = Math.max(0, Math.min(60, Number(option('warmup', '3'))))
const CLIENTS = option('clients', '10,50')
  .split(',')
  .map(Number)
  .filter((n) => n > 0 && n <= 1000)
const THREADS = Math.max(1, Math.min(8, Number(option('threads', '2'))))
const ONLY = new Set(option('only', 'a,a2,b,c,d,e').split(','))
const INBOUND_SECONDS = Math.max(1, Math.min(60, Number(option('inbound-seconds', '5'))))

type Scenario = { key: string; title: string; path: string; target?: { rps: number; p99Ms?: number } }
const SCENARIOS: Scenario[] = [
  {
    key: 'a',
    title: 'open tickets, showAll, 5 queues',
    path: '/api/tickets?pageNumber=1&status=open&showAll=true&queueIds=%5B1,2,3,4,5%5D',
    target: { rps: 2500, p99Ms: 10 },
  },
  {
    key: 'a2',
    title: 'the same + searchParam=maria',
    path: '/api/tickets?pageNumber=1&status=open&showAll=true&queueIds=%5B1,2,3,4,5%5D&searchParam=maria',
    target: { rps: 150 },
  },
  { key: 'b', title: 'messages of ticket 300', path: '/api/messages/300', target: { rps: 6000, p99Ms: 10 } },
  {
    key: 'c',
    title: 'contacts search "ana"',
    path: '/api/contacts?pageNumber=1&searchParam=ana',
    target: { rps: 2500, p99Ms: 10 },
  },
  {
    key: 'd',
    title: 'pending tickets, queues 1 and 2',
    path: '/api/tickets?pageNumber=1&status=pending&queueIds=%5B1,2%5D',
    target: { rps: 3000, p99Ms: 10 },
  },
]
// --path /api/…: one more GET to measure on the dataset, as scenario (x).
const EXTRA = option('path', '')
if (EXTRA.startsWith('/api/')) {
  SCENARIOS.push({ key: 'x', title: 'extra path', path: EXTRA })
  ONLY.add('x')
}

// ---------------------------------------------------------------------------------------------------------
// dataset and executable

/** The dataset is rebuilt when its definition or generator changes (or the migrations it is written through). */
function datasetStamp() {
  const hasher = new Bun.CryptoHasher('md5')
  for (const file of ['dataset.ts', 'generate.ts']) hasher.update(readFileSync(join(import.meta.dir, file)))
  for (const name of readdirSync(join(ROOT, 'migrations')).sort())
    if (name.endsWith('.sql')) hasher.update(name).update(readFileSync(join(ROOT, 'migrations', name)))
  return hasher.digest('hex')
}

async function ensureDataset() {
  const stamp = datasetStamp()
  if (existsSync(join(DATASET, 'balcao.db')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === stamp)
    return
  console.log('building the reference dataset …')
  mkdirSync(CACHE, { recursive: true })
  const tmp = join(CACHE, `building-${process.pid}`)
  rmSync(tmp, { recursive: true, force: true })
  try {
    const result = await generateDataset(tmp, (line) => console.log(`  ${line}`))
    console.log(formatChecks(result.checks))
    rmSync(DATASET, { recursive: true, force: true })
    renameSync(tmp, DATASET)
    writeFileSync(STAMP, stamp)
    console.log(`dataset ready in ${(result.ms / 1000).toFixed(1)} s\n`)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** The newest modification time under a folder (bounded walk), to tell a stale executable. */
function newestMtime(dir: string, depth = 6): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (depth > 0) newest = Math.max(newest, newestMtime(path, depth - 1))
    } else newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

function binaryIsStale() {
  return existsSync(BINARY) && newestMtime(join(ROOT, 'src/server')) > statSync(BINARY).mtimeMs
}

function ensureBinary() {
  if (existsSync(BINARY) && !flag('build')) {
    console.log(`executable: dist/balcao built ${statSync(BINARY).mtime.toISOString()} (--build rebuilds it)`)
    if (binaryIsStale()) console.log('  NOTE: src/server changed since: these figures are of the older build')
    return
  }
  console.log('building dist/balcao …')
  const build = Bun.spawnSync(['bun', 'scripts/build.ts'], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
  })
  if (build.exitCode !== 0) throw new Error('the build failed')
}

// ---------------------------------------------------------------------------------------------------------
// servers

async function freePort() {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const { port } = server
  await server.stop(true)
  return port
}

function procStatus(pid: number, field: 'VmHWM' | 'VmRSS') {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024
  } catch {
    return Number.NaN
  }
}

/** Resets the peak resident size (VmHWM) to the current one (Linux >= 4.0); false when not possible. */
function resetPeak(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

type Server = {
  child: Bun.Subprocess
  pid: number
  base: string
  dir: string
  firstAnswerMs: number
  logFile: string
}

let runs = 0
const live = new Set<Server>()

/** Starts dist/balcao on a fresh copy of the dataset; the copy is removed when the server stops. */
async function startServer(options: { sandbox?: boolean } = {}): Promise<Server> {
  const dir = join(CACHE, `run-${process.pid}-${++runs}`)
  rmSync(dir, { recursive: true, force: true })
  cpSync(DATASET, dir, { recursive: true })
  const port = await freePort()
  const logFile = join(CACHE, `server-${process.pid}-${runs}.log`)
  const started = performance.now()
  const child = Bun.spawn(
    [
      BINARY,
      'serve',
      '--data',
      dir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      ...(options.sandbox ? ['--sandbox'] : []),
    ],
    {
      env: { ...process.env, BALCAO_SANDBOX: options.sandbox ? '1' : '', BALCAO_TRUST_PROXY: '' },
      stdout: Bun.file(logFile),
      stderr: Bun.file(logFile),
    },
  )
  const server: Server = {
    child,
    pid: child.pid,
    base: `http://127.0.0.1:${port}`,
    dir,
    firstAnswerMs: 0,
    logFile,
  }
  live.add(server)
  for (let i = 0; i < 5000; i++) {
    if (child.exitCode !== null) break
    try {
      await fetch(`${server.base}/api/health`)
      server.firstAnswerMs = performance.now() - started
      return server
    } catch {
      await Bun.sleep(2)
    }
  }
  await stopServer(server)
  throw new Error(`the server did not answer; its log:\n${readFileSync(logFile, 'utf8').slice(-2000)}`)
}

async function stopServer(server: Server) {
  if (!live.has(server)) return
  live.delete(server)
  if (server.child.exitCode === null) {
    process.kill(server.pid, 'SIGTERM')
    const exited = await Promise.race([
      server.child.exited.then(() => true),
      Bun.sleep(10_000).then(() => false),
    ])
    if (!exited) {
      process.kill(server.pid, 'SIGKILL')
      await server.child.exited
    }
  }
}

function removeRun(server: Server) {
  rmSync(server.dir, { recursive: true, force: true })
  rmSync(server.logFile, { force: true })
}

async function stopAll() {
  for (const server of [...live]) await stopServer(server)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void stopAll().finally(() => process.exit(130))
  })
}

async function signIn(server: Server) {
  const res = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  if (!res.ok) throw new Error(`sign-in as ${ADMIN_EMAIL} failed: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

// ---------------------------------------------------------------------------------------------------------
// output

const ms = (us: number) => (us / 1000).toFixed(us < 10_000 ? 2 : 1)
const pad = (s: string | number, n: number) => String(s).padStart(n)
const padEnd = (s: string | number, n: number) => String(s).padEnd(n)

type Row = { scenario: string; clients: number | string; result?: WrkResult; peakMb?: number; note?: string }
const rows: Row[] = []
/** (e): the best acknowledged rate and whether every acknowledged message was durable. */
let inbound: { rate: number; clients: number; durable: boolean } | undefined

function describeErrors(r: WrkResult) {
  const parts: string[] = []
  if (r.socketErrors) parts.push(`${r.socketErrors} socket`)
  for (const [k, v] of Object.entries(r.statuses))
    if (v && !['401', '403', '404'].includes(k)) parts.push(`${v}×${k}`)
  for (const k of ['401', '403', '404']) if (r.statuses[k]) parts.push(`(${r.statuses[k]}×${k})`)
  return parts.length ? parts.join(' ') : '0'
}

function printRow(row: Row) {
  const r = row.result
  if (!r) {
    console.log(`  ${padEnd(row.scenario, 4)} ${pad(row.clients, 3)} clients   ${row.note ?? ''}`)
    return
  }
  console.log(
    `  ${padEnd(row.scenario, 4)} ${pad(row.clients, 3)} clients  ${pad(r.rps.toFixed(0), 7)} req/s  p50 ${pad(ms(r.p50Us), 6)} ms  p99 ${pad(ms(r.p99Us), 6)} ms  errors ${describeErrors(r)}  peak ${row.peakMb?.toFixed(0) ?? '?'} MB${row.note ? `  ${row.note}` : ''}`,
  )
}

// ---------------------------------------------------------------------------------------------------------
// (a)-(d)

/** One request first: what the endpoint answers, so a missing route says so instead of timing 404s. */
async function probe(server: Server, token: string, path: string) {
  const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } })
  const body = await res.text()
  let summary = `${res.status}, ${(body.length / 1024).toFixed(1)} KB`
  try {
    const json = JSON.parse(body) as Record<string, unknown>
    if (!res.ok && json.error) summary += ` ${json.error}: ${json.message ?? ''}`
    else {
      const list = Object.entries(json).find(([, v]) => Array.isArray(v))
      if (list) summary += `, ${(list[1] as unknown[]).length} ${list[0]}`
      if (typeof json.count === 'number') summary += `, count ${json.count}`
      if (typeof json.hasMore === 'boolean') summary += `, hasMore ${json.hasMore}`
    }
  } catch {}
  return { status: res.status, summary }
}

async function httpScenarios(scripts: { report: string }) {
  const server = await startServer()
  try {
    const idleMb = procStatus(server.pid, 'VmRSS')
    const signInStarted = performance.now()
    let token = await signIn(server)
    const firstApiMs = performance.now() - signInStarted
    console.log(
      `server: first answer ${server.firstAnswerMs.toFixed(0)} ms after spawn (${idleMb.toFixed(0)} MB resident); ` +
        `first API answer (the sign-in, which loads the API) ${firstApiMs.toFixed(0)} ms\n`,
    )
    for (const s of SCENARIOS.filter((x) => ONLY.has(x.key))) {
      const probed = await probe(server, token, s.path)
      console.log(`(${s.key}) ${s.title}\n    GET ${s.path}\n    first answer: ${probed.summary}`)
      if (probed.status === 404) {
        const note = `404: the endpoint is not there yet (not measured)${binaryIsStale() ? '; dist/balcao is older than src/server: try --build' : ''}`
        for (const clients of CLIENTS) rows.push({ scenario: s.key, clients, note })
        console.log(`    ${note}\n`)
        continue
      }
      for (const clients of CLIENTS) {
        // A fresh sign-in for each run: access tokens live 15 minutes.
        token = await signIn(server)
        const run = (seconds: number) =>
          runWrk({
            url: `${server.base}${s.path}`,
            script: scripts.report,
            clients,
            threads: THREADS,
            seconds,
            headers: { Authorization: `Bearer ${token}` },
          })
        if (WARMUP) await run(WARMUP)
        const peakReset = resetPeak(server.pid)
        const result = await run(SECONDS)
        const row: Row = {
          scenario: s.key,
          clients,
          result,
          peakMb: procStatus(server.pid, 'VmHWM'),
          note: peakReset ? undefined : '(peak since start)',
        }
        rows.push(row)
        printRow(row)
      }
      console.log()
    }
  } finally {
    await stopServer(server)
    removeRun(server)
  }
}

// ---------------------------------------------------------------------------------------------------------
// (e)

async function api<T>(server: Server, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  return { status: res.status, json: json as T }
}

function countMessages(dir: string) {
  const db = new Database(join(dir, 'balcao.db'), { readonly: true })
  try {
    return (
      db
        .query<{ n: number; tickets: number }, [number]>(
          `SELECT (SELECT count(*) FROM messages WHERE id > ?1 AND from_me = 0) n,
                  (SELECT count(*) FROM tickets WHERE id > 50000) tickets`,
        )
        .get(SIZES.messages) ?? { n: 0, tickets: 0 }
    )
  } finally {
    db.close()
  }
}

/**
 * The inbound script, posting `args[3]` messages per request as one JSON array (the sandbox route's batch form,
 * answered 201 once every message in it is committed): the same customers and bodies as one per request.
 */
function writeBatchScript(single: string) {
  const path = single.replace(/\.lua$/, '-batch.lua')
  writeFileSync(
    path,
    `${readFileSync(single, 'utf8')}
local batch_size = 1
local single_init = init
init = function(args)
  single_init(args)
  batch_size = tonumber(args[3]) or 1
end
request = function()
  local parts = {}
  for i = 1, batch_size do
    local customer = math.floor(counter / per_customer)
    local from = string.format("55319%d%d%06d", batch, tid % 10, customer % 1000000)
    parts[i] = string.format('{"from":"%s","name":"Cliente %d-%d-%d","body":"%s"}',
      from, batch, tid, customer, bodies[(counter % #bodies) + 1])
    counter = counter + 1
  end
  return wrk.format(nil, nil, nil, "[" .. table.concat(parts, ",") .. "]")
end
`,
  )
  return path
}

async function inboundScenario(scripts: { inbound: string }) {
  // --inbound-batch N: messages per request (1 posts single objects, as before batches existed)
  let perRequest = Math.max(1, Math.min(500, Number(option('inbound-batch', '50')) || 1))
  console.log(
    `(e) inbound messages through the sandbox, ${perRequest} per request, ramping concurrency until a plateau`,
  )
  const server = await startServer({ sandbox: true })
  let socket: WebSocket | undefined
  let frames = 0
  try {
    const token = await signIn(server)
    const created = await api<{ id: number; status: string }>(server, token, 'POST', '/api/whatsapp', {
      name: 'Bench sandbox',
      provider: 'sandbox',
      // One queue: tickets land in it without a menu (no bot, no greeting sent back).
      queueIds: [1],
    })
    if (created.status !== 201)
      throw new Error(`creating a sandbox connection: ${created.status} ${JSON.stringify(created.json)}`)
    const id = created.json.id
    const paired = await api(server, token, 'POST', `/api/sandbox/connections/${id}/pair`)
    if (paired.status !== 200) throw new Error(`pairing: ${paired.status} ${JSON.stringify(paired.json)}`)
    let status = ''
    for (let i = 0; i < 100 && status !== 'CONNECTED'; i++) {
      status = (await api<{ status: string }>(server, token, 'GET', `/api/whatsapp/${id}`)).json.status
      if (status !== 'CONNECTED') await Bun.sleep(100)
    }
    if (status !== 'CONNECTED') throw new Error(`the sandbox connection did not connect (${status})`)

    // A live socket as the admin, so the pipeline's events have someone to go to.
    socket = new WebSocket(`${server.base.replace('http', 'ws')}/api/ws?token=${token}`)
    socket.onmessage = () => {
      frames++
    }
    await Promise.race([new Promise((r) => socket!.addEventListener('open', r)), Bun.sleep(3000)])

    // Is there an inbound pipeline? One message, then look for it in the database.
    const probe = await api(server, token, 'POST', `/api/sandbox/connections/${id}/inbound`, {
      from: '5531900000001',
      name: 'Sonda',
      body: 'Olá, isto é um teste do benchmark.',
    })
    if (probe.status !== 201) throw new Error(`injecting: ${probe.status} ${JSON.stringify(probe.json)}`)
    let stored = 0
    for (let i = 0; i < 30 && stored === 0; i++) {
      stored = countMessages(server.dir).n
      if (!stored) await Bun.sleep(100)
    }
    if (!stored) {
      const note = 'inbound pipeline not available (an injected message never reached the database)'
      console.log(`    ${note}\n`)
      rows.push({ scenario: 'e', clients: '-', note })
      return
    }

    // Does this server take batches (an older build answers 400)? If not, one message per request.
    let acknowledged = 1
    if (perRequest > 1) {
      const batch = await api(server, token, 'POST', `/api/sandbox/connections/${id}/inbound`, [
        { from: '5531900000001', body: 'Lote de teste 1' },
        { from: '5531900000001', body: 'Lote de teste 2' },
      ])
      if (batch.status === 201) acknowledged += 2
      else {
        console.log(
          `    this server does not take batches (${batch.status}${binaryIsStale() ? '; dist/balcao is older than src/server: try --build' : ''}): one message per request`,
        )
        perRequest = 1
      }
    }
    const script = perRequest > 1 ? writeBatchScript(scripts.inbound) : scripts.inbound

    const levels = [1, 2, 4, 8, 16, 32, 64]
    // The best level so far, and the rate the last real gain (> 5 %) reached: two levels in a row without one
    // make the plateau.
    let best = { clients: 0, rate: 0 }
    let gained = 0
    let flat = 0
    for (const [i, clients] of levels.entries()) {
      const peakReset = resetPeak(server.pid)
      const result = await runWrk({
        url: `${server.base}/api/sandbox/connections/${id}/inbound`,
        script,
        clients,
        threads: THREADS,
        seconds: INBOUND_SECONDS,
        headers: { Authorization: `Bearer ${token}` },
        args: [String(i + 1), '5', String(perRequest)],
      })
      acknowledged += result.ok * perRequest
      const rate = result.okPerSec * perRequest
      const row: Row = {
        scenario: 'e',
        clients,
        result,
        peakMb: procStatus(server.pid, 'VmHWM'),
        note: `${rate.toFixed(0)} msg/s acknowledged (201)${peakReset ? '' : ' (peak since start)'}`,
      }
      rows.push(row)
      printRow(row)
      if (result.non2xx + result.socketErrors > result.requests * 0.01) {
        console.log('    stopping the ramp: more than 1 % errors')
        break
      }
      if (rate > best.rate) best = { clients, rate }
      if (rate > gained * 1.05) {
        gained = rate
        flat = 0
      } else if (++flat >= 2) break
    }
    socket.close()
    socket = undefined
    await stopServer(server)
    const durable = countMessages(server.dir)
    console.log(
      `    plateau: best ${best.rate.toFixed(0)} msg/s at ${best.clients} clients; acknowledged ${acknowledged}, durable after stop ${durable.n}` +
        ` (${durable.tickets} new tickets); ${frames} live frames to the admin's socket`,
    )
    inbound = { ...best, durable: durable.n >= acknowledged }
    if (durable.n < acknowledged)
      console.log(`    WARNING: ${acknowledged - durable.n} acknowledged messages are not in the database`)
    console.log()
  } finally {
    socket?.close()
    await stopServer(server)
    removeRun(server)
  }
}

// ---------------------------------------------------------------------------------------------------------

if (!haveWrk()) {
  console.error('wrk is missing: apt-get update && apt-get install -y wrk')
  process.exit(1)
}
try {
  await ensureDataset()
  ensureBinary()
  const scriptDir = join(CACHE, `wrk-${process.pid}`)
  mkdirSync(scriptDir, { recursive: true })
  const scripts = writeWrkScripts(scriptDir)
  try {
    console.log(
      `wrk: ${THREADS} threads, ${WARMUP} s warm-up + ${SECONDS} s per run, clients ${CLIENTS.join(', ')}; the server and wrk share this machine's ${navigator.hardwareConcurrency} cores\n`,
    )
    if (SCENARIOS.some((s) => ONLY.has(s.key))) await httpScenarios(scripts)
    if (ONLY.has('e')) await inboundScenario(scripts)
  } finally {
    rmSync(scriptDir, { recursive: true, force: true })
  }

  console.log('summary (targets at 10 clients from ../shared/notes/performance.md)')
  for (const row of rows) {
    printRow(row)
    const target = SCENARIOS.find((s) => s.key === row.scenario)?.target
    if (target && row.clients === 10 && row.result) {
      const r = row.result
      const met =
        r.non2xx + r.socketErrors === 0 &&
        r.okPerSec >= target.rps &&
        (!target.p99Ms || r.p99Us / 1000 < target.p99Ms)
      console.log(
        `        target >= ${target.rps} req/s${target.p99Ms ? `, p99 < ${target.p99Ms} ms` : ''}: ${met ? 'met' : 'NOT met'}`,
      )
    }
  }
  if (ONLY.has('e')) {
    console.log(
      inbound
        ? `        (e) target >= 3,000 inbound messages/s, each durable when acknowledged: best ${inbound.rate.toFixed(0)} msg/s at ${inbound.clients} clients, ${inbound.durable ? 'all durable' : 'NOT all durable'}: ${inbound.rate >= 3000 && inbound.durable ? 'met' : 'NOT met'}`
        : '        (e) target >= 3,000 inbound messages/s: not measured',
    )
  }
} catch (err) {
  console.error(`\nbench failed: ${(err as Error).stack ?? err}`)
  process.exitCode = 1
} finally {
  await stopAll()
}
