/**
 * The dashboard on the reference dataset (../shared/notes/reference-dataset.md):
 *   npm run bench:dashboard [-- --runs 200] [--keep (the database with its events, for a look)]
 * Takes a copy of the dataset (tests/bench/.data/reference, built by `npm run bench` or here when missing), opens it
 * through Balcão's own code (migrations: the dashboard's counters are backfilled), then records the tickets' history
 * as the product records it (one `ticket_events` row per change, through `recordTicketEvent`, so the triggers keep
 * the counters), deterministically from h(tag, i):
 * - every ticket is created pending at its createdAt;
 * - a ticket with a user is accepted by that user h('ew') % min(2 h, half its life) later; one in ten of them is
 *   returned to its queue halfway and accepted again a few minutes later;
 * - a closed ticket is closed at its updatedAt (from open when it had a user, from pending otherwise);
 * - a third of the closed tickets with a user are rated h('rr') % 11, five minutes after closing.
 * Then it signs in as the dataset's admin and times `GET /api/dashboard` for the 90 days of the dataset (in process,
 * through the Hono app: routing, auth, validation, the queries and the JSON), and the counting calls the page makes.
 * The target: a 90-day range answers in under 100 ms.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { ManualClock } from '../../src/server/clock'
import { openDataDir } from '../../src/server/deps'
import { silentLogger } from '../../src/server/logger'
import { recordTicketEvent } from '../../src/server/modules/tickets/events'
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTickets, h, SIZES, STATUS_CODES, T0 } from './dataset'
import { generateDataset } from './generate'

const CACHE = join(import.meta.dir, '.data')
const DATASET = join(CACHE, 'reference')
const runsArg = process.argv.indexOf('--runs')
const RUNS = Math.max(10, Math.min(5000, Number(runsArg > 0 ? process.argv[runsArg + 1] : 200) || 200))
const TARGET_MS = 100

async function main() {
  if (!existsSync(join(DATASET, 'balcao.db'))) {
    console.log('building the reference dataset …')
    mkdirSync(CACHE, { recursive: true })
    await generateDataset(DATASET, (line) => console.log(`  ${line}`))
  }
  const dir = join(CACHE, `dashboard-${process.pid}`)
  rmSync(dir, { recursive: true, force: true })
  cpSync(DATASET, dir, { recursive: true })
  let ok = false
  try {
    ok = await run(dir)
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept the database in ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  }
  if (!ok) process.exit(1)
}

async function run(dir: string): Promise<boolean> {
  let started = performance.now()
  // "Now" is the dataset's T0 plus 12 h (09:00 in São Paulo on 2026-11-21): the last 90 days hold all of it.
  const clock = new ManualClock(T0 + 12 * 3_600_000)
  const deps = await openDataDir(dir, { log: silentLogger, clock })
  const { sqlite } = deps
  console.log(`opened and migrated a copy of the dataset (${ms(performance.now() - started)})`)
  const companyId = sqlite
    .query<{ id: number }, [string]>('SELECT company_id AS id FROM users WHERE email = ?')
    .get(ADMIN_EMAIL)!.id

  started = performance.now()
  const t = buildTickets()
  let events = 0
  let ratings = 0
  sqlite.run('PRAGMA synchronous = OFF')
  sqlite.transaction(() => {
    const rate = sqlite.query(
      'INSERT INTO user_ratings (company_id, ticket_id, user_id, rate, created_at) VALUES (?, ?, ?, ?, ?)',
    )
    for (let id = 1; id <= SIZES.tickets; id++) {
      const status = STATUS_CODES[t.status[id]!]!
      const queueId = t.queue[id] || null
      const userId = t.user[id] || null
      const created = t.created[id]!
      const updated = t.updated[id]!
      const place = (s: 'open' | 'pending' | 'closed', user: number | null) => ({
        status: s,
        userId: user,
        queueId,
        whatsappId: 1,
      })
      const record = (
        type: 'created' | 'accepted' | 'returned' | 'closed',
        from: ReturnType<typeof place> | null,
        to: ReturnType<typeof place>,
        at: number,
      ) => {
        recordTicketEvent(sqlite, {
          companyId,
          ticketId: id,
          type,
          actorUserId: to.userId ?? from?.userId ?? null,
          from,
          to,
          at,
        })
        events++
      }
      record('created', null, place('pending', null), created)
      // The one-active rule closed some pending tickets: those never had a user.
      if (status !== 'pending' && userId != null) {
        const life = Math.max(1000, updated - created)
        let accepted = created + (h('ew', id) % Math.max(1000, Math.min(7_200_000, life / 2)))
        record('accepted', place('pending', null), place('open', userId), accepted)
        if (h('er', id) % 10 === 0) {
          const back = accepted + (updated - accepted) / 2
          record('returned', place('open', userId), place('pending', null), back)
          accepted = back + (h('ea', id) % 600_000)
          record('accepted', place('pending', null), place('open', userId), Math.min(accepted, updated))
        }
        if (status === 'closed') {
          record('closed', place('open', userId), place('closed', userId), updated)
          if (h('rt', id) % 3 === 0) {
            rate.run(companyId, id, userId, h('rr', id) % 11, updated + 300_000)
            ratings++
          }
        }
      } else if (status === 'closed') {
        record('closed', place('pending', null), place('closed', null), updated)
      }
    }
  })()
  sqlite.run('PRAGMA synchronous = NORMAL')
  const rows = sqlite
    .query<{ n: number }, [number]>('SELECT count(*) AS n FROM dashboard_stats WHERE company_id = ?')
    .get(companyId)!.n
  console.log(
    `recorded ${events.toLocaleString('en')} ticket events and ${ratings.toLocaleString('en')} ratings ` +
      `(${ms(performance.now() - started)}): ${rows.toLocaleString('en')} rows of dashboard_stats`,
  )

  const app = createApp(deps)
  const login = await app.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const { token } = (await login.json()) as { token: string }
  const headers = { authorization: `Bearer ${token}` }

  const paths = [
    ['dashboard, 90 days (date range)', '/api/dashboard?date_from=2026-08-23&date_to=2026-11-21', true],
    ['dashboard, days=90', '/api/dashboard?days=90', true],
    ['dashboard, days=7', '/api/dashboard?days=7', false],
    [
      'messages-allMe, 90 days',
      '/api/messages-allMe?fromMe=true&dateStart=2026-08-23&dateEnd=2026-11-21',
      false,
    ],
    [
      'contacts (new leads), 90 days',
      '/api/contacts?pageNumber=1&dateStart=2026-08-23&dateEnd=2026-11-21',
      false,
    ],
  ] as const
  let failed = false
  console.log(`\n${RUNS} requests each, after 20 to warm up (ms):`)
  console.log(`  ${'call'.padEnd(36)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}`)
  for (const [title, path, gated] of paths) {
    let body = ''
    for (let i = 0; i < 20; i++) body = await (await app.request(path, { headers })).text()
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now()
      const res = await app.request(path, { headers })
      body = await res.text()
      times.push(performance.now() - s)
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`)
    }
    times.sort((a, b) => a - b)
    const p50 = times[Math.floor(RUNS * 0.5)]!
    const p99 = times[Math.min(RUNS - 1, Math.floor(RUNS * 0.99))]!
    const over = gated && p99 >= TARGET_MS
    failed ||= over
    console.log(
      `  ${title.padEnd(36)} ${p50.toFixed(2).padStart(7)} ${p99.toFixed(2).padStart(7)} ${times.at(-1)!.toFixed(2).padStart(7)}${over ? `  OVER ${TARGET_MS} ms` : ''}`,
    )
    if (path.includes('date_from=2026-08-23')) {
      const data = JSON.parse(body)
      console.log(
        `    counters ${JSON.stringify(data.counters)}\n    nps ${JSON.stringify({ score: data.nps.score, total: data.nps.total })}`,
      )
    }
  }
  deps.sqlite.close()
  if (failed) console.log(`\nFAILED: a 90-day dashboard took ${TARGET_MS} ms or more (p99)`)
  else console.log(`\nok: a 90-day dashboard answers under ${TARGET_MS} ms (p99)`)
  return !failed
}

const ms = (n: number) => `${(n / 1000).toFixed(1)} s`

await main()
