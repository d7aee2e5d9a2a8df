/**
 * `balcao doctor`: what an operator checks on the machine that hosts Balcão, each with what to do about it.
 * Reads the data folder without changing it (the database is opened read-only), so it runs beside a server.
 */
import { Database } from 'bun:sqlite'
import { accessSync, constants, existsSync, readFileSync, statfsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { BACKUPS_DIR, DB_FILE, SECRETS_FILE } from './backup'
import { type ConnectionReport, connectionReports, healthLines } from './doctor-connections'
import { serverPid } from './running'
import { appliedMigrationsOf, knownMigrations } from './upgrade'

export type DoctorCheck = { name: string; ok: boolean; detail: string }
/** `connections`: each connection's state and health, when the database could be read. */
export type DoctorReport = { ok: boolean; checks: DoctorCheck[]; connections?: ConnectionReport[] }

const GiB = 1024 ** 3

function mb(bytes: number) {
  return bytes >= GiB ? `${(bytes / GiB).toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`
}

function mode(path: string) {
  return statSync(path).mode & 0o777
}

export function runDoctor(
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
  now = Date.now(),
): DoctorReport {
  const checks: DoctorCheck[] = []
  const report: Omit<DoctorReport, 'ok'> = { checks }
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail })

  // The folder itself.
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
    check(
      'data folder',
      false,
      `${dataDir} does not exist: start Balcão once (\`balcao serve --data ${dataDir}\`) or point --data at it`,
    )
    return { ok: false, ...report }
  }
  try {
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK)
    check('data folder', true, `${dataDir} is readable and writable`)
  } catch {
    check(
      'data folder',
      false,
      `${dataDir} is not writable by this user: run as the user that runs Balcão, or chown it`,
    )
  }

  const loose: string[] = []
  if (mode(dataDir) & 0o077) loose.push(`${dataDir} (${mode(dataDir).toString(8)}, want 700)`)
  for (const file of [DB_FILE, SECRETS_FILE]) {
    const path = join(dataDir, file)
    if (existsSync(path) && mode(path) & 0o077) loose.push(`${file} (${mode(path).toString(8)}, want 600)`)
  }
  check(
    'permissions',
    loose.length === 0,
    loose.length ? `others can read ${loose.join(', ')}: chmod them` : 'only the owner can read the data',
  )

  // Disk: room for the database to grow and for a backup of it.
  const dbFile = join(dataDir, DB_FILE)
  const dbSize = existsSync(dbFile) ? statSync(dbFile).size : 0
  try {
    const fs = statfsSync(dataDir)
    const free = fs.bavail * fs.bsize
    const want = Math.max(GiB, 2 * dbSize)
    check(
      'free disk',
      free >= want,
      free >= want
        ? `${mb(free)} free`
        : `only ${mb(free)} free (want ${mb(want)}: twice the database, at least 1 GiB): free space or move the data folder`,
    )
  } catch {
    check('free disk', false, 'could not read the free space of the data folder')
  }

  // Secrets.
  try {
    const secrets = JSON.parse(readFileSync(join(dataDir, SECRETS_FILE), 'utf8')) as Record<string, unknown>
    const missing = ['jwtSecret', 'urlSigningKey', 'sealingKey'].filter(
      (k) => typeof secrets[k] !== 'string' || !secrets[k],
    )
    check(
      'secrets',
      missing.length === 0,
      missing.length
        ? `secrets.json lacks ${missing.join(', ')}: start the server once to add them`
        : 'secrets.json holds every key',
    )
  } catch {
    check(
      'secrets',
      false,
      'secrets.json is missing or unreadable: restore it from a backup (sessions and sealed settings depend on it)',
    )
  }

  // Database and migrations.
  if (!existsSync(dbFile)) {
    check('database', false, `no database in ${dataDir}: start Balcão once to create it`)
    return { ok: checks.every((c) => c.ok), ...report }
  }
  let db: Database | null = null
  try {
    db = new Database(dbFile, { readonly: true })
    db.run('PRAGMA busy_timeout = 5000')
    const quick = db.query<{ quick_check: string }, []>('PRAGMA quick_check').get()?.quick_check
    check(
      'database',
      quick === 'ok',
      quick === 'ok' ? `${mb(dbSize)}, consistent` : `damaged (${quick}): restore a backup`,
    )
    const applied = appliedMigrationsOf(db)
    const known = knownMigrations()
    check(
      'migrations',
      applied === known,
      applied === known
        ? `${applied} applied, none pending`
        : applied < known
          ? `${known - applied} pending: restart the server (it copies the database aside, then migrates)`
          : `the database is newer than this executable (${applied} > ${known}): run the newer executable`,
    )
    // Connections: the state each had last (the server keeps it current while it runs).
    const running = serverPid(dataDir)
    check('server', true, running ? `running (pid ${running})` : 'not running')
    // With each one's health: versions, last received and acknowledged, last disconnect, restriction.
    const connections = connectionReports(db)
    report.connections = connections
    if (!connections.length) check('connections', true, 'no connections yet')
    for (const c of connections) {
      const ok = c.status === 'CONNECTED'
      check(
        `connection ${c.id}`,
        ok,
        [
          `${c.name} (${c.company}): ${c.status}${
            ok
              ? ''
              : running
                ? ` — pair it again: \`balcao connection pair ${c.id}\``
                : ' — start the server, then check again'
          }`,
          ...healthLines(c, now),
        ].join('\n'),
      )
    }
  } catch (err) {
    check('database', false, `cannot be read (${err instanceof Error ? err.message : String(err)})`)
  } finally {
    db?.close()
  }

  const keep = Number(env.BALCAO_BACKUP_KEEP ?? 0)
  const dailies = existsSync(join(dataDir, BACKUPS_DIR))
    ? statSync(join(dataDir, BACKUPS_DIR)) && true
    : false
  check(
    'backups',
    true,
    keep > 0
      ? `the server keeps the last ${keep} daily backups in ${join(dataDir, BACKUPS_DIR)}${dailies ? '' : ' (none yet)'}; copy them off this machine too`
      : 'no scheduled backups: set BALCAO_BACKUP_KEEP=7 (or run `balcao backup` from cron) and copy them off this machine',
  )
  return { ok: checks.every((c) => c.ok), ...report }
}
