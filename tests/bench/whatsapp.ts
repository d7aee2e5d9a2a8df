/**
 * Inbound WhatsApp messages through the real Baileys path, and resident memory per linked session:
 *   npm run bench:whatsapp [-- --build] [--sessions 1,10,50] [--customers 20] [--messages 50] [--link-parallel 5] [--keep]
 * Starts the WhatsApp simulator (tests/wa-sim/main.ts, a child process) and dist/balcao serve --wa-simulator on
 * a temporary data folder, both on 127.0.0.1; signs in as the first admin and links connections (one company,
 * whose plan has no limit), each to its own simulated phone by QR, the simulator's refresh step included (two
 * scans). Then prints:
 * - memory: the server's resident size (VmRSS) idle before linking and after linking each count of sessions,
 *   per session = (RSS(n) - RSS(0)) / n, and the marginal size of the sessions added at each step;
 * - inbound throughput: `--customers` simulated customers (spread over the linked phones) send `--messages`
 *   texts each, (1) live, while every session is connected, and (2) as an offline burst: the phones go offline
 *   (their sockets closed, the simulator queues), the same customers send again, the phones come online and the
 *   sessions reconnect and drain the queue. Each is timed from its first send (live) or from `online` (burst)
 *   to the last message stored, counted read-only in the server's database; every id the simulator answered is
 *   then looked up: stored once, none missing.
 * Benchmarks print figures; nothing here asserts a timing. Stops what it starts by process id.
 */
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../..')
const BINARY = join(ROOT, 'dist/balcao')
const SIMULATOR_DIR = join(ROOT, 'tests/wa-sim')
const ADMIN_EMAIL = 'bench@balcao.local'
const ADMIN_PASSWORD = 'Bench-WhatsApp-1'

// ---------------------------------------------------------------------------------------------------------
// options

function option(name: string, fallback: string) {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 && process.argv[i + 1] && !process.argv[i + 1]!.startsWith('--')
    ? process.argv[i + 1]!
    : fallback
}
const flag = (name: string) => process.argv.includes(`--${name}`)
const SESSIONS = [
  ...new Set(
    option('sessions', '1,10,50')
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0 && n <= 500),
  ),
].sort((a, b) => a - b)
const CUSTOMERS = Math.max(1, Math.min(1000, Number(option('customers', '20')) || 20))
const MESSAGES = Math.max(1, Math.min(10_000, Number(option('messages', '50')) || 50))
const LINK_PARALLEL = Math.max(1, Math.min(50, Number(option('link-parallel', '5')) || 5))
/** No new message stored for this long ends a wait (with what was stored). */
const STALL_MS = 30_000
const SETTLE_MS = 4_000

// ---------------------------------------------------------------------------------------------------------
// processes

async function freePort() {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const { port } = server
  await server.stop(true)
  return port
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

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM') {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024
  } catch {
    return Number.NaN
  }
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

const children = new Map<number, Bun.Subprocess>()

async function stopChild(child: Bun.Subprocess) {
  if (!children.delete(child.pid)) return
  if (child.exitCode !== null) return
  process.kill(child.pid, 'SIGTERM')
  const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(10_000).then(() => false)])
  if (!exited) {
    process.kill(child.pid, 'SIGKILL')
    await child.exited
  }
}

async function stopAll() {
  for (const child of [...children.values()].reverse()) await stopChild(child)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void stopAll().finally(() => process.exit(130))
  })
}

function ensureBinary() {
  if (existsSync(BINARY) && !flag('build')) {
    console.log(`executable: dist/balcao built ${statSync(BINARY).mtime.toISOString()} (--build rebuilds it)`)
    return
  }
  console.log('building dist/balcao …')
  const build = Bun.spawnSync([process.execPath, 'scripts/build.ts'], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
  })
  if (build.exitCode !== 0) throw new Error('the build failed')
}

type Simulator = { child: Bun.Subprocess; url: string; wsUrl: string }

/** The simulator as a child process (its own bunfig preloads the ws client Baileys uses); port chosen by the OS. */
async function startSimulatorProcess(logFile: string): Promise<Simulator> {
  const child = Bun.spawn([process.execPath, 'main.ts', '--port', '0'], {
    cwd: SIMULATOR_DIR,
    stdout: 'pipe',
    stderr: Bun.file(logFile),
  })
  children.set(child.pid, child)
  const reader = child.stdout.getReader()
  let printed = ''
  const deadline = Date.now() + 30_000
  while (!printed.includes('WebSocket:') || !printed.slice(printed.indexOf('WebSocket:')).includes('\n')) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now()))])
    if (!chunk || chunk.done) {
      await stopChild(child)
      throw new Error(`the simulator did not start: ${printed}${readFileSync(logFile, 'utf8').slice(-2000)}`)
    }
    printed += new TextDecoder().decode(chunk.value)
  }
  // Whatever it prints later is read and dropped, so a full pipe never blocks it.
  void (async () => {
    while (!(await reader.read()).done) {}
  })().catch(() => {})
  const url = printed.match(/listening on (http:\/\/\S+)/)?.[1]
  const wsUrl = printed.match(/WebSocket:\s+(ws:\/\/\S+)/)?.[1]
  if (!url || !wsUrl) throw new Error(`unexpected simulator output: ${printed}`)
  return { child, url, wsUrl }
}

type Server = { child: Bun.Subprocess; pid: number; base: string; dir: string; logFile: string }

async function startServer(dir: string, wsUrl: string, logFile: string): Promise<Server> {
  const port = await freePort()
  const child = Bun.spawn(
    [BINARY, 'serve', '--data', dir, '--host', '127.0.0.1', '--port', String(port), '--wa-simulator', wsUrl],
    {
      env: {
        ...process.env,
        BALCAO_ADMIN_EMAIL: ADMIN_EMAIL,
        BALCAO_ADMIN_PASSWORD: ADMIN_PASSWORD,
        BALCAO_SANDBOX: '',
        BALCAO_TRUST_PROXY: '',
      },
      stdout: Bun.file(logFile),
      stderr: Bun.file(logFile),
    },
  )
  children.set(child.pid, child)
  const server = { child, pid: child.pid, base: `http://127.0.0.1:${port}`, dir, logFile }
  for (let i = 0; i < 5000; i++) {
    if (child.exitCode !== null) break
    try {
      await fetch(`${server.base}/api/health`)
      return server
    } catch {
      await Bun.sleep(5)
    }
  }
  await stopChild(child)
  throw new Error(`the server did not answer; its log:\n${readFileSync(logFile, 'utf8').slice(-2000)}`)
}

// ---------------------------------------------------------------------------------------------------------
// the APIs

async function call<T>(url: string, method: string, body?: unknown, token?: string) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`)
  return json as T
}

type Connection = { id: number; status: string; qrcode?: string | null; statusReason?: string | null }
type ScanAnswer = { linked: boolean; reason?: string }

function clients(server: Server, simulator: Simulator, token: string) {
  const api = <T>(method: string, path: string, body?: unknown) =>
    call<T>(`${server.base}/api${path}`, method, body, token)
  const control = <T>(path: string, body?: unknown) =>
    call<T>(`${simulator.url}${path}`, body === undefined ? 'GET' : 'POST', body)

  /** Polls the connection until `ready` holds (every 50 ms, at most `ms`). */
  const until = async (id: number, ready: (c: Connection) => boolean, what: string, ms = 60_000) => {
    const deadline = Date.now() + ms
    let last: Connection | undefined
    while (Date.now() < deadline) {
      last = await api<Connection>('GET', `/whatsapp/${id}`)
      if (ready(last)) return last
      await Bun.sleep(50)
    }
    throw new Error(
      `connection ${id}: timed out waiting for ${what}; last seen ${last?.status} ${last?.statusReason ?? ''}`,
    )
  }

  /** A connection linked to phone `number` by QR, as a person does it (the refresh step means two scans). */
  const link = async (number: string, name: string) => {
    await control('/control/phones', { number })
    const { id } = await api<Connection>('POST', '/whatsapp', { name })
    let qr = (await until(id, (c) => c.status === 'qrcode' && !!c.qrcode, 'a QR')).qrcode!
    for (let scans = 0; ; scans++) {
      const answer = await control<ScanAnswer>(`/control/phones/${number}/scan`, { qr })
      if (answer.linked) break
      if (answer.reason !== 'refreshed' || scans >= 2) throw new Error(`scan: ${JSON.stringify(answer)}`)
      const previous = qr
      qr = (await until(id, (c) => c.status === 'qrcode' && !!c.qrcode && c.qrcode !== previous, 'a new QR'))
        .qrcode!
    }
    await until(id, (c) => c.status === 'CONNECTED', 'CONNECTED')
    return id
  }
  return { api, control, until, link }
}

// ---------------------------------------------------------------------------------------------------------
// counting what is stored (read-only)

function openDatabase(dir: string) {
  const db = new Database(join(dir, 'balcao.db'), { readonly: true })
  const inbound = db.query<{ n: number }, []>('SELECT count(*) AS n FROM messages WHERE from_me = 0')
  const outbound = db.query<{ n: number }, []>('SELECT count(*) AS n FROM messages WHERE from_me = 1')
  const wids = db.query<{ wid: string; n: number }, []>(
    'SELECT wid, count(*) AS n FROM messages WHERE from_me = 0 AND wid IS NOT NULL GROUP BY wid',
  )
  return {
    inbound: () => inbound.get()!.n,
    outbound: () => outbound.get()!.n,
    /** How many rows each inbound WhatsApp id has. */
    rowsById: () => new Map(wids.all().map((row) => [row.wid, row.n])),
    close: () => db.close(),
  }
}
type Counter = ReturnType<typeof openDatabase>

/**
 * Waits until `target` inbound rows exist (polled every 20 ms), or until nothing new arrived for STALL_MS.
 * Answers when the first and the last of them were seen.
 */
async function storedUntil(db: Counter, before: number, expected: number) {
  const target = before + expected
  let firstAt = 0
  let lastAt = 0
  let seen = before
  let progressAt = performance.now()
  while (seen < target && performance.now() - progressAt < STALL_MS) {
    await Bun.sleep(20)
    const now = db.inbound()
    if (now > seen) {
      if (seen === before) firstAt = performance.now()
      lastAt = performance.now()
      progressAt = lastAt
      seen = now
    }
  }
  return { stored: seen - before, firstAt, lastAt }
}

/** Every id the simulator answered: stored exactly once? */
function checkOnce(db: Counter, ids: string[]) {
  const rows = db.rowsById()
  let missing = 0
  let doubled = 0
  for (const id of ids) {
    const n = rows.get(id) ?? 0
    if (n === 0) missing++
    else if (n > 1) doubled++
  }
  return { missing, doubled }
}

// ---------------------------------------------------------------------------------------------------------
// output

const mb = (n: number) => n.toFixed(1)
/** A rate over less than 50 ms (a burst stored between two polls) says nothing: '-'. */
const rate = (n: number, ms: number) => (ms >= 50 ? (n / (ms / 1000)).toFixed(0) : '-')
const secs = (ms: number) => (ms / 1000).toFixed(2)
/** This machine's 1-minute load average: other work on it slows what is measured here. */
const load = () => loadavg()[0]!.toFixed(1)

/**
 * The smallest resident size seen over SETTLE_MS (sampled every 250 ms): the garbage of the step just done goes
 * when the collector runs, at a time no one outside the process chooses, so the low point is the step's cost.
 */
async function settledRss(pid: number) {
  let low = Number.POSITIVE_INFINITY
  for (let waited = 0; waited < SETTLE_MS; waited += 250) {
    await Bun.sleep(250)
    low = Math.min(low, procStatusMb(pid, 'VmRSS'))
  }
  return low
}

// ---------------------------------------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'balcao-bench-wa-'))
const summary: string[] = []
let failed = false
try {
  ensureBinary()
  console.log(
    `sessions ${SESSIONS.join(', ')}; ${CUSTOMERS} customers × ${MESSAGES} messages, live and as an offline burst; ` +
      `${navigator.hardwareConcurrency} cores shared by the server, the simulator and this script (load average ${load()})\n`,
  )
  const simulator = await startSimulatorProcess(join(work, 'simulator.log'))
  const server = await startServer(join(work, 'data'), simulator.wsUrl, join(work, 'server.log'))
  const { token } = await call<{ token: string }>(`${server.base}/api/auth/login`, 'POST', {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  })
  const { api, control, link } = clients(server, simulator, token)
  const db = openDatabase(server.dir)

  // ---- memory per linked session
  const idle = await settledRss(server.pid)
  // The peak printed at the end is of linking and traffic, not of the start (migrations, first API load).
  const peakReset = resetPeak(server.pid)
  console.log(`memory (server VmRSS, the lowest in the ${SETTLE_MS / 1000} s after each step)`)
  console.log(`  idle, signed in, no session     ${mb(idle)} MB`)
  summary.push(`idle before linking: ${mb(idle)} MB`)
  const phones: string[] = []
  const rssAt = new Map<number, number>([[0, idle]])
  for (const target of SESSIONS) {
    const started = performance.now()
    const from = phones.length
    let next = from
    const worker = async () => {
      while (next < target) {
        const index = next++
        const number = `55119${String(80_000_000 + index).padStart(8, '0')}`
        await link(number, `Bench ${index + 1}`)
        phones[index] = number
      }
    }
    await Promise.all(Array.from({ length: Math.min(LINK_PARALLEL, target - from) }, worker))
    const linkedMs = performance.now() - started
    const rss = await settledRss(server.pid)
    const previous = SESSIONS.filter((n) => n < target).at(-1) ?? 0
    const perSession = (rss - idle) / target
    const marginal = (rss - rssAt.get(previous)!) / (target - previous)
    rssAt.set(target, rss)
    console.log(
      `  ${String(target).padStart(3)} linked                      ${mb(rss)} MB  → ${mb(perSession)} MB per session` +
        `${previous ? ` (the ${target - previous} added: ${mb(marginal)} MB each)` : ''}` +
        `; linking ${target - from} took ${secs(linkedMs)} s; simulator ${mb(procStatusMb(simulator.child.pid, 'VmRSS'))} MB`,
    )
    summary.push(
      `${target} sessions: ${mb(rss)} MB, ${mb(perSession)} MB per session${previous ? `, ${mb(marginal)} MB each of the ${target - previous} added` : ''}`,
    )
  }

  // ---- inbound throughput
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({
    number: `55219${String(70_000_000 + i).padStart(8, '0')}`,
    phone: phones[i % phones.length]!,
  }))
  for (const [i, customer] of customers.entries())
    await control('/control/customers', { number: customer.number, name: `Cliente ${i + 1}` })
  const usedPhones = [...new Set(customers.map((c) => c.phone))]
  const total = CUSTOMERS * MESSAGES

  /** Every customer sends `count` texts one after another; the customers send at the same time. */
  const sendAll = async (phase: string, count: number) => {
    const ids: string[] = []
    await Promise.all(
      customers.map(async (customer, c) => {
        for (let m = 0; m < count; m++) {
          const { id } = await control<{ id: string }>(`/control/customers/${customer.number}/send`, {
            to: customer.phone,
            text: `${phase} ${c + 1}.${m + 1}: olá, preciso de ajuda com o meu pedido número ${1000 + m}`,
          })
          ids.push(id)
        }
      }),
    )
    return ids
  }
  const setPhones = (state: 'offline' | 'online') =>
    Promise.all(usedPhones.map((phone) => control(`/control/phones/${phone}/${state}`, {})))

  /** Live: timed from the first send. Burst: queued while the phones are offline, timed from `online`. */
  const runPhase = async (phase: string, count: number, offline: boolean) => {
    const before = db.inbound()
    const expected = customers.length * count
    const cpu0 = [cpuSeconds(server.pid), cpuSeconds(simulator.child.pid)] as const
    let ids: string[] = []
    let startedAt = performance.now()
    let sendMs: number
    let stored: Awaited<ReturnType<typeof storedUntil>>
    if (offline) {
      await setPhones('offline')
      ids = await sendAll(phase, count)
      sendMs = performance.now() - startedAt
      startedAt = performance.now()
      const waiting = storedUntil(db, before, expected)
      await setPhones('online')
      stored = await waiting
    } else {
      const waiting = storedUntil(db, before, expected)
      ids = await sendAll(phase, count)
      sendMs = performance.now() - startedAt
      stored = await waiting
    }
    const cpu = {
      server: cpuSeconds(server.pid) - cpu0[0],
      simulator: cpuSeconds(simulator.child.pid) - cpu0[1],
    }
    const once = checkOnce(db, ids)
    if (once.missing || once.doubled) failed = true
    return { ids, ...stored, startedAt, sendMs, cpu, once, expected }
  }
  type PhaseResult = Awaited<ReturnType<typeof runPhase>>

  const report = (title: string, r: PhaseResult, sent: string) => {
    const elapsed = r.lastAt - r.startedAt
    const drain = r.lastAt - r.firstAt
    const cpuPerMessage = (r.cpu.server * 1000) / Math.max(1, r.stored)
    console.log(
      `  ${title}: ${r.stored}/${r.expected} stored in ${secs(elapsed)} s → ${rate(r.stored, elapsed)} msg/s` +
        ` (first stored after ${secs(r.firstAt - r.startedAt)} s; first to last ${secs(drain)} s → ${rate(r.stored, drain)} msg/s)`,
    )
    console.log(
      `      ${sent} in ${secs(r.sendMs)} s (${rate(r.ids.length, r.sendMs)} msg/s through the simulator);` +
        ` CPU: server ${r.cpu.server.toFixed(1)} s (${cpuPerMessage.toFixed(2)} ms per message), simulator ${r.cpu.simulator.toFixed(1)} s;` +
        ` stored once ${r.ids.length - r.once.missing - r.once.doubled}/${r.ids.length}, missing ${r.once.missing}, doubled ${r.once.doubled}`,
    )
    summary.push(
      `${title}: ${rate(r.stored, elapsed)} msg/s (${r.stored}/${r.expected} in ${secs(elapsed)} s; first to last stored ${rate(r.stored, drain)} msg/s);` +
        ` server CPU ${cpuPerMessage.toFixed(2)} ms/msg; missing ${r.once.missing}, doubled ${r.once.doubled}`,
    )
  }

  console.log(
    `\ninbound: ${CUSTOMERS} customers × ${MESSAGES} texts = ${total} per phase, over ${usedPhones.length} of ${phones.length} sessions`,
  )
  report('live (sessions connected)', await runPhase('live', MESSAGES, false), 'sent')
  const afterLive = await settledRss(server.pid)
  // The first reconnect after linking: Baileys waits up to 20 s for the history sync WhatsApp sends after a
  // link (AwaitingInitialSync, Socket/chats.js), which the simulator does not send; only then does it count the
  // account as synced, and later reconnects skip the wait. One message per customer, so the measured burst
  // below is a reconnect as a running server meets it.
  const first = await runPhase('first', 1, true)
  console.log(
    `  first reconnect after linking: ${first.stored}/${first.expected} queued messages stored ${secs(first.lastAt - first.startedAt)} s after online` +
      ` (Baileys's AwaitingInitialSync wait for a history sync: the simulator sends none); missing ${first.once.missing}, doubled ${first.once.doubled}`,
  )
  summary.push(
    `first reconnect after linking: queued messages stored after ${secs(first.lastAt - first.startedAt)} s`,
  )
  report(
    'offline burst (timed from online: reconnect, login, drain)',
    await runPhase('burst', MESSAGES, true),
    'queued while offline',
  )
  const afterBurst = await settledRss(server.pid)
  const connections = await api<Connection[] | { whatsapps?: Connection[] }>('GET', '/whatsapp')
  const list = Array.isArray(connections) ? connections : (connections.whatsapps ?? [])
  const connected = list.filter((c) => c.status === 'CONNECTED').length
  const peak = procStatusMb(server.pid, 'VmHWM')
  const peakNote = `peak ${mb(peak)} MB ${peakReset ? 'since idle' : 'since start'}`
  const afterPerSession = (afterBurst - idle) / phones.length
  console.log(
    `\nmemory after traffic: ${mb(afterLive)} MB after the live phase, ${mb(afterBurst)} MB after the burst` +
      ` → ${mb(afterPerSession)} MB per session (${peakNote}); ${connected}/${list.length} sessions connected;` +
      ` ${db.outbound()} messages sent back (auto-replies)`,
  )
  summary.push(
    `after traffic: ${mb(afterBurst)} MB, ${mb(afterPerSession)} MB per session (${peakNote}); ${connected}/${list.length} connected`,
  )
  db.close()
  summary.push(`load average at the end: ${load()} on ${navigator.hardwareConcurrency} cores`)
  console.log(`\nsummary\n${summary.map((line) => `  ${line}`).join('\n')}`)
  if (failed) console.log('  WARNING: not every message was stored exactly once')
} catch (err) {
  console.error(`\nbench failed: ${(err as Error).stack ?? err}`)
  for (const log of ['server.log', 'simulator.log']) {
    const path = join(work, log)
    if (existsSync(path)) console.error(`--- ${log} (tail)\n${readFileSync(path, 'utf8').slice(-3000)}`)
  }
  process.exitCode = 1
} finally {
  await stopAll()
  if (flag('keep')) console.log(`kept ${work} (the data folder and both logs)`)
  else rmSync(work, { recursive: true, force: true })
}
if (failed) process.exitCode = 1
