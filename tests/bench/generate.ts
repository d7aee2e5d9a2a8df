/**
 * Writes the reference dataset (../shared/notes/reference-dataset.md) into a fresh data folder:
 *   npm run bench:dataset -- DIR
 * `balcao serve --data DIR` then starts on it. The folder is opened through Balcão's own code (openDataDir:
 * migrations, secrets; bootstrap: the platform company and its super admin, whose password is random and not
 * kept), then the dataset company is written with bulk inserts in one transaction. Its admin, user 1, signs in
 * as admin@dataset.test / Dataset-Admin-1; nothing else has a known password. Queues, users, the connection,
 * contacts, tickets and messages keep the dataset's numbers as their ids (ticket 300 is id 300). At the end the
 * definition's expected counts are checked against the database, and any difference fails the run.
 */
import type { Database } from 'bun:sqlite'
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { bootstrap, generatePassword } from '../../src/server/bootstrap'
import {
  companies,
  plans,
  queues,
  userQueues,
  users,
  whatsappQueues,
  whatsapps,
} from '../../src/server/db/schema'
import { openDataDir } from '../../src/server/deps'
import { silentLogger } from '../../src/server/logger'
import { newApiToken } from '../../src/server/modules/connections/service'
import { ensureDefaultSettings } from '../../src/server/modules/settings/service'
import { hashPassword } from '../../src/server/modules/users/service'
import { numberKey } from '../../src/shared/numbers'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  BASE_TIME,
  buildDataset,
  COMPANY_NAME,
  CONNECTION_NAME,
  contactOf,
  type Dataset,
  PHRASES,
  QUEUES,
  SIZES,
  STATUS_CODES,
  userOf,
  uuidOf,
} from './dataset'

export type Check = { what: string; expected: number | string; actual: number | string }

export class DatasetCheckError extends Error {
  constructor(readonly failed: Check[]) {
    super(`the dataset does not match its definition:\n${formatChecks(failed)}`)
  }
}

export function formatChecks(checks: Check[]) {
  return checks
    .map(
      (c) => `  ${c.expected === c.actual ? 'ok  ' : 'FAIL'} ${c.what}: ${c.actual} (expected ${c.expected})`,
    )
    .join('\n')
}

/** The ids the dataset needs are free only on a fresh database; the super admin must not take user 1. */
function reserveUserIds(sqlite: Database) {
  const taken = sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM users').get()?.n ?? 0
  const seq = sqlite.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'users'").get()
  if (taken > 0 || seq) throw new Error('the data folder already has users: give a fresh folder')
  // users.id is AUTOINCREMENT: the next id bootstrap gets is one above the recorded sequence.
  sqlite.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('users', ?)", [SIZES.users])
}

function writeDataset(sqlite: Database, companyId: number, data: Dataset, progress: (what: string) => void) {
  const t = data.tickets
  const m = data.messages
  const contact = sqlite.prepare(
    `INSERT INTO contacts (id, company_id, uuid, name, number, number_key, whatsapp_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  )
  for (let i = 1; i <= SIZES.contacts; i++) {
    const c = contactOf(i)
    contact.run(
      i,
      companyId,
      uuidOf('contact', i),
      c.name,
      c.number,
      numberKey(c.number),
      BASE_TIME,
      BASE_TIME,
    )
  }
  progress('contacts')

  const ticket = sqlite.prepare(
    `INSERT INTO tickets (id, company_id, uuid, status, contact_id, whatsapp_id, queue_id, user_id, last_message,
       unread_messages, closed_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)`,
  )
  for (let i = 1; i <= SIZES.tickets; i++) {
    const status = STATUS_CODES[t.status[i]!]!
    const last = t.lastPhrase[i]!
    ticket.run(
      i,
      companyId,
      uuidOf('ticket', i),
      status,
      t.contact[i]!,
      t.queue[i] || null,
      t.user[i] || null,
      last < 0 ? '' : PHRASES[last]!,
      t.unread[i]!,
      status === 'closed' ? t.updated[i]! : null,
      t.created[i]!,
      t.updated[i]!,
    )
  }
  progress('tickets')

  const message = sqlite.prepare(
    `INSERT INTO messages (id, company_id, ticket_id, contact_id, from_me, body, ack, read, send_state,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  for (let i = 1; i <= SIZES.messages; i++) {
    const ticketId = m.ticket[i]!
    const fromMe = m.fromMe[i]!
    message.run(
      i,
      companyId,
      ticketId,
      t.contact[ticketId]!,
      fromMe,
      PHRASES[m.phrase[i]!]!,
      m.ack[i]!,
      m.read[i]!,
      fromMe ? 'sent' : null,
      m.created[i]!,
      m.created[i]!,
    )
  }
  progress('messages')

  // The message search index, as the server's batch indexer keeps it: rowid = ticket_id << 32 | message_id.
  sqlite.run(
    `INSERT INTO messages_fts (rowid, body)
     SELECT (ticket_id << 32) | id, body FROM messages WHERE company_id = ? ORDER BY ticket_id, id`,
    [companyId],
  )
  sqlite.run('UPDATE search_state SET messages_indexed_upto = (SELECT max(id) FROM messages) WHERE id = 1')
  progress('messages_fts')
}

/** The definition's expected counts (and the shape around them), read back from the database. */
export function checkDataset(sqlite: Database, companyId: number, data?: Dataset): Check[] {
  const n = (sql: string, ...params: (string | number)[]) =>
    sqlite.query<{ n: number }, (string | number)[]>(sql).get(...params)?.n ?? -1
  const checks: Check[] = []
  const check = (what: string, expected: number | string, actual: number | string) =>
    checks.push({ what, expected, actual })
  if (data) {
    check('tickets open before the one-active rule', 7_552, data.before.open)
    check('tickets pending before the one-active rule', 4_913, data.before.pending)
    check('tickets closed before the one-active rule', 37_535, data.before.closed)
  }
  const c = companyId
  check('users of the dataset company', 10, n('SELECT count(*) n FROM users WHERE company_id = ?', c))
  check(
    'user 1 is admin@dataset.test',
    ADMIN_EMAIL,
    sqlite.query<{ email: string }, []>('SELECT email FROM users WHERE id = 1').get()?.email ?? '',
  )
  check('queues', 5, n('SELECT count(*) n FROM queues WHERE company_id = ?', c))
  check('connections', 1, n('SELECT count(*) n FROM whatsapps WHERE company_id = ?', c))
  check('queues of the connection', 5, n('SELECT count(*) n FROM whatsapp_queues WHERE whatsapp_id = 1'))
  check('contacts', 20_000, n('SELECT count(*) n FROM contacts WHERE company_id = ?', c))
  check('tickets', 50_000, n('SELECT count(*) n FROM tickets WHERE company_id = ?', c))
  check('messages', 500_000, n('SELECT count(*) n FROM messages WHERE company_id = ?', c))
  for (const [status, expected] of [
    ['open', 6_171],
    ['pending', 3_976],
    ['closed', 39_853],
  ] as const) {
    check(
      `tickets ${status}`,
      expected,
      n('SELECT count(*) n FROM tickets WHERE company_id = ? AND status = ?', c, status),
    )
    check(
      `ticket_counts ${status} (triggers)`,
      expected,
      n('SELECT coalesce(sum(count), 0) n FROM ticket_counts WHERE company_id = ? AND status = ?', c, status),
    )
  }
  check(
    'tickets without a queue',
    4_971,
    n('SELECT count(*) n FROM tickets WHERE company_id = ? AND queue_id IS NULL', c),
  )
  check(
    'open tickets with a queue',
    5_558,
    n("SELECT count(*) n FROM tickets WHERE company_id = ? AND status = 'open' AND queue_id IS NOT NULL", c),
  )
  check(
    'pending tickets of queues 1 and 2',
    1_363,
    n("SELECT count(*) n FROM tickets WHERE company_id = ? AND status = 'pending' AND queue_id IN (1, 2)", c),
  )
  check(
    'contacts whose active tickets exceed one',
    0,
    n(
      `SELECT count(*) n FROM (SELECT contact_id FROM tickets WHERE company_id = ? AND status IN ('open', 'pending')
         GROUP BY contact_id HAVING count(*) > 1)`,
      c,
    ),
  )
  for (const [word, expected] of [
    ['ana', 3_903],
    ['maria', 1_369],
  ] as const) {
    check(
      `contacts whose name contains "${word}"`,
      expected,
      n('SELECT count(*) n FROM contacts WHERE company_id = ? AND name LIKE ?', c, `%${word}%`),
    )
    check(
      `contacts_fts matches "${word}" (trigram)`,
      expected,
      n('SELECT count(*) n FROM contacts_fts WHERE contacts_fts MATCH ?', `name : "${word}"`),
    )
    check(
      `messages_fts matches "${word}" = messages containing it`,
      n('SELECT count(*) n FROM messages WHERE company_id = ? AND body LIKE ?', c, `%${word}%`),
      n('SELECT count(*) n FROM messages_fts WHERE messages_fts MATCH ?', word),
    )
  }
  // Later migrations' company-scoped contact search and counts, when present (fed by their triggers).
  const hasTable = (name: string) => n('SELECT count(*) n FROM sqlite_master WHERE name = ?', name) > 0
  if (hasTable('contacts_search')) {
    for (const [word, expected] of [
      ['ana', 3_903],
      ['maria', 1_369],
    ] as const) {
      check(
        `contacts_search matches "${word}" in the company`,
        expected,
        n(
          'SELECT count(*) n FROM contacts_search WHERE contacts_search MATCH ? AND rowid BETWEEN (?2 << 32) AND (?2 << 32) | 4294967295',
          `name : "${word}"`,
          c,
        ),
      )
    }
  }
  if (hasTable('contact_counts'))
    check(
      'contact_counts (triggers)',
      20_000,
      n('SELECT count n FROM contact_counts WHERE company_id = ?', c),
    )
  check('messages_fts rows', 500_000, n('SELECT count(*) n FROM messages_fts'))
  check(
    'search_state.messages_indexed_upto',
    500_000,
    n('SELECT messages_indexed_upto n FROM search_state WHERE id = 1'),
  )
  const t300 = sqlite
    .query<{ status: string; queue_id: number | null }, []>(
      'SELECT status, queue_id FROM tickets WHERE id = 300',
    )
    .get()
  check('ticket 300 status', 'open', t300?.status ?? 'missing')
  check('ticket 300 queue', 4, t300?.queue_id ?? -1)
  check('ticket 300 messages', 50, n('SELECT count(*) n FROM messages WHERE ticket_id = 300'))
  check(
    'tickets whose lastMessage is not their newest message',
    0,
    n(
      `SELECT count(*) n FROM tickets t WHERE company_id = ? AND last_message IS NOT (
         SELECT body FROM messages WHERE ticket_id = t.id ORDER BY created_at DESC, id DESC LIMIT 1)
         AND EXISTS (SELECT 1 FROM messages WHERE ticket_id = t.id)`,
      c,
    ),
  )
  check(
    "messages outside their ticket's lifetime",
    0,
    n(`SELECT count(*) n FROM messages m JOIN tickets t ON t.id = m.ticket_id
        WHERE m.created_at < t.created_at OR m.created_at > t.updated_at`),
  )
  check(
    'tickets whose unreadMessages is wrong',
    0,
    n(
      `SELECT count(*) n FROM tickets t WHERE company_id = ? AND unread_messages != CASE WHEN status = 'closed' THEN 0
         ELSE (SELECT count(*) FROM messages WHERE ticket_id = t.id AND from_me = 0 AND read = 0) END`,
      c,
    ),
  )
  return checks
}

export type GenerateResult = { ms: number; checks: Check[]; companyId: number }

/** Writes the dataset into `dir` (absent or empty) and checks it; throws DatasetCheckError on any mismatch. */
export async function generateDataset(
  dir: string,
  log: (line: string) => void = (line) => console.log(line),
): Promise<GenerateResult> {
  const started = performance.now()
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new Error(`${dir} is not empty: give a fresh folder`)

  const deps = await openDataDir(dir, { log: silentLogger })
  const { sqlite, db } = deps
  try {
    reserveUserIds(sqlite)
    // The platform company and its super admin (user 11), exactly as a first `balcao serve` makes them; the
    // password is random and not printed: `balcao user reset-password admin@balcao.local` sets one if needed.
    const first = await bootstrap(deps)
    if (!first.created) throw new Error('bootstrap did not run: the data folder is not fresh')

    const data = buildDataset()
    log(`computed the rows (${elapsed()})`)
    const adminHash = await hashPassword(ADMIN_PASSWORD)
    const attendantHashes: string[] = []
    for (let u = 2; u <= SIZES.users; u++) attendantHashes.push(await hashPassword(generatePassword()))

    sqlite.run('PRAGMA synchronous = OFF')
    sqlite.run('PRAGMA cache_size = -400000')
    const companyId = sqlite.transaction(() => {
      const plan = db.select().from(plans).orderBy(plans.id).get()
      if (!plan) throw new Error('bootstrap made no plan')
      const company = db
        .insert(companies)
        .values({
          name: COMPANY_NAME,
          email: ADMIN_EMAIL,
          planId: plan.id,
          dueDate: null,
          createdAt: BASE_TIME,
          updatedAt: BASE_TIME,
        })
        .returning()
        .get()
      ensureDefaultSettings(db, company.id, BASE_TIME)
      const stamp = { companyId: company.id, createdAt: BASE_TIME, updatedAt: BASE_TIME }
      db.insert(queues)
        .values(QUEUES.map((q) => ({ ...q, ...stamp, orderQueue: q.id })))
        .run()
      for (let u = 1; u <= SIZES.users; u++) {
        const { queueIds, ...user } = userOf(u)
        db.insert(users)
          .values({ ...user, ...stamp, passwordHash: u === 1 ? adminHash : attendantHashes[u - 2]! })
          .run()
        db.insert(userQueues)
          .values(queueIds.map((queueId) => ({ userId: u, queueId })))
          .run()
      }
      // "Principal": the default connection, linked to all 5 queues, not started.
      db.insert(whatsapps)
        .values({
          id: 1,
          ...stamp,
          name: CONNECTION_NAME,
          provider: 'beta',
          status: 'DISCONNECTED',
          isDefault: true,
          // Balcão requires a greeting (the queue menu) on a connection with more than one queue.
          greetingMessage:
            'Olá! Escolha uma opção: 1 Suporte, 2 Vendas, 3 Financeiro, 4 Cobrança, 5 Pós-venda',
          token: newApiToken(),
        })
        .run()
      db.insert(whatsappQueues)
        .values(QUEUES.map((q) => ({ whatsappId: 1, queueId: q.id })))
        .run()
      writeDataset(sqlite, company.id, data, (what) => log(`wrote ${what} (${elapsed()})`))
      return company.id
    })()

    // One b-tree per search index, as after a long life of merges, so the figures do not depend on segments.
    const searchTables = sqlite
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5%'",
      )
      .all()
    for (const { name } of searchTables) sqlite.run(`INSERT INTO "${name}" ("${name}") VALUES ('optimize')`)
    log(`optimized the search indexes (${elapsed()})`)
    const checks = checkDataset(sqlite, companyId, data)
    log(`checked (${elapsed()})`)
    const failed = checks.filter((c) => c.expected !== c.actual)
    if (failed.length) throw new DatasetCheckError(failed)
    sqlite.run('PRAGMA synchronous = NORMAL')
    sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
    return { ms: performance.now() - started, checks, companyId }
  } finally {
    deps.sqlite.close()
  }
}

if (import.meta.main) {
  const dir = process.argv[2]
  if (!dir || dir.startsWith('-')) {
    console.error('usage: npm run bench:dataset -- DIR   (DIR absent or empty)')
    process.exit(2)
  }
  try {
    const result = await generateDataset(resolve(dir))
    console.log(formatChecks(result.checks))
    console.log(
      `\nthe reference dataset is in ${resolve(dir)} (${(result.ms / 1000).toFixed(1)} s); all counts as defined`,
    )
    console.log(`sign in as ${ADMIN_EMAIL} / ${ADMIN_PASSWORD}:  balcao serve --data ${resolve(dir)}`)
  } catch (err) {
    if (err instanceof DatasetCheckError) console.error(`\nFAILED: ${err.message}`)
    else console.error(`\nFAILED: ${(err as Error).message ?? err}`)
    process.exit(1)
  }
}
