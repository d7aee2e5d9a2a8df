/**
 * `balcao restore FILE`: replaces a data folder with a backup, only when no server runs on it and only after
 * the whole archive was extracted aside and checked: every entry's size and SHA-256 against the manifest, the
 * database's integrity, and that this executable knows every migration the database has. What the folder held
 * before is kept in `backups/before-restore-<time>/`, not deleted.
 */
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../../shared/errors'
import {
  appliedMigrations,
  BACKUP_FORMAT,
  BACKUPS_DIR,
  type BackupManifest,
  DB_FILE,
  MANIFEST,
  MEDIA_DIR,
  SECRETS_FILE,
} from './backup'
import { serverPid } from './running'
import { extractTarGz } from './tar'

export type RestoreResult = { restored: number; bytes: number; previous: string | null; migrations: number }

function invalid(message: string): never {
  throw new AppError('ERR_BACKUP_INVALID', message)
}

function checkManifest(
  dir: string,
  extracted: { name: string; bytes: number; sha256: string }[],
): BackupManifest {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as BackupManifest
  } catch {
    invalid('the archive has no readable manifest: it is not a Balcão backup')
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.entries))
    invalid(`unknown backup format ${JSON.stringify(manifest.format)}`)
  const found = new Map(extracted.filter((e) => e.name !== MANIFEST).map((e) => [e.name, e]))
  for (const entry of manifest.entries) {
    const got = found.get(entry.name)
    if (!got) invalid(`the archive lacks ${entry.name}`)
    if (got.bytes !== entry.bytes || got.sha256 !== entry.sha256)
      invalid(`${entry.name} is damaged (checksum differs)`)
    found.delete(entry.name)
  }
  if (found.size)
    invalid(`the archive holds files its manifest does not list: ${[...found.keys()].slice(0, 3).join(', ')}`)
  if (!manifest.entries.some((e) => e.name === DB_FILE)) invalid('the archive holds no database')
  return manifest
}

function checkDatabase(file: string, knownMigrations: number) {
  const db = new Database(file, { readonly: true })
  try {
    const result = db.query<{ integrity_check: string }, []>('PRAGMA integrity_check').all()
    if (result.length !== 1 || result[0]?.integrity_check !== 'ok')
      invalid('the database in the archive is damaged')
  } catch (err) {
    if (err instanceof AppError) throw err
    invalid('the database in the archive cannot be read')
  } finally {
    db.close()
  }
  const applied = appliedMigrations(file)
  if (applied > knownMigrations)
    invalid(
      `the backup comes from a newer Balcão (${applied} migrations; this one knows ${knownMigrations}): restore it with that version`,
    )
  return applied
}

export async function restoreBackup(options: {
  file: string
  dataDir: string
  /** Migrations this executable carries: a newer backup is refused. */
  knownMigrations: number
  onProgress?: (done: number) => void
  now?: Date
}): Promise<RestoreResult> {
  const { file, dataDir } = options
  if (!existsSync(file)) throw new AppError('ERR_NOT_FOUND', `no such file: ${file}`)
  const pid = serverPid(dataDir)
  if (pid) {
    throw new AppError(
      'ERR_SERVER_RUNNING',
      `Balcão is running on ${dataDir} (pid ${pid}); stop it first, then restore`,
    )
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const stamp = (options.now ?? new Date())
    .toISOString()
    .replace(/[:]/g, '-')
    .replace(/\.\d+Z$/, 'Z')
  const work = join(dataDir, `.restore-${stamp}`)
  rmSync(work, { recursive: true, force: true })
  try {
    let extracted: Awaited<ReturnType<typeof extractTarGz>>
    try {
      extracted = await extractTarGz(file, work, options.onProgress)
    } catch (err) {
      invalid(err instanceof Error ? err.message : String(err))
    }
    const manifest = checkManifest(work, extracted)
    const migrations = checkDatabase(join(work, DB_FILE), options.knownMigrations)

    // Checked: now the folder changes. What it held goes aside, whole.
    const present = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, SECRETS_FILE, MEDIA_DIR].filter((n) =>
      existsSync(join(dataDir, n)),
    )
    let previous: string | null = null
    if (present.length) {
      previous = join(dataDir, BACKUPS_DIR, `before-restore-${stamp}`)
      mkdirSync(previous, { recursive: true, mode: 0o700 })
      for (const name of present) renameSync(join(dataDir, name), join(previous, name))
    }
    for (const name of [DB_FILE, SECRETS_FILE, MEDIA_DIR])
      if (existsSync(join(work, name))) renameSync(join(work, name), join(dataDir, name))
    const bytes = manifest.entries.reduce((sum, e) => sum + e.bytes, 0)
    return { restored: manifest.entries.length, bytes, previous, migrations }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
