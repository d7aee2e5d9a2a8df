/**
 * `balcao backup`: one .tar.gz with a consistent copy of the database, the secrets and the media, made while the
 * server keeps serving.
 *
 * The database is copied with `VACUUM INTO` from a read-only connection: in WAL mode that is a read transaction,
 * so it sees one instant of the database and never blocks the server's writes. The media are copied after it:
 * a stored file is written before the row that names it and never changed afterwards, so every file the copied
 * rows name is there. The manifest goes last, with every entry's size and SHA-256 (restore checks them).
 */
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { type EntryDigest, TarWriter } from './tar'

export const DB_FILE = 'balcao.db'
export const SECRETS_FILE = 'secrets.json'
export const MEDIA_DIR = 'media'
export const BACKUPS_DIR = 'backups'
export const MANIFEST = 'manifest.json'
export const BACKUP_FORMAT = 'balcao-backup/1'

export type BackupManifest = {
  format: typeof BACKUP_FORMAT
  createdAt: string
  version: string
  /** How many migrations the copied database has applied. */
  migrations: number
  entries: EntryDigest[]
}

export type BackupResult = { file: string; bytes: number; entries: number }

/** A consistent copy of the live database into `target` (any process may run it, the server included). */
export function snapshotDatabase(dbFile: string, target: string) {
  rmSync(target, { force: true })
  const source = new Database(dbFile, { readonly: true })
  try {
    source.run('PRAGMA busy_timeout = 10000')
    source.run(`VACUUM INTO '${target.replaceAll("'", "''")}'`)
  } finally {
    source.close()
  }
}

export function appliedMigrations(dbFile: string): number {
  const db = new Database(dbFile, { readonly: true })
  try {
    const table = db
      .query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name = '__drizzle_migrations'")
      .get()
    if (!table?.n) return 0
    return db.query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations').get()?.n ?? 0
  } finally {
    db.close()
  }
}

function mediaFiles(dataDir: string): { name: string; path: string; size: number; mtime: number }[] {
  const root = join(dataDir, MEDIA_DIR)
  if (!existsSync(root)) return []
  const found: { name: string; path: string; size: number; mtime: number }[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) {
        // A file removed between listing and reading is simply not in the backup.
        try {
          const stat = statSync(path)
          found.push({
            name: relative(dataDir, path).split('\\').join('/'),
            path,
            size: stat.size,
            mtime: stat.mtimeMs,
          })
        } catch {}
      }
    }
  }
  walk(root)
  return found.sort((a, b) => a.name.localeCompare(b.name))
}

export function defaultBackupName(now = new Date()): string {
  return `balcao-${now
    .toISOString()
    .replace(/[:]/g, '-')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`
}

/**
 * Writes the backup of `dataDir` to `file`. `onProgress(done, total)` follows the bytes copied (the total is
 * known once the database is copied).
 */
export async function createBackup(options: {
  dataDir: string
  file: string
  version: string
  onProgress?: (done: number, total: number) => void
}): Promise<BackupResult> {
  const { dataDir, file, version } = options
  const dbFile = join(dataDir, DB_FILE)
  if (!existsSync(dbFile)) throw new Error(`no database in ${dataDir}`)
  const work = join(dataDir, BACKUPS_DIR, `.snapshot-${process.pid}-${Date.now()}`)
  mkdirSync(work, { recursive: true, mode: 0o700 })
  const partial = `${file}.partial`
  try {
    const snapshot = join(work, DB_FILE)
    snapshotDatabase(dbFile, snapshot)
    const migrations = appliedMigrations(snapshot)
    const media = mediaFiles(dataDir)
    const secrets = join(dataDir, SECRETS_FILE)
    const files = [
      { name: DB_FILE, path: snapshot, size: statSync(snapshot).size, mtime: Date.now() },
      ...(existsSync(secrets)
        ? [
            {
              name: SECRETS_FILE,
              path: secrets,
              size: statSync(secrets).size,
              mtime: statSync(secrets).mtimeMs,
            },
          ]
        : []),
      ...media,
    ]
    const total = files.reduce((sum, f) => sum + f.size, 0)
    const writer = new TarWriter(partial, (done) => options.onProgress?.(done, total))
    const entries: EntryDigest[] = []
    for (const f of files) {
      const entry = await writer.addFile(f.name, f.path, f.size, f.mtime)
      if (entry) entries.push(entry)
      else if (f.name === DB_FILE) throw new Error('the database copy disappeared')
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      version,
      migrations,
      entries,
    }
    await writer.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)))
    await writer.finish()
    renameSync(partial, file)
    return { file, bytes: statSync(file).size, entries: entries.length }
  } catch (err) {
    rmSync(partial, { force: true })
    throw err
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
