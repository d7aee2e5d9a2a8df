import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, stmt } from './statements'

const dir = mkdtempSync(join(tmpdir(), 'balcao-statements-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A second connection that wants the file to itself, as a server starting on it may: can it write at once? */
function exclusiveWriteSucceeds(path: string) {
  const other = new Database(path)
  try {
    other.run('PRAGMA busy_timeout = 0')
    other.run('PRAGMA locking_mode = EXCLUSIVE')
    other.run('INSERT INTO t DEFAULT VALUES')
    return true
  } catch {
    return false
  } finally {
    other.close()
  }
}

function usedThroughTheCache(name: string) {
  const path = join(dir, name)
  const sqlite = new Database(path)
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('CREATE TABLE t (id INTEGER PRIMARY KEY)')
  stmt(sqlite, 'INSERT INTO t DEFAULT VALUES').run()
  stmt(sqlite, 'SELECT count(*) AS n FROM t').get()
  return { path, sqlite }
}

describe('closeDatabase', () => {
  test('releases the file at once, where a plain close leaves the kept statements holding it', () => {
    const plain = usedThroughTheCache('plain.db')
    plain.sqlite.close()
    expect(exclusiveWriteSucceeds(plain.path)).toBe(false)

    const closed = usedThroughTheCache('closed.db')
    closeDatabase(closed.sqlite)
    expect(exclusiveWriteSucceeds(closed.path)).toBe(true)
  })
})
