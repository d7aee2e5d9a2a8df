/**
 * A quick measure of the inbound pipeline (scenario e's path, without HTTP): messages injected through the
 * sandbox into a file database in WAL mode, one transaction per message (durable when the inject resolves),
 * with contact and ticket creation and live events serialized as for subscribed sockets; the search index
 * fed in batches. The formal benchmark lives in tests/bench.
 *
 *   bun src/server/modules/inbound/bench.ts [messages=20000] [customers=2000] [perBatch=1]
 *
 * With perBatch > 1, messages go as the sandbox route's batches do: held, then stored one transaction per batch.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootstrap } from '../../bootstrap'
import { connectionRowById } from '../../channels/connection-row'
import type { SandboxNetwork } from '../../channels/sandbox'
import { closeDatabase } from '../../db/statements'
import { openDataDir } from '../../deps'
import { silentLogger } from '../../logger'
import { startInbound } from './index'

const total = Number(process.argv[2] ?? 20_000)
const customers = Number(process.argv[3] ?? 2_000)
const perBatch = Math.max(1, Math.min(500, Number(process.argv[4] ?? 1)))

const dir = mkdtempSync(join(tmpdir(), 'balcao-inbound-bench-'))
const deps = await openDataDir(dir, { sandbox: true, log: silentLogger })
let published = 0
let bytes = 0
// as a listening server would: every event is serialized for its room
deps.hub.attach({
  publish: (_room: string, data: string) => {
    published++
    bytes += data.length
  },
})
const first = await bootstrap(deps, { password: 'bench-password-1' })
if (!first.created) throw new Error('expected a fresh database')
const now = Date.now()
const row = deps.sqlite
  .query<{ id: number }, [number, number, number]>(
    `INSERT INTO whatsapps (company_id, name, provider, token, created_at, updated_at)
     VALUES (?, 'Bench', 'sandbox', 'bench-token', ?, ?) RETURNING id`,
  )
  .get(first.companyId, now, now)!
const inbound = startInbound(deps)
const net = deps.sandboxNetwork as SandboxNetwork
const connection = connectionRowById(deps.sqlite, row.id)!
await deps.channels.start(connection)
await net.pair(row.id)
await net.idle()

const phones = Array.from({ length: customers }, (_, i) => `55119${String(10_000_000 + i).padStart(8, '0')}`)
// warm up (statement caches, JIT)
for (let i = 0; i < 200; i++)
  await net.inject(row.id, { from: phones[i % customers]!, body: `aquecendo ${i}` })

const rss0 = process.memoryUsage().rss
const cpu0 = process.cpuUsage()
const started = performance.now()
const message = (i: number) => ({
  from: phones[i % customers]!,
  body: `Olá, gostaria de saber do meu pedido número ${i}, obrigado`,
})
if (perBatch <= 1) for (let i = 0; i < total; i++) await net.inject(row.id, message(i))
else {
  // as POST /api/sandbox/connections/{id}/inbound does with an array: held, then one transaction per batch
  for (let i = 0; i < total; i += perBatch) {
    const batch = Array.from({ length: Math.min(perBatch, total - i) }, (_, k) => message(i + k))
    await net.injectBatch(row.id, batch, { mark: (e) => inbound.defer(e) })
    inbound.flush(row.id)
  }
}
const elapsed = performance.now() - started
const cpu = process.cpuUsage(cpu0)
const cpuMs = (cpu.user + cpu.system) / 1000
// what the indexer still has to do, measured apart
const indexStart = performance.now()
inbound.indexer.drain()
const indexMs = performance.now() - indexStart

const tickets = deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM tickets').get()!.n
const messages = deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM messages').get()!.n
console.log(
  JSON.stringify(
    {
      messages: total,
      customers,
      perBatch,
      perSecond: Math.round(total / (elapsed / 1000)),
      msPerMessage: +(elapsed / total).toFixed(3),
      // on a shared machine the wall clock includes other processes' turns: the CPU time is this one's
      perCpuSecond: Math.round(total / (cpuMs / 1000)),
      tickets,
      storedMessages: messages,
      liveFrames: published,
      liveMB: +(bytes / 1e6).toFixed(1),
      indexDrainMs: Math.round(indexMs),
      rssMB: Math.round(process.memoryUsage().rss / 1e6),
      rssGrowthMB: Math.round((process.memoryUsage().rss - rss0) / 1e6),
    },
    null,
    2,
  ),
)
inbound.stop()
await deps.channels.stopAll()
closeDatabase(deps.sqlite)
rmSync(dir, { recursive: true, force: true })
