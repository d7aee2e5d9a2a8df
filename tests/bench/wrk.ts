/**
 * wrk (Debian's package) driven from the bench: a Lua script that counts every answer outside 2xx and prints
 * one JSON line at the end (requests, errors, latency percentiles), and one that posts sandbox inbound messages
 * from ever new customers.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

export type WrkResult = {
  requests: number
  durationUs: number
  /** Answers outside 2xx, by class. */
  non2xx: number
  statuses: Record<string, number>
  /** Socket errors (connect, read, write, timeout). */
  socketErrors: number
  p50Us: number
  p90Us: number
  p99Us: number
  maxUs: number
  rps: number
  ok: number
  okPerSec: number
}

/** Shared part: per-thread counters of answers by status class, gathered in done() as one JSON line. */
const COMMON = `
local threads = {}
local thread_count = 0
setup = function(thread)
  thread:set("tid", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end
s1xx, s3xx, s4xx, s5xx, s401, s403, s404 = 0, 0, 0, 0, 0, 0, 0
response = function(status, headers, body)
  if status >= 200 and status < 300 then return end
  if status < 200 then s1xx = s1xx + 1
  elseif status < 400 then s3xx = s3xx + 1
  elseif status < 500 then
    s4xx = s4xx + 1
    if status == 401 then s401 = s401 + 1 elseif status == 403 then s403 = s403 + 1 elseif status == 404 then s404 = s404 + 1 end
  else s5xx = s5xx + 1 end
end
done = function(summary, latency, requests)
  local c = { s1xx = 0, s3xx = 0, s4xx = 0, s5xx = 0, s401 = 0, s403 = 0, s404 = 0 }
  for _, thread in ipairs(threads) do
    for k, _ in pairs(c) do c[k] = c[k] + (thread:get(k) or 0) end
  end
  local e = summary.errors
  io.write(string.format(
    '\\nBENCH_JSON {"requests":%d,"durationUs":%d,"socketErrors":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,' ..
    '"statuses":{"1xx":%d,"3xx":%d,"4xx":%d,"5xx":%d,"401":%d,"403":%d,"404":%d}}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    c.s1xx, c.s3xx, c.s4xx, c.s5xx, c.s401, c.s403, c.s404))
end
`

/**
 * Inbound: each request a virtual customer writing through the sandbox. Customer numbers are
 * 55 31 9 <batch><thread><6 digits>, new ones every `perCustomer` messages (so some messages open tickets and the
 * rest land on them); `batch` (1..9) keeps the levels of a ramp apart.
 */
const INBOUND = `
local counter = 0
local batch = 1
local per_customer = 5
local bodies = {
  "Olá, bom dia! Gostaria de saber como está o meu pedido de ontem.",
  "Meu boleto venceu ontem, vocês podem gerar uma segunda via?",
  "A entrega estava prevista para hoje e ainda não chegou aqui.",
  "Falei com a Ana ontem e ela ficou de me retornar sobre o pedido.",
  "A Maria do financeiro disse que iam me ligar ainda hoje à tarde.",
}
init = function(args)
  batch = tonumber(args[1]) or 1
  per_customer = tonumber(args[2]) or 5
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
request = function()
  local customer = math.floor(counter / per_customer)
  local from = string.format("55319%d%d%06d", batch, tid % 10, customer % 1000000)
  local body = string.format('{"from":"%s","name":"Cliente %d-%d-%d","body":"%s"}',
    from, batch, tid, customer, bodies[(counter % #bodies) + 1])
  counter = counter + 1
  return wrk.format(nil, nil, nil, body)
end
`

export function writeWrkScripts(dir: string) {
  const report = join(dir, 'report.lua')
  const inbound = join(dir, 'inbound.lua')
  writeFileSync(report, COMMON)
  writeFileSync(inbound, `tid = 0\n${COMMON}\n${INBOUND}`)
  return { report, inbound }
}

export function haveWrk() {
  return Bun.spawnSync(['sh', '-c', 'command -v wrk'], { stdout: 'ignore', stderr: 'ignore' }).exitCode === 0
}

/** Runs wrk against a 127.0.0.1 URL; bounded by its own duration plus a margin. */
export async function runWrk(options: {
  url: string
  script: string
  clients: number
  threads: number
  seconds: number
  headers?: Record<string, string>
  args?: string[]
}): Promise<WrkResult> {
  if (!new URL(options.url).hostname.startsWith('127.0.0.1'))
    throw new Error('the bench talks only to 127.0.0.1')
  const cmd = [
    'wrk',
    `-t${Math.min(options.threads, options.clients)}`,
    `-c${options.clients}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '--latency',
    '-s',
    options.script,
    ...Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    options.url,
    ...(options.args?.length ? ['--', ...options.args] : []),
  ]
  const child = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe' })
  const killer = setTimeout(() => child.kill('SIGKILL'), (options.seconds + 30) * 1000)
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
  await child.exited
  clearTimeout(killer)
  const line = out.split('\n').find((l) => l.startsWith('BENCH_JSON '))
  if (!line) throw new Error(`wrk gave no result (exit ${child.exitCode}):\n${out}\n${err}`)
  const raw = JSON.parse(line.slice('BENCH_JSON '.length)) as Omit<
    WrkResult,
    'non2xx' | 'rps' | 'ok' | 'okPerSec'
  >
  const non2xx = ['1xx', '3xx', '4xx', '5xx'].reduce((sum, k) => sum + (raw.statuses[k] ?? 0), 0)
  const seconds = raw.durationUs / 1e6
  const ok = Math.max(0, raw.requests - non2xx)
  return { ...raw, non2xx, rps: raw.requests / seconds, ok, okPerSec: ok / seconds }
}
