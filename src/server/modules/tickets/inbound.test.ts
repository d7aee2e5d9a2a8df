import { describe, expect, test } from 'bun:test'
import { transact } from '../../context'
import { createHarness, type Harness } from '../../test/harness'
import { findOrOpenInboundTicket } from './inbound'
import { insertTicket } from './rows'
import { makeContact } from './testing'

function inbound(h: Harness, contactId: number, whatsappId: number, isGroup = false) {
  return transact(h.deps, (tx, events) =>
    findOrOpenInboundTicket(
      tx,
      { companyId: h.a.id, contactId, whatsappId, isGroup, now: h.clock.now() },
      events,
    ),
  )
}

describe('findOrOpenInboundTicket', () => {
  test("a first message opens a pending ticket in the connection's only queue; the next ones find it", async () => {
    const h = await createHarness()
    const q = h.makeQueue(h.a.id)
    const w = h.makeConnection(h.a.id)
    h.deps.sqlite.query('INSERT INTO whatsapp_queues (whatsapp_id, queue_id) VALUES (?, ?)').run(w.id, q.id)
    const contact = makeContact(h, h.a.id)
    const first = inbound(h, contact.id, w.id)
    expect(first).toMatchObject({ created: true, reopened: false })
    expect(first.ticket).toMatchObject({
      status: 'pending',
      userId: null,
      queueId: q.id,
      whatsappId: w.id,
      contactId: contact.id,
      companyId: h.a.id,
      isGroup: false,
    })
    const again = Array.from({ length: 50 }, () => inbound(h, contact.id, w.id))
    expect(new Set(again.map((r) => r.ticket.id))).toEqual(new Set([first.ticket.id]))
    expect(again.every((r) => !r.created)).toBe(true)
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 1 })
    expect(
      h.deps.sqlite
        .query(
          'SELECT type, actor_user_id AS actor, to_status AS toStatus, to_queue_id AS toQueue FROM ticket_events',
        )
        .all(),
    ).toEqual([{ type: 'created', actor: null, toStatus: 'pending', toQueue: q.id }])
  })

  test('after the ticket was closed, a message opens a new pending ticket', async () => {
    const h = await createHarness()
    const w = h.makeConnection(h.a.id)
    const contact = makeContact(h, h.a.id)
    const first = inbound(h, contact.id, w.id)
    h.deps.sqlite
      .query("UPDATE tickets SET status = 'closed', user_id = ? WHERE id = ?")
      .run(h.a.adminId, first.ticket.id)
    const next = inbound(h, contact.id, w.id)
    expect(next.created).toBe(true)
    expect(next.ticket.id).not.toBe(first.ticket.id)
    expect(next.ticket).toMatchObject({ status: 'pending', userId: null })
  })

  test('an open ticket is found too; another connection gets its own ticket; several queues leave it without one', async () => {
    const h = await createHarness()
    const w1 = h.makeConnection(h.a.id)
    const w2 = h.makeConnection(h.a.id)
    for (const q of [h.makeQueue(h.a.id), h.makeQueue(h.a.id)])
      h.deps.sqlite
        .query('INSERT INTO whatsapp_queues (whatsapp_id, queue_id) VALUES (?, ?)')
        .run(w2.id, q.id)
    const contact = makeContact(h, h.a.id)
    const t1 = inbound(h, contact.id, w1.id).ticket
    h.deps.sqlite
      .query("UPDATE tickets SET status = 'open', user_id = ? WHERE id = ?")
      .run(h.a.adminId, t1.id)
    expect(inbound(h, contact.id, w1.id)).toMatchObject({
      created: false,
      ticket: { id: t1.id, status: 'open' },
    })
    const t2 = inbound(h, contact.id, w2.id)
    expect(t2.created).toBe(true)
    expect(t2.ticket.queueId).toBeNull()
  })

  test('groups follow the same rule and are marked as groups', async () => {
    const h = await createHarness()
    const w = h.makeConnection(h.a.id)
    const group = makeContact(h, h.a.id, { isGroup: true, name: 'Equipe' })
    expect(inbound(h, group.id, w.id, true).ticket.isGroup).toBe(true)
  })

  test('the database refuses a second active ticket for a contact and connection', async () => {
    const h = await createHarness()
    const w = h.makeConnection(h.a.id)
    const contact = makeContact(h, h.a.id)
    inbound(h, contact.id, w.id)
    expect(() =>
      insertTicket(h.deps.sqlite, {
        companyId: h.a.id,
        contactId: contact.id,
        whatsappId: w.id,
        queueId: null,
        userId: null,
        status: 'open',
        isGroup: false,
        now: h.clock.now(),
      }),
    ).toThrow(/UNIQUE/)
  })
})
