import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { AppError } from '../../shared/errors'
import { openDatabase } from '../db/client'
import { runMigrations } from '../db/migrate'
import { loadOrCreateSecrets } from '../secrets'
import { createBackup } from './backup'
import { restoreBackup } from './restore'
import { TarWriter } from './tar'

const dirs: string[] = []
function tempDir(label: string) {
  const dir = mkdtempSync(join(tmpdir(), `balcao-${label}-`))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const KNOWN = 10_000

/** A data folder as a server leaves it: migrated database with rows, secrets, media of several companies. */
function seedDataDir() {
  const dataDir = tempDir('data')
  const { sqlite } = openDatabase(join(dataDir, 'balcao.db'))
  runMigrations(openDatabase(join(dataDir, 'balcao.db')).db)
  const now = Date.now()
  sqlite.run(`INSERT INTO plans (name, created_at, updated_at) VALUES ('Plano', ${now}, ${now})`)
  for (const name of ['Alpha', 'Beta', 'Padaria São João']) {
    sqlite.run('INSERT INTO companies (name, plan_id, created_at, updated_at) VALUES (?, 1, ?, ?)', [
      name,
      now,
      now,
    ])
  }
  sqlite.run('CREATE TABLE busy (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)')
  sqlite.close()
  loadOrCreateSecrets(dataDir)
  for (const company of [1, 2, 3]) {
    mkdirSync(join(dataDir, 'media', String(company)), { recursive: true })
    for (let i = 0; i < 4; i++) {
      const size = i === 0 ? 3 * 1024 * 1024 + 17 : 1000 * i
      writeFileSync(
        join(dataDir, 'media', String(company), `${randomBytes(8).toString('hex')}.bin`),
        randomBytes(size),
      )
    }
  }
  writeFileSync(join(dataDir, 'media', '1', 'empty.txt'), '')
  return dataDir
}

function mediaDigests(dataDir: string) {
  const out: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name)
      if (e.isDirectory()) walk(path)
      else out[relative(dataDir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }
  if (existsSync(join(dataDir, 'media'))) walk(join(dataDir, 'media'))
  return out
}

/** Every row of every real table, as sorted JSON (virtual tables are compared through their shadow tables). */
function tableRows(file: string, except: string[] = []) {
  const db = new Database(file, { readonly: true })
  const tables = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
    )
    .all()
    .map((t) => t.name)
    .filter((t) => !except.includes(t))
  const rows: Record<string, string[]> = {}
  for (const table of tables) {
    rows[table] = db
      .query<Record<string, unknown>, []>(`SELECT * FROM "${table}"`)
      .all()
      .map((r) =>
        JSON.stringify(r, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)),
      )
      .sort()
  }
  db.close()
  return rows
}

describe('backup and restore', () => {
  test('a backup made while a writer is busy restores into a fresh folder: every row and file identical', async () => {
    const dataDir = seedDataDir()
    const dbFile = join(dataDir, 'balcao.db')
    // Another process writes rows as fast as it can, each in its own transaction, the whole time.
    const writer = Bun.spawn(
      [
        process.execPath,
        '-e',
        `const { Database } = require('bun:sqlite')
         const db = new Database(${JSON.stringify(dbFile)})
         db.run('PRAGMA journal_mode = WAL'); db.run('PRAGMA busy_timeout = 5000')
         const insert = db.prepare('INSERT INTO busy (payload) VALUES (?)')
         for (let i = 1; ; i++) insert.run('row ' + i + ' ' + 'x'.repeat(i % 500))`,
      ],
      { stdout: 'ignore', stderr: 'inherit' },
    )
    try {
      const live = new Database(dbFile, { readonly: true })
      const count = () => live.query<{ n: number }, []>('SELECT count(*) AS n FROM busy').get()?.n ?? 0
      while (count() < 2000) await Bun.sleep(5)
      const before = count()
      const progress: number[] = []
      const file = join(tempDir('out'), 'backup.tar.gz')
      const result = await createBackup({
        dataDir,
        file,
        version: 'test',
        onProgress: (done) => progress.push(done),
      })
      const after = count()
      live.close()
      expect(after).toBeGreaterThan(before) // the writer kept writing during the backup
      expect(result).toMatchObject({ file })
      expect(result.bytes).toBeGreaterThan(1000)
      expect(progress.length).toBeGreaterThan(3)
      expect(progress).toEqual([...progress].sort((a, b) => a - b))

      writer.kill()
      await writer.exited

      const fresh = join(tempDir('fresh'), 'data')
      const restored = await restoreBackup({ file, dataDir: fresh, knownMigrations: KNOWN })
      expect(restored.previous).toBeNull()

      // The copy is one instant: the busy table holds rows 1..n with no gap, n between the counts seen.
      const copy = new Database(join(fresh, 'balcao.db'), { readonly: true })
      const ids = copy
        .query<{ id: number }, []>('SELECT id FROM busy ORDER BY id')
        .all()
        .map((r) => r.id)
      copy.close()
      expect(ids.length).toBeGreaterThanOrEqual(before)
      expect(ids.length).toBeLessThanOrEqual(after)
      expect(ids[ids.length - 1]).toBe(ids.length)
      // Every row of every other table is identical; the busy table's rows equal the live ones with those ids.
      expect(tableRows(join(fresh, 'balcao.db'), ['busy'])).toEqual(tableRows(dbFile, ['busy']))
      const liveDb = new Database(dbFile, { readonly: true })
      const restoredDb = new Database(join(fresh, 'balcao.db'), { readonly: true })
      const pick = 'SELECT id, payload FROM busy WHERE id <= ? ORDER BY id'
      expect(restoredDb.query(pick).all(ids.length)).toEqual(liveDb.query(pick).all(ids.length))
      liveDb.close()
      restoredDb.close()
      expect(mediaDigests(fresh)).toEqual(mediaDigests(dataDir))
      expect(Object.keys(mediaDigests(fresh))).toHaveLength(13)
      expect(readFileSync(join(fresh, 'secrets.json'), 'utf8')).toBe(
        readFileSync(join(dataDir, 'secrets.json'), 'utf8'),
      )
    } finally {
      writer.kill()
      await writer.exited
    }
  }, 60_000)

  test('restoring over a folder keeps what it held aside', async () => {
    const dataDir = seedDataDir()
    const file = join(tempDir('out'), 'b.tar.gz')
    await createBackup({ dataDir, file, version: 'test' })
    const target = seedDataDir()
    const oldMedia = mediaDigests(target)
    const restored = await restoreBackup({ file, dataDir: target, knownMigrations: KNOWN })
    expect(restored.previous).toStartWith(join(target, 'backups', 'before-restore-'))
    expect(mediaDigests(target)).toEqual(mediaDigests(dataDir))
    expect(Object.values(mediaDigests(restored.previous ?? ''))).toEqual(Object.values(oldMedia))
    expect(existsSync(join(restored.previous ?? '', 'balcao.db'))).toBe(true)
  })

  async function refused(promise: Promise<unknown>, code: string) {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).code).toBe(code as AppError['code'])
    return err as AppError
  }

  test('a running server, a damaged or foreign archive, or a newer backup change nothing', async () => {
    const dataDir = seedDataDir()
    const file = join(tempDir('out'), 'b.tar.gz')
    await createBackup({ dataDir, file, version: 'test' })
    const target = seedDataDir()
    const untouched = { media: mediaDigests(target), rows: tableRows(join(target, 'balcao.db')) }
    const unchanged = () => {
      expect(mediaDigests(target)).toEqual(untouched.media)
      expect(tableRows(join(target, 'balcao.db'))).toEqual(untouched.rows)
      expect(readdirSync(target).filter((n) => n.startsWith('.restore-'))).toEqual([])
    }

    writeFileSync(
      join(target, 'operator.json'),
      JSON.stringify({ url: 'http://127.0.0.1:1', token: 't', pid: process.pid }),
    )
    const running = await refused(
      restoreBackup({ file, dataDir: target, knownMigrations: KNOWN }),
      'ERR_SERVER_RUNNING',
    )
    expect(running.message).toContain(String(process.pid))
    rmSync(join(target, 'operator.json'))
    unchanged()

    const bytes = readFileSync(file)
    const damaged = join(tempDir('bad'), 'damaged.tar.gz')
    const copy = Buffer.from(bytes)
    const middle = Math.floor(copy.length / 2)
    copy[middle] = (copy[middle] ?? 0) ^ 0xff
    writeFileSync(damaged, copy)
    await refused(
      restoreBackup({ file: damaged, dataDir: target, knownMigrations: KNOWN }),
      'ERR_BACKUP_INVALID',
    )
    unchanged()

    const truncated = join(tempDir('bad'), 'cut.tar.gz')
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)))
    await refused(
      restoreBackup({ file: truncated, dataDir: target, knownMigrations: KNOWN }),
      'ERR_BACKUP_INVALID',
    )
    unchanged()

    // A well-formed archive whose manifest does not match its files.
    const forged = join(tempDir('bad'), 'forged.tar.gz')
    const w = new TarWriter(forged)
    await w.addBuffer('balcao.db', Buffer.from('not a database'))
    await w.addBuffer(
      'manifest.json',
      Buffer.from(
        JSON.stringify({
          format: 'balcao-backup/1',
          entries: [{ name: 'balcao.db', bytes: 14, sha256: '00' }],
        }),
      ),
    )
    await w.finish()
    const err = await refused(
      restoreBackup({ file: forged, dataDir: target, knownMigrations: KNOWN }),
      'ERR_BACKUP_INVALID',
    )
    expect(err.message).toContain('damaged')
    unchanged()

    const newer = await refused(
      restoreBackup({ file, dataDir: target, knownMigrations: 3 }),
      'ERR_BACKUP_INVALID',
    )
    expect(newer.message).toContain('newer')
    unchanged()

    const notAnArchive = join(tempDir('bad'), 'notes.txt')
    writeFileSync(notAnArchive, 'hello')
    await refused(
      restoreBackup({ file: notAnArchive, dataDir: target, knownMigrations: KNOWN }),
      'ERR_BACKUP_INVALID',
    )
    await refused(
      restoreBackup({ file: join(target, 'nope.tar.gz'), dataDir: target, knownMigrations: KNOWN }),
      'ERR_NOT_FOUND',
    )
    unchanged()
  })
})
