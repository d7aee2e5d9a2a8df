import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { createApp } from '../app'
import { ChannelManager } from '../channels/manager'
import { createSandboxProvider, SandboxNetwork } from '../channels/sandbox'
import type { ChannelProvider } from '../channels/types'
import { ManualClock } from '../clock'
import type { Deps } from '../context'
import { type DB, openDatabase } from '../db/client'
import { runMigrations } from '../db/migrate'
import { companies, plans, queues, userQueues, users, whatsapps } from '../db/schema'
import { createJobs, declareJobs } from '../jobs/catalogue'
import { silentLogger } from '../logger'
import { inboundOf } from '../modules/inbound'
import { ensureDefaultSettings } from '../modules/settings/service'
import { Hub, type LiveEvent } from '../realtime/hub'
import { generateSecrets } from '../secrets'
import { fakeProvider } from './fake-channel'

export const PASSWORD = 'Secret123'
/** Hashing is deliberately slow: every seeded user shares one hash. */
const passwordHash = await Bun.password.hash(PASSWORD, { algorithm: 'argon2id' })

export type Seeded = { id: number; adminId: number; attendantId: number; admin: string; attendant: string }

let counter = 0

/**
 * A fresh app on a migrated in-memory database with a manual clock, the platform company with its super
 * admin, and two tenant companies (A and B), each with an admin and an attendant.
 */
export async function createHarness(
  options: {
    sandbox?: boolean
    providers?: Partial<Record<'beta' | 'sandbox', ChannelProvider>>
    /** The environment `deps.env` starts with (empty by default). */
    env?: Record<string, string>
    /**
     * A database file instead of memory. A file a previous harness seeded is reused as it is (a restarted
     * server over the same data): the same companies, users and connections.
     */
    database?: string
  } = {},
) {
  const { db, sqlite } = openDatabase(options.database ?? ':memory:')
  runMigrations(db)
  const seeded = options.database ? findSeeded(db) : undefined
  const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'))
  const hub = new Hub()
  const fakes = fakeProvider()
  /** With `sandbox`, the real simulated network on the manual clock (`await h.clock.tick(ms)` fires its timers). */
  const sandboxNetwork = options.sandbox ? new SandboxNetwork({ clock, log: silentLogger }) : null
  const deps: Deps = {
    db,
    sqlite,
    clock,
    hub,
    secrets: generateSecrets(),
    // Created on the first stored file only, so tests without media leave nothing behind.
    mediaDir: join(tmpdir(), 'balcao-test-media', crypto.randomUUID()),
    log: silentLogger,
    version: '0.0.0-test',
    sandbox: options.sandbox ?? false,
    trustProxy: true,
    channels: new ChannelManager(
      { sqlite, hub, clock, log: silentLogger },
      {
        beta: fakes.provider,
        sandbox: sandboxNetwork ? createSandboxProvider(sandboxNetwork) : fakes.provider,
        ...options.providers,
      },
    ),
    jobs: createJobs({ clock, log: silentLogger }),
    operatorToken: 'operator-test-token',
    sandboxNetwork,
    env: { ...options.env },
  }
  const app = createApp(deps)
  // The same jobs as serve.ts declares; of them only the inbound pipeline (channel sink, search indexer, media
  // downloads) runs: each test starts the runners it exercises on the manual clock.
  declareJobs(deps)
  await deps.jobs.start(['inbound'])
  const inbound = inboundOf(deps)!
  const now = clock.now()
  const plan =
    seeded?.plan ??
    db.insert(plans).values({ name: 'Plano Padrão', createdAt: now, updatedAt: now }).returning().get()

  const makeCompany = (name: string, fields: Partial<typeof companies.$inferInsert> = {}) => {
    const company = db
      .insert(companies)
      .values({ name, planId: plan.id, dueDate: '2027-12-31', createdAt: now, updatedAt: now, ...fields })
      .returning()
      .get()
    ensureDefaultSettings(db, company.id, now)
    return company
  }
  const makeUser = (companyId: number, fields: Partial<typeof users.$inferInsert> = {}) => {
    counter += 1
    return db
      .insert(users)
      .values({
        companyId,
        name: `User ${counter}`,
        email: `user${counter}@test.local`,
        passwordHash,
        createdAt: now,
        updatedAt: now,
        ...fields,
      })
      .returning()
      .get()
  }
  const makeConnection = (companyId: number, fields: Partial<typeof whatsapps.$inferInsert> = {}) => {
    counter += 1
    return db
      .insert(whatsapps)
      .values({
        companyId,
        name: `Conexão ${counter}`,
        token: `token-${counter}-${companyId}`,
        createdAt: now,
        updatedAt: now,
        ...fields,
      })
      .returning()
      .get()
  }
  const makeQueue = (companyId: number, fields: Partial<typeof queues.$inferInsert> = {}) => {
    counter += 1
    return db
      .insert(queues)
      .values({
        companyId,
        name: `Queue ${counter}`,
        color: `#${(0x100000 + counter).toString(16)}`,
        createdAt: now,
        updatedAt: now,
        ...fields,
      })
      .returning()
      .get()
  }
  const addToQueue = (userId: number, queueId: number) =>
    db.insert(userQueues).values({ userId, queueId }).run()

  const seedCompany = (name: string, slug: string): Seeded => {
    const company = makeCompany(name)
    const admin = makeUser(company.id, {
      name: `${name} Admin`,
      email: `admin@${slug}.test`,
      profile: 'admin',
    })
    const attendant = makeUser(company.id, { name: `${name} Attendant`, email: `agent@${slug}.test` })
    return {
      id: company.id,
      adminId: admin.id,
      attendantId: attendant.id,
      admin: admin.email,
      attendant: attendant.email,
    }
  }

  const platform = seeded?.platform ?? makeCompany('Balcão', { dueDate: null })
  const superAdmin =
    seeded?.superAdmin ??
    makeUser(platform.id, { name: 'Root', email: 'root@balcao.test', profile: 'admin', super: true })
  const a = seeded?.a ?? seedCompany('Alpha', 'alpha')
  const b = seeded?.b ?? seedCompany('Beta', 'beta')

  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
  type Answer = { status: number; body: any; headers: Headers }
  const call = async (
    method: string,
    path: string,
    init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...init.headers }
    if (init.token) headers.authorization = `Bearer ${init.token}`
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    const res = await app.request(`/api${path}`, {
      method,
      headers,
      body:
        init.body === undefined
          ? undefined
          : typeof init.body === 'string'
            ? init.body
            : JSON.stringify(init.body),
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : null
    } catch {}
    return { status: res.status, body, headers: res.headers }
  }

  const login = async (email: string, password = PASSWORD) => {
    const res = await call('POST', '/auth/login', { body: { email, password } })
    if (res.status !== 200)
      throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.token as string
  }

  /** A client bound to one user's token. */
  const as = async (email: string) => {
    const token = await login(email)
    return {
      token,
      get: (path: string) => call('GET', path, { token }),
      post: (path: string, body?: unknown) => call('POST', path, { token, body }),
      put: (path: string, body?: unknown) => call('PUT', path, { token, body }),
      del: (path: string) => call('DELETE', path, { token }),
    }
  }

  /** Records live events published from now on. */
  const recordEvents = () => {
    const events: LiveEvent[] = []
    deps.hub.tap((e) => events.push(e))
    return events
  }

  return {
    deps,
    app,
    inbound,
    db,
    clock,
    /** The scripted sessions of the default providers, by connection id. */
    sessions: fakes.sessions,
    plan,
    platform,
    superAdmin,
    a,
    b,
    call,
    login,
    as,
    makeCompany,
    makeUser,
    makeQueue,
    makeConnection,
    addToQueue,
    recordEvents,
  }
}

export type Harness = Awaited<ReturnType<typeof createHarness>>

/** What an earlier harness seeded in this database, if it did. */
function findSeeded(db: DB) {
  const user = (email: string) => db.select().from(users).where(eq(users.email, email)).get()
  const superAdmin = user('root@balcao.test')
  if (!superAdmin) return undefined
  const platform = db.select().from(companies).where(eq(companies.id, superAdmin.companyId)).get()!
  const plan = db.select().from(plans).where(eq(plans.id, platform.planId!)).get()!
  const seededCompany = (slug: string): Seeded => {
    const admin = user(`admin@${slug}.test`)!
    const attendant = user(`agent@${slug}.test`)!
    return {
      id: admin.companyId,
      adminId: admin.id,
      attendantId: attendant.id,
      admin: admin.email,
      attendant: attendant.email,
    }
  }
  return { plan, platform, superAdmin, a: seededCompany('alpha'), b: seededCompany('beta') }
}

/** For tests whose fake servers listen on 127.0.0.1: the guarded fetch refuses loopback unless the operator allows it. */
export const LOCAL_FAKES_ENV = { BALCAO_ALLOW_PRIVATE_URLS: '1' }
