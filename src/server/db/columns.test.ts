import { describe, expect, test } from 'bun:test'
import { getTableColumns, type Table } from 'drizzle-orm'
import { COMPANY_COLUMN } from '../modules/companies/service'
import { USER_COLUMN } from '../modules/users/dto'
import { assignments, type ColumnsOf, selectList } from './columns'
import { companies, users } from './schema'

/** The table's fields and SQL columns, in its order, as Drizzle declares them. */
const declared = (table: Table) =>
  Object.entries(getTableColumns(table)).map(([field, column]): [string, string] => [field, column.name])

describe('column maps', () => {
  test.each([
    ['users', users, USER_COLUMN],
    ['companies', companies, COMPANY_COLUMN],
  ] as const)('%s: every field names its own column, in the table order', (_name, table, map) => {
    expect(Object.entries(map)).toEqual(declared(table))
  })

  const map: ColumnsOf<{ id: number; companyId: number; online: boolean; note: string | null }> = {
    id: 'id',
    companyId: 'company_id',
    online: 'online',
    note: 'note',
  }

  test('selectList aliases the columns whose name differs from the field', () => {
    expect(selectList(map)).toBe('id, company_id AS companyId, online, note')
  })

  test('assignments bind booleans 0/1 and null as null, leave out undefined and keys the table lacks', () => {
    const values = { companyId: 3, online: true, note: null, id: undefined, 'x; DROP TABLE users': 1 }
    expect(assignments(map, values)).toEqual([
      { column: 'company_id', value: 3 },
      { column: 'online', value: 1 },
      { column: 'note', value: null },
    ])
    expect(assignments(map, { online: false, toString: 'no' } as never)).toEqual([
      { column: 'online', value: 0 },
    ])
  })
})
