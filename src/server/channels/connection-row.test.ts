import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { whatsapps } from '../db/schema'
import { stmt } from '../db/statements'
import { createHarness } from '../test/harness'
import {
  connectionColumns,
  connectionRowById,
  insertConnectionRow,
  type RawConnectionRow,
  toConnectionRow,
  updateConnectionRow,
} from './connection-row'

const FLAGS_ON = {
  isDefault: true,
  allowGroup: true,
  enableLGPD: true,
  lgpdConsent: true,
  importOldMessagesGroups: true,
  closedTicketsPostImported: true,
}

describe('the connection row read as SQL', () => {
  test('is the row the query builder reads: same fields, same order, switches as booleans', async () => {
    const h = await createHarness()
    const plain = h.makeConnection(h.a.id)
    const switched = h.makeConnection(h.b.id, { ...FLAGS_ON, expirationTime: 123, number: '5511999990000' })
    for (const { id } of [plain, switched]) {
      const built = h.db.select().from(whatsapps).where(eq(whatsapps.id, id)).get()!
      const read = connectionRowById(h.deps.sqlite, id)!
      expect(read).toEqual(built)
      expect(Object.keys(read)).toEqual(Object.keys(built))
    }
    expect(connectionRowById(h.deps.sqlite, switched.id)).toMatchObject(FLAGS_ON)
    expect(connectionRowById(h.deps.sqlite, plain.id)?.isDefault).toBe(false)
    expect(connectionRowById(h.deps.sqlite, 999_999)).toBeUndefined()
  })

  test("under a table alias, beside another table's columns", async () => {
    const h = await createHarness()
    const made = h.makeConnection(h.a.id, { allowGroup: true })
    const raw = stmt<RawConnectionRow & { companyName: string }, [number]>(
      h.deps.sqlite,
      `SELECT ${connectionColumns('w')}, c.name AS companyName
         FROM whatsapps w JOIN companies c ON c.id = w.company_id WHERE w.id = ?`,
    ).get(made.id)!
    const { companyName, ...row } = raw
    expect(companyName).toBe('Alpha')
    expect(toConnectionRow(row)).toEqual(
      h.db.select().from(whatsapps).where(eq(whatsapps.id, made.id)).get()!,
    )
  })

  test('writes switches as 0/1, leaves out undefined and unknown fields, and answers the written row', async () => {
    const h = await createHarness()
    const made = h.makeConnection(h.a.id, { greetingMessage: 'Olá' })
    const patch = { allowGroup: true, greetingMessage: undefined, retries: 2, notAColumn: 'x' }
    const updated = updateConnectionRow(h.deps.sqlite, made.id, patch as never)!
    const built = h.db.select().from(whatsapps).where(eq(whatsapps.id, made.id)).get()!
    expect(updated).toEqual(built)
    expect(built).toMatchObject({ allowGroup: true, greetingMessage: 'Olá', retries: 2 })
    expect(
      h.deps.sqlite
        .query('SELECT allow_group AS a, is_default AS d FROM whatsapps WHERE id = ?')
        .get(made.id),
    ).toEqual({ a: 1, d: 0 })
    expect(updateConnectionRow(h.deps.sqlite, 999_999, { retries: 1 })).toBeUndefined()
  })

  test('inserts with the table defaults for what it is not given', async () => {
    const h = await createHarness()
    const now = h.clock.now()
    const inserted = insertConnectionRow(h.deps.sqlite, {
      companyId: h.a.id,
      name: 'Nova',
      token: 'tok-nova',
      lgpdConsent: true,
      createdAt: now,
      updatedAt: now,
    })
    const built = h.db.select().from(whatsapps).where(eq(whatsapps.id, inserted.id)).get()!
    expect(inserted).toEqual(built)
    expect(Object.keys(inserted)).toEqual(Object.keys(built))
    expect(built).toMatchObject({
      provider: 'beta',
      status: 'DISCONNECTED',
      isDefault: false,
      lgpdConsent: true,
      maxUseBotQueues: 3,
      schedules: '[]',
    })
  })
})
