/**
 * Daily backups kept in the data folder (`backups/daily-<time>.tar.gz`), the last `keep` of them, when
 * `BALCAO_BACKUP_KEEP` (or `balcao serve --backup-keep N`) asks for them. The files are the state: at start and
 * every hour the job looks at the newest one and makes the next once a day has passed, so a server that was down
 * catches up at once. Each backup runs as a child process (`balcao backup`), so copying a large database never
 * pauses the server's own work.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Clock } from '../clock'
import { IntervalJob } from '../jobs/interval'
import type { Logger } from '../logger'
import { BACKUPS_DIR } from './backup'

const DAY = 24 * 60 * 60 * 1000
const HOUR = 60 * 60 * 1000
const PREFIX = 'daily-'

function stampOf(ms: number) {
  return new Date(ms)
    .toISOString()
    .replace(/[:]/g, '-')
    .replace(/\.\d+Z$/, 'Z')
}

function timeOf(name: string): number {
  const stamp = name.slice(PREFIX.length, name.indexOf('.tar.gz'))
  const iso = stamp.replace(/T(\d{2})-(\d{2})-(\d{2})Z$/, 'T$1:$2:$3Z')
  return Date.parse(iso)
}

export function dailyBackups(dataDir: string): string[] {
  const dir = join(dataDir, BACKUPS_DIR)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((n) => n.startsWith(PREFIX) && n.endsWith('.tar.gz') && !Number.isNaN(timeOf(n)))
    .sort()
}

/** The command that makes one backup: this executable, or Bun on the sources. */
export function backupCommand(file: string, dataDir: string): string[] {
  const self = Bun.isStandaloneExecutable
    ? [process.execPath]
    : [process.execPath, process.argv[1] ?? 'src/main.ts']
  return [...self, 'backup', file, '--data', dataDir, '--json']
}

async function runChild(file: string, dataDir: string): Promise<void> {
  const child = Bun.spawn(backupCommand(file, dataDir), { stdout: 'ignore', stderr: 'pipe' })
  const code = await child.exited
  if (code !== 0)
    throw new Error((await new Response(child.stderr).text()).trim() || `backup exited with ${code}`)
}

export type ScheduledBackupsOptions = {
  dataDir: string
  keep: number
  clock: Clock
  log: Logger
  /** Makes one backup into `file` (tests give their own). */
  run?: (file: string, dataDir: string) => Promise<void>
}

/** Looks now and then every hour; makes a backup once a day has passed since the newest. */
export class ScheduledBackups extends IntervalJob {
  constructor(private readonly options: ScheduledBackupsOptions) {
    super(options.clock, HOUR)
  }

  protected async tick() {
    const { dataDir, keep, clock, log } = this.options
    const existing = dailyBackups(dataDir)
    const newest = existing.length ? timeOf(existing[existing.length - 1] ?? '') : 0
    if (clock.now() - newest >= DAY) {
      const dir = join(dataDir, BACKUPS_DIR)
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const file = join(dir, `${PREFIX}${stampOf(clock.now())}.tar.gz`)
      try {
        await (this.options.run ?? runChild)(file, dataDir)
        log.info('daily backup written', { file })
      } catch (err) {
        log.error('daily backup failed', { err: err instanceof Error ? err.message : String(err) })
      }
    }
    const all = dailyBackups(dataDir)
    for (const old of all.slice(0, Math.max(0, all.length - keep)))
      rmSync(join(dataDir, BACKUPS_DIR, old), { force: true })
  }

  protected failed(err: Error) {
    this.options.log.error('daily backup failed', { err: err.message })
  }
}

export function startScheduledBackups(options: ScheduledBackupsOptions) {
  const job = new ScheduledBackups(options)
  job.start()
  return job
}
