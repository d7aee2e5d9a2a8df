import type { Database } from 'bun:sqlite'
import type { ChannelManager } from './channels/manager'
import type { SandboxNetwork } from './channels/sandbox'
import type { Clock } from './clock'
import type { DB } from './db/client'
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
  log: Logger
  version: string
  /** Serve the sandbox API and accept sandbox connections. */
  sandbox: boolean
  /** The simulated WhatsApp network, when the server runs with --sandbox. */
  sandboxNetwork: SandboxNetwork | null
  /** The messaging sessions of every connection. */
  channels: ChannelManager
  /** The terminal operator's credential for this run (written to operator.json), or null. */
  operatorToken: string | null
  /** Trust X-Forwarded-For / X-Forwarded-Proto (behind a reverse proxy). */
  trustProxy: boolean
}

/** Who is acting. Every service takes it first; the company never comes from a URL or a body. */
export type Actor = {
  userId: number
  companyId: number
  profile: 'admin' | 'user'
  super: boolean
  sessionId: string
}

export type Ctx = Deps & { actor: Actor }

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
