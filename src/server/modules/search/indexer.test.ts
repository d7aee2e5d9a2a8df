import { describe, expect, test } from 'bun:test'
import { count, sandboxHarness } from '../inbound/testing'
import { reindexMessage, SearchIndexer, splitRowid, unindexTicket } from './indexer'

const CUSTOMER = '5511988887777'

type H = Awaited<ReturnType<typeof sandboxHarness>>['h']

/** Message ids matching a word, as the search sees them (ticket id from the rowid). */
function search(h: H, word: string) {
  return h.deps.sqlite
    .query<{ rowid: number }, [string]>(
      'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid',
    )
    .all(word)
    .map((r) => splitRowid(r.rowid))
}

const upto = (h: H) =>
  h.deps.sqlite
    .query<{ n: number }, []>('SELECT messages_indexed_upto AS n FROM search_state WHERE id = 1')
    .get()!.n

describe('message search index', () => {
  test('a message becomes searchable a few ms after commit, by its ticket and id, accents ignored', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, body: 'Quero falar sobre a fatura de março' })
    const [{ id, ticketId }] = h.deps.sqlite
      .query<{ id: number; ticketId: number }, []>('SELECT id, ticket_id AS ticketId FROM messages')
      .all() as [{ id: number; ticketId: number }]
    expect(search(h, 'fatura')).toEqual([])
    h.clock.advance(5)
    expect(search(h, 'fatura')).toEqual([{ ticketId, messageId: id }])
    expect(search(h, 'marco')).toEqual([{ ticketId, messageId: id }])
    expect(upto(h)).toBe(id)
  })

  test('many commits share one batch; edits are re-indexed; deleted messages leave the index', async () => {
    const { h, net, conn } = await sandboxHarness()
    for (let i = 0; i < 30; i++)
      await net.inject(conn.id, { from: CUSTOMER, id: `S${1000000 + i}`, body: `boleto ${i}` })
    expect(h.clock.pendingTimers).toBe(1)
    h.clock.advance(5)
    expect(search(h, 'boleto')).toHaveLength(30)
    await net.inject(conn.id, { from: CUSTOMER, edit: { id: 'S1000000', body: 'pix agora' } })
    await net.inject(conn.id, { from: CUSTOMER, delete: { id: 'S1000001' } })
    expect(search(h, 'boleto')).toHaveLength(28)
    expect(search(h, 'pix').map((r) => r.messageId)).toEqual([
      h.deps.sqlite.query<{ id: number }, []>("SELECT id FROM messages WHERE wid = 'S1000000'").get()!.id,
    ])
  })

  test('a restart catches up on what the last run did not index, in batches', async () => {
    const { h, net, conn } = await sandboxHarness()
    h.inbound.indexer.stop()
    for (let i = 0; i < 25; i++) await net.inject(conn.id, { from: CUSTOMER, body: `pedido ${i}` })
    // a message deleted before it was ever indexed is never indexed
    const first = h.deps.sqlite.query<{ id: number }, []>('SELECT min(id) AS id FROM messages').get()!.id
    h.deps.sqlite.query('UPDATE messages SET is_deleted = 1 WHERE id = ?').run(first)
    h.clock.advance(100)
    expect(search(h, 'pedido')).toEqual([])

    const next = new SearchIndexer(h.deps, { batchSize: 10 })
    expect(next.behind()).toBe(true)
    next.start()
    h.clock.advance(0)
    expect(search(h, 'pedido')).toHaveLength(24)
    expect(next.behind()).toBe(false)
    expect(upto(h)).toBe(count(h, 'messages') + first - 1)
  })

  test('reindexMessage: only what the index already covers; moves and ticket deletion', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, body: 'entrega atrasada' })
    const { id, ticketId } = h.deps.sqlite
      .query<{ id: number; ticketId: number }, []>('SELECT id, ticket_id AS ticketId FROM messages')
      .get()!
    // not indexed yet: nothing to do, the batch reads the current text
    h.deps.sqlite.query("UPDATE messages SET body = 'entrega feita' WHERE id = ?").run(id)
    reindexMessage(h.deps.sqlite, id)
    expect(search(h, 'entrega')).toEqual([])
    h.clock.advance(5)
    expect(search(h, 'feita')).toEqual([{ ticketId, messageId: id }])
    // a message moved to another ticket is found under the new one only
    const other = h.deps.sqlite
      .query<{ id: number }, [number, number, number, number, number]>(
        `INSERT INTO tickets (company_id, uuid, status, contact_id, whatsapp_id, created_at, updated_at)
         SELECT ?, 'moved-ticket', 'closed', contact_id, ?, ?, ? FROM tickets WHERE id = ? RETURNING id`,
      )
      .get(h.a.id, conn.id, 0, 0, ticketId)!.id
    h.deps.sqlite.query('UPDATE messages SET ticket_id = ? WHERE id = ?').run(other, id)
    reindexMessage(h.deps.sqlite, id, ticketId)
    expect(search(h, 'feita')).toEqual([{ ticketId: other, messageId: id }])
  })
})

describe('splitRowid', () => {
  test('ticket id in the high 32 bits, message id in the low', () => {
    expect(splitRowid(300 * 2 ** 32 + 12345)).toEqual({ ticketId: 300, messageId: 12345 })
  })
})

describe('unindexTicket', () => {
  test("forgets a ticket's messages and only its", async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, body: 'garantia' })
    await net.inject(conn.id, { from: '5511977770000', body: 'garantia também' })
    h.clock.advance(5)
    const [a, b] = search(h, 'garantia')
    unindexTicket(h.deps.sqlite, a!.ticketId)
    expect(search(h, 'garantia')).toEqual([b!])
  })
})
