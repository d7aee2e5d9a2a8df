import type { SQLQueryBindings } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { inIds } from './sql'

describe('inIds', () => {
  test('binds up to 64 ids, padded to a few list lengths, and hands longer or empty lists to json_each', () => {
    for (let n = 0; n <= 70; n++) {
      const ids = Array.from({ length: n }, (_, i) => i + 1)
      const params: SQLQueryBindings[] = []
      const sql = inIds('x', ids, params)
      if (n === 0 || n > 64) {
        expect(sql).toBe('x IN (SELECT value FROM json_each(?))')
        expect(params).toEqual([JSON.stringify(ids)])
        continue
      }
      const marks = sql.match(/\?/g)?.length ?? 0
      expect(marks).toBe(params.length)
      expect([1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64]).toContain(marks)
      expect(new Set(params)).toEqual(new Set(ids))
    }
  })
})
