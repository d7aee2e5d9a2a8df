import { describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from './client'

const modeOf = (file: string) => statSync(file).mode & 0o777

describe('the database files', () => {
  test('are created readable by their owner only, whatever the umask and folder mode', () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-db-mode-'))
    chmodSync(dir, 0o755)
    const previous = process.umask(0o022)
    try {
      const path = join(dir, 'balcao.db')
      const { sqlite } = openDatabase(path)
      sqlite.run('CREATE TABLE t (x)')
      sqlite.run('INSERT INTO t VALUES (1)')
      expect(modeOf(path)).toBe(0o600)
      expect(modeOf(`${path}-wal`)).toBe(0o600)
      expect(modeOf(`${path}-shm`)).toBe(0o600)
      sqlite.close()
    } finally {
      process.umask(previous)
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('an existing database left readable by others is tightened when opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-db-mode-'))
    try {
      const path = join(dir, 'balcao.db')
      writeFileSync(path, '')
      chmodSync(path, 0o644)
      openDatabase(path).sqlite.close()
      expect(modeOf(path)).toBe(0o600)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
