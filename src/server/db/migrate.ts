import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import type { DB } from './client'

/** Where the migrations are: embedded in the executable, or ./migrations beside the sources. */
export function migrationsFolder() {
  if (Bun.isStandaloneExecutable) return join(import.meta.dir, 'migrations')
  const fromSources = join(import.meta.dir, '../../../migrations')
  return existsSync(fromSources) ? fromSources : join(process.cwd(), 'migrations')
}

export function runMigrations(db: DB, folder = migrationsFolder()) {
  migrate(db, { migrationsFolder: folder })
}
