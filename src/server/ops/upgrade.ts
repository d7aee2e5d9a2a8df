/**
 * Upgrading is replacing the executable and starting it again. When the new one carries migrations the data
 * folder's database has not applied, the database is copied to `backups/pre-upgrade-…db` first, then migrated;
 * a failed migration leaves the database as it was (the migrations run in one transaction), the copy beside it,
 * and a message that says both.
 */
import type { Database } from 'bun:sqlite'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { DB } from '../db/client'
import { migrationsFolder, runMigrations } from '../db/migrate'
import type { Logger } from '../logger'
import { BACKUPS_DIR, DB_FILE, snapshotDatabase } from './backup'

/** Pre-upgrade copies kept (the oldest go). */
export const KEEP_UPGRADE_BACKUPS = 3

export function knownMigrations(folder = migrationsFolder()): number {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[]
  }
  return journal.entries.length
}

export function appliedMigrationsOf(sqlite: Database): number {
  const table = sqlite
    .query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name = '__drizzle_migrations'")
    .get()
  if (!table?.n) return 0
  return sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations').get()?.n ?? 0
}

export class UpgradeError extends Error {}

export function migrateDataDir(
  dataDir: string,
  database: { db: DB; sqlite: Database },
  log: Logger,
  folder = migrationsFolder(),
): { backup: string | null; from: number; to: number } {
  const from = appliedMigrationsOf(database.sqlite)
  const to = knownMigrations(folder)
  if (from > to) {
    throw new UpgradeError(
      `this database was written by a newer Balcão (${from} migrations; this executable knows ${to}); run the newer executable, or restore a backup made for this one`,
    )
  }
  let backup: string | null = null
  if (from > 0 && from < to) {
    const dir = join(dataDir, BACKUPS_DIR)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stamp = new Date()
      .toISOString()
      .replace(/[:]/g, '-')
      .replace(/\.\d+Z$/, 'Z')
    backup = join(dir, `pre-upgrade-${stamp}-m${from}.db`)
    snapshotDatabase(join(dataDir, DB_FILE), backup)
    log.info('database copied before the upgrade', { backup, migrations: `${from} → ${to}` })
    prune(dir)
  }
  try {
    runMigrations(database.db, folder)
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    throw new UpgradeError(
      backup
        ? `the database could not be upgraded (${reason}). Nothing was changed; a copy taken before trying is ${backup}. Run the previous executable again, and report this.`
        : `the database could not be migrated (${reason})`,
    )
  }
  if (from < to && from > 0) log.info('database upgraded', { migrations: `${from} → ${to}` })
  return { backup, from, to }
}

function prune(dir: string) {
  const copies = readdirSync(dir)
    .filter((n) => n.startsWith('pre-upgrade-') && n.endsWith('.db'))
    .sort()
  for (const old of copies.slice(0, Math.max(0, copies.length - KEEP_UPGRADE_BACKUPS)))
    rmSync(join(dir, old), { force: true })
}
