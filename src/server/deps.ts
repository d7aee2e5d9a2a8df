import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json'
import type { WaSimulator } from './channels/baileys/simulator'
import { ChannelManager } from './channels/manager'
import { type Clock, systemClock } from './clock'
import type { Deps } from './context'
import { openDatabase } from './db/client'
import { proxyHops } from './http/request'
import { createJobs } from './jobs/catalogue'
import { createLogger, type Logger } from './logger'
import { migrateDataDir } from './ops/upgrade'
import { Hub } from './realtime/hub'
import { loadOrCreateSecrets } from './secrets'

export const VERSION: string = pkg.version

/** Opens the data folder (creating it), migrates the database and assembles the deps. */
export async function openDataDir(
  dataDir: string,
  options: {
    sandbox?: boolean
    clock?: Clock
    log?: Logger
    trustProxy?: boolean | number
    /** Baileys sessions connect to this simulator (serve.ts has made the process trust it first). */
    waSimulator?: WaSimulator
  } = {},
): Promise<Deps> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  mkdirSync(join(dataDir, 'media'), { recursive: true })
  const { db, sqlite } = openDatabase(join(dataDir, 'balcao.db'))
  const log = options.log ?? createLogger()
  // Newer executable, older data: the database is copied aside first (ops/upgrade.ts).
  migrateDataDir(dataDir, { db, sqlite }, log)
  const clock = options.clock ?? systemClock
  const hub = new Hub()
  // The channel code (Baileys) loads only when needed: with --sandbox now, otherwise at the first session.
  const sandboxNetwork = options.sandbox
    ? new (await import('./channels/sandbox')).SandboxNetwork({ clock, log })
    : null
  return {
    db,
    sqlite,
    clock,
    hub,
    secrets: loadOrCreateSecrets(dataDir),
    mediaDir: join(dataDir, 'media'),
    log,
    version: VERSION,
    sandbox: options.sandbox ?? false,
    trustProxy: options.trustProxy ?? proxyHops(process.env.BALCAO_TRUST_PROXY),
    sandboxNetwork,
    waSimulator: options.waSimulator ?? null,
    channels: new ChannelManager({ db, hub, clock, log }, () =>
      import('./channels/providers').then((m) =>
        m.buildProviders({ db, sqlite, clock, log }, sandboxNetwork, options.waSimulator ?? null),
      ),
    ),
    jobs: createJobs({ clock, log }),
    operatorToken: null,
    env: process.env,
  }
}
