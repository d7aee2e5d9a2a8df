import type { Database } from 'bun:sqlite'
import { AppError } from '../shared/errors'
import type { WaSimulator } from './channels/baileys/simulator'
import type { ChannelManager } from './channels/manager'
import type { SandboxNetwork } from './channels/sandbox'
import type { Clock } from './clock'
import type { DB } from './db/client'
import type { Jobs } from './jobs/registry'
import type { Logger } from './logger'
import { EventBuffer, type Hub } from './realtime/hub'
import type { Secrets } from './secrets'

/** Everything the app is built from; tests build it on an in-memory database and a manual clock. */
export type Deps = {
  db: DB
  sqlite: Database
  clock: Clock
  hub: Hub
  secrets: Secrets
  /** Stored media, one folder per company (`<data>/media/<companyId>/`). */
  mediaDir: string
  log: Logger
  version: string
  /** Serve the sandbox API and accept sandbox connections. */
  sandbox: boolean
  /** The simulated WhatsApp network, when the server runs with --sandbox. */
  sandboxNetwork: SandboxNetwork | null
  /** The WhatsApp simulator real sessions connect to (`--wa-simulator`); absent or null normally. */
  waSimulator?: WaSimulator | null
  /** The messaging sessions of every connection. */
  channels: ChannelManager
  /** The background jobs (jobs/registry.ts): the sender, the runners, the sweeps; serve.ts starts and stops them. */
  jobs: Jobs
  /** The terminal operator's credential for this run (written to operator.json), or null. */
  operatorToken: string | null
  /**
   * Trust X-Forwarded-For / X-Forwarded-Proto from reverse proxies: false, or the number of proxies in
   * front (true is one).
   */
  trustProxy: boolean | number
  /** The environment the platform settings fall back to (`process.env` in production; a plain object in tests). */
  env: Readonly<Record<string, string | undefined>>
}

/** A signed-in person: what every browser request carries. */
export type UserActor = {
  kind: 'user'
  userId: number
  companyId: number
  profile: 'admin' | 'user'
  super: boolean
  sessionId: string
  /**
   * 'enabled': this user sees phone numbers in full; otherwise they are masked in every answer. Read with the
   * user on every request; absent where an actor is built by hand (then read from the user's row).
   */
  isTricked?: 'enabled' | 'disabled'
}

/** An integration calling with a connection's token (`POST /api/messages/send`): no person behind it. */
export type ApiTokenActor = { kind: 'apiToken'; companyId: number; whatsappId: number }

/** Balcão itself: inbound messages, jobs, the terminal. */
export type SystemActor = { kind: 'system'; companyId: number }

/**
 * Who is acting. Every service takes it first and it always names the company; the company never comes
 * from a URL or a body. Narrow with `userActor(ctx)` where a person's fields (profile, id) are needed.
 */
export type Actor = UserActor | ApiTokenActor | SystemActor

export type Ctx<A extends Actor = Actor> = Deps & { actor: A }

/** The acting user, or 403 when the call was made by a token or the system, which have no profile. */
export function userActor(ctx: { actor: Actor }): UserActor {
  if (ctx.actor.kind !== 'user') throw new AppError('ERR_NO_PERMISSION', 'Only a signed-in user can do this')
  return ctx.actor
}

/** Admin rights belong to users only: a token or the system never counts as an admin. */
export function isAdminActor(actor: Actor): boolean {
  return actor.kind === 'user' && (actor.profile === 'admin' || actor.super)
}

/**
 * Runs `fn` in one synchronous transaction and publishes its live events only after commit.
 * Keep `fn` synchronous: bun:sqlite transactions do not survive an await.
 */
export function transact<T>(deps: Deps, fn: (tx: DB, events: EventBuffer) => T): T {
  const events = new EventBuffer()
  const result = deps.db.transaction((tx) => fn(tx as unknown as DB, events))
  events.flush(deps.hub)
  return result
}
