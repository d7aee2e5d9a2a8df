import { afterEach, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../db/client'
import { migrationsFolder, runMigrations } from '../db/migrate'
import { openDataDir } from '../deps'
import { silentLogger } from '../logger'
import { knownMigrations, migrateDataDir, UpgradeError } from './upgrade'

const dirs: string[] = []
function tempDir(label: string) {
  const dir = mkdtempSync(join(tmpdir(), `balcao-${label}-`))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** The migrations folder as an older release shipped it: its first `count` migrations. */
function olderRelease(count: number) {
  const folder = tempDir('migrations')
  cpSync(migrationsFolder(), folder, { recursive: true })
  const journalFile = join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] }
  journal.entries = journal.entries.slice(0, count)
  writeFileSync(journalFile, JSON.stringify(journal))
  return folder
}

/**
 * The release before the collaboration, commerce and operations work: its last migration was
 * 0018_queue_file_list (19 migrations).
 */
const PREVIOUS_RELEASE = 19

describe('upgrades', () => {
  test("data created by the previous release's migrations opens, is copied aside, and migrates", async () => {
    const dataDir = tempDir('data')
    const old = openDatabase(join(dataDir, 'balcao.db'))
    runMigrations(old.db, olderRelease(PREVIOUS_RELEASE))
    const now = Date.now()
    old.sqlite.run(`INSERT INTO plans (name, created_at, updated_at) VALUES ('Plano', ${now}, ${now})`)
    old.sqlite.run(
      `INSERT INTO companies (name, plan_id, due_date, created_at, updated_at) VALUES ('Padaria', 1, '2027-01-31', ${now}, ${now})`,
    )
    old.sqlite.close()

    const deps = await openDataDir(dataDir, { log: silentLogger })
    const applied = deps.sqlite
      .query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations')
      .get()?.n
    expect(applied).toBe(knownMigrations())
    expect(deps.sqlite.query('SELECT name, due_date FROM companies').all()).toEqual([
      { name: 'Padaria', due_date: '2027-01-31' },
    ])
    deps.sqlite.close()
    const copies = readdirSync(join(dataDir, 'backups')).filter((n) => n.startsWith('pre-upgrade-'))
    expect(copies).toHaveLength(1)
    expect(copies[0]).toEndWith(`-m${PREVIOUS_RELEASE}.db`)
  })

  test('a fresh or current database is not copied', async () => {
    const dataDir = tempDir('data')
    const deps = await openDataDir(dataDir, { log: silentLogger })
    deps.sqlite.close()
    const again = await openDataDir(dataDir, { log: silentLogger })
    again.sqlite.close()
    expect(existsSync(join(dataDir, 'backups'))).toBe(false)
  })

  test('a failed migration leaves the database as it was, the copy, and a clear message', () => {
    const dataDir = tempDir('data')
    const old = openDatabase(join(dataDir, 'balcao.db'))
    runMigrations(old.db, olderRelease(PREVIOUS_RELEASE))
    // A row the next migrations cannot accept: a table they create already exists.
    old.sqlite.run('CREATE TABLE platform_settings (oops TEXT)')
    let error: unknown = null
    try {
      migrateDataDir(dataDir, old, silentLogger)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(UpgradeError)
    const message = (error as Error).message
    expect(message).toContain('Nothing was changed')
    const copy = message.match(/is (\S+pre-upgrade-\S+\.db)/)?.[1] ?? ''
    expect(existsSync(copy)).toBe(true)
    const applied = old.sqlite
      .query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations')
      .get()?.n
    expect(applied).toBe(PREVIOUS_RELEASE)
    old.sqlite.close()
  })

  test('a database from a newer release is refused, not touched', () => {
    const dataDir = tempDir('data')
    const current = openDatabase(join(dataDir, 'balcao.db'))
    runMigrations(current.db)
    expect(() => migrateDataDir(dataDir, current, silentLogger, olderRelease(5))).toThrow(/newer Balcão/)
    current.sqlite.close()
  })
})
