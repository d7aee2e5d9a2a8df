import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ManualClock } from '../clock'
import { backupKeep } from '../config'
import { silentLogger } from '../logger'
import { dailyBackups, startScheduledBackups } from './scheduled-backups'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('scheduled backups', () => {
  test('one a day, the last N kept, and a server that was down catches up at start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'balcao-daily-'))
    dirs.push(dataDir)
    const clock = new ManualClock(Date.parse('2026-11-22T03:00:00Z'))
    const made: string[] = []
    const run = async (file: string) => {
      made.push(file)
      writeFileSync(file, 'backup')
    }
    const job = startScheduledBackups({ dataDir, keep: 2, clock, log: silentLogger, run })
    await job.idle()
    expect(made).toHaveLength(1) // none yet: one at once
    for (let hour = 0; hour < 23; hour++) {
      await clock.advance(60 * 60 * 1000)
      await job.idle()
    }
    expect(made).toHaveLength(1) // not before a day has passed
    await clock.advance(60 * 60 * 1000)
    await job.idle()
    expect(made).toHaveLength(2)
    for (let hour = 0; hour < 48; hour++) {
      await clock.advance(60 * 60 * 1000)
      await job.idle()
    }
    expect(made).toHaveLength(4)
    expect(dailyBackups(dataDir)).toEqual(made.slice(-2).map((f) => f.split('/').pop() ?? ''))
    job.stop()

    // Down for three days: the next start makes one at once.
    await clock.advance(3 * 24 * 60 * 60 * 1000)
    const again = startScheduledBackups({ dataDir, keep: 2, clock, log: silentLogger, run })
    await again.idle()
    expect(made).toHaveLength(5)
    again.stop()
  })

  test('BALCAO_BACKUP_KEEP: a whole number of backups, off otherwise', () => {
    expect(backupKeep('7')).toBe(7)
    expect(backupKeep(undefined)).toBe(0)
    expect(backupKeep('0')).toBe(0)
    expect(backupKeep('-3')).toBe(0)
    expect(backupKeep('2.5')).toBe(0)
    expect(backupKeep('lots')).toBe(0)
  })
})
