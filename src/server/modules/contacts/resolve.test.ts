import { describe, expect, test } from 'bun:test'
import { contactJid, contactRef } from '../../channels/address'
import { transact } from '../../context'
import { EventBuffer } from '../../realtime/hub'
import { createHarness, type Harness } from '../../test/harness'
import { applyLidMapping, type InboundWho, resolveInboundContact } from './resolve'
import { makeContact, makeMessage, makeTag, makeTicket, tagContact } from './testing'

function resolve(h: Harness, who: Partial<InboundWho> & { whatsappId: number }, companyId = h.a.id) {
  return transact(h.deps, (tx, events) =>
    resolveInboundContact(
      tx,
      companyId,
      { number: null, lid: null, name: null, isGroup: false, ...who },
      h.clock.now(),
      events,
    ),
  )
}

const one = <T>(h: Harness, sql: string, ...args: (string | number)[]) =>
  h.deps.sqlite.query(sql).get(...args) as T

const contactsOf = (h: Harness, companyId: number) =>
  h.deps.sqlite
    .query(
      'SELECT id, name, number, number_key AS numberKey, lid, whatsapp_id AS whatsappId FROM contacts WHERE company_id = ?',
    )
    .all(companyId) as {
    id: number
    name: string
    number: string | null
    numberKey: string | null
    lid: string | null
    whatsappId: number | null
  }[]

describe('resolveInboundContact: one person, one contact', () => {
  test('creates the contact once, then finds it; the push name and connection are kept; live once', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    const events = h.recordEvents()
    const first = resolve(h, { number: '5511987654321@s.whatsapp.net', name: 'Maria', whatsappId: conn.id })
    expect(first.created).toBe(true)
    expect(first.contact).toMatchObject({
      name: 'Maria',
      number: '5511987654321',
      numberKey: '5511987654321',
      whatsappId: conn.id,
    })
    const again = resolve(h, { number: '5511987654321', name: 'Maria', whatsappId: conn.id })
    expect(again).toMatchObject({ created: false, contact: { id: first.contact.id } })
    expect(events.filter((e) => e.event === `company-${h.a.id}-contact`)).toHaveLength(1)
    // Another company's message from the same number is another contact.
    const beta = resolve(h, { number: '5511987654321', whatsappId: h.makeConnection(h.b.id).id }, h.b.id)
    expect(beta.created).toBe(true)
    expect(beta.contact.id).not.toBe(first.contact.id)
  })

  test('a Brazilian mobile with and without the ninth digit is one contact, kept in the form WhatsApp uses', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    const manual = makeContact(h, h.a.id, { name: 'Cliente antigo', number: '5511987654321' })
    const res = resolve(h, { number: '551187654321@s.whatsapp.net', name: 'Push', whatsappId: conn.id })
    expect(res).toMatchObject({
      created: false,
      contact: { id: manual.id, number: '551187654321', numberKey: '5511987654321' },
    })
    // A name someone chose is not replaced by the push name.
    expect(res.contact.name).toBe('Cliente antigo')
    expect(resolve(h, { number: '5511987654321', whatsappId: conn.id }).contact.id).toBe(manual.id)
    expect(contactsOf(h, h.a.id)).toHaveLength(1)
  })

  test('a LID-only sender gets a contact named by its push name; its number, when it comes, joins it', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    const byLid = resolve(h, { lid: '123456789012345@lid', name: 'Só LID', whatsappId: conn.id })
    expect(byLid.contact).toMatchObject({ lid: '123456789012345', number: null, name: 'Só LID' })
    const both = resolve(h, { lid: '123456789012345', number: '5521999990000', whatsappId: conn.id })
    expect(both).toMatchObject({
      created: false,
      contact: { id: byLid.contact.id, number: '5521999990000', lid: '123456789012345' },
    })
    // From now on either identifier finds it.
    expect(resolve(h, { number: '552199990000', whatsappId: conn.id }).contact.id).toBe(byLid.contact.id)
    expect(resolve(h, { lid: '123456789012345:7@lid', whatsappId: conn.id }).contact.id).toBe(
      byLid.contact.id,
    )
    expect(contactsOf(h, h.a.id)).toHaveLength(1)
  })

  test('a nameless contact is named by its number, later by its push name', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    const res = resolve(h, { number: '14155552671', whatsappId: conn.id })
    expect(res.contact.name).toBe('14155552671')
    expect(resolve(h, { number: '14155552671', name: ' John\nDoe ', whatsappId: conn.id }).contact.name).toBe(
      'John Doe',
    )
    expect(
      resolve(h, { number: '14155552671', name: 'x'.repeat(80), whatsappId: conn.id }).contact.name,
    ).toBe('John Doe')
  })

  test('groups keep their id as WhatsApp writes it', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    const group = resolve(h, {
      number: '5511987654321-1612345678@g.us',
      name: 'Grupo',
      isGroup: true,
      whatsappId: conn.id,
    })
    expect(group.contact).toMatchObject({ number: '5511987654321-1612345678', isGroup: true, name: 'Grupo' })
    expect(contactJid(group.contact)).toBe('5511987654321-1612345678@g.us')
    expect(
      resolve(h, { number: '5511987654321-1612345678@g.us', isGroup: true, whatsappId: conn.id }).contact.id,
    ).toBe(group.contact.id)
  })

  test('no number and no LID is a programming error, not a contact', async () => {
    const h = await createHarness()
    expect(() => resolve(h, { whatsappId: h.makeConnection(h.a.id).id })).toThrow()
  })

  test('50 concurrent messages from one new number make one contact', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await Promise.resolve()
        return resolve(h, {
          number: i % 2 ? '5511987654321' : '551187654321',
          lid: i % 3 ? null : '999888777',
          name: `Burst ${i}`,
          whatsappId: conn.id,
        })
      }),
    )
    expect(new Set(results.map((r) => r.contact.id)).size).toBe(1)
    expect(results.filter((r) => r.created)).toHaveLength(1)
    expect(contactsOf(h, h.a.id)).toHaveLength(1)
  })

  test('an insert that loses a race to another writer finds the winner instead of failing', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    // Another connection's row appears between our lookup and our insert: simulated by a trigger that inserts
    // the same number key just before our row.
    h.deps.sqlite.run(`CREATE TEMP TRIGGER race BEFORE INSERT ON contacts WHEN new.name = 'Loser' BEGIN
      INSERT INTO contacts (company_id, uuid, name, number, number_key, created_at, updated_at)
      VALUES (new.company_id, 'winner', 'Winner', new.number, new.number_key, 0, 0);
    END`)
    const res = resolve(h, { number: '5511955554444', name: 'Loser', whatsappId: conn.id })
    expect(res.contact.name).toBe('Winner')
    expect(contactsOf(h, h.a.id)).toHaveLength(1)
  })
})

describe('merging two contacts of one person', () => {
  function twoContacts(h: Harness) {
    const [c1, c2] = [h.makeConnection(h.a.id), h.makeConnection(h.a.id)]
    const byNumber = makeContact(h, h.a.id, {
      name: 'Maria (número)',
      number: '5511987654321',
      email: 'm@x.com',
    })
    const byLid = makeContact(h, h.a.id, { name: '111222333', number: null, lid: '111222333' })
    const [vip, late] = [makeTag(h, h.a.id, 'VIP'), makeTag(h, h.a.id, 'Atraso')]
    tagContact(h, byNumber.id, vip.id)
    tagContact(h, byLid.id, vip.id)
    tagContact(h, byLid.id, late.id)
    h.deps.sqlite
      .query('INSERT INTO contact_extra_info (contact_id, name, value) VALUES (?, ?, ?)')
      .run(byLid.id, 'CPF', '123')
    return { c1, c2, byNumber, byLid, vip, late }
  }

  test('a message naming both a LID and a number of two contacts merges them: nothing is lost, all is live', async () => {
    const h = await createHarness()
    const { c1, c2, byNumber, byLid, vip, late } = twoContacts(h)
    const t1 = makeTicket(h, h.a.id, { contactId: byNumber.id, whatsappId: c1.id, status: 'closed' })
    const t2 = makeTicket(h, h.a.id, { contactId: byLid.id, whatsappId: c2.id, status: 'pending' })
    const m1 = makeMessage(h, h.a.id, t1.id, byNumber.id, 'antes')
    const m2 = makeMessage(h, h.a.id, t2.id, byLid.id, 'depois')
    const events = h.recordEvents()
    const res = resolve(h, { number: '5511987654321', lid: '111222333@lid', whatsappId: c2.id })
    expect(res.contact).toMatchObject({
      id: byNumber.id,
      name: 'Maria (número)',
      number: '5511987654321',
      lid: '111222333',
      email: 'm@x.com',
      whatsappId: c2.id,
    })
    expect(contactsOf(h, h.a.id).map((c) => c.id)).toEqual([byNumber.id])
    const owner = (table: string, id: number) =>
      one<{ contactId: number }>(h, `SELECT contact_id AS contactId FROM ${table} WHERE id = ?`, id).contactId
    expect([owner('tickets', t1.id), owner('tickets', t2.id)]).toEqual([byNumber.id, byNumber.id])
    expect([owner('messages', m1.id), owner('messages', m2.id)]).toEqual([byNumber.id, byNumber.id])
    const tags = h.deps.sqlite
      .query('SELECT tag_id AS id FROM contact_tags WHERE contact_id = ? ORDER BY tag_id')
      .all(byNumber.id)
    expect(tags).toEqual([{ id: vip.id }, { id: late.id }])
    expect(
      one<{ value: string }>(h, 'SELECT value FROM contact_extra_info WHERE contact_id = ?', byNumber.id)
        .value,
    ).toBe('123')
    // Live: the gone contact leaves, the kept one updates, the moved ticket updates.
    const contactEvents = events.filter((e) => e.event === `company-${h.a.id}-contact`).map((e) => e.data)
    expect(contactEvents).toContainEqual({ action: 'delete', contactId: byLid.id })
    expect(contactEvents).toContainEqual(
      expect.objectContaining({ action: 'update', contact: expect.objectContaining({ id: byNumber.id }) }),
    )
    const ticketUpdates = events
      .filter((e) => e.event === `company-${h.a.id}-ticket`)
      .map((e) => e.data as { ticket?: { id: number; contactId: number } })
    expect(ticketUpdates.some((d) => d.ticket?.id === t2.id && d.ticket.contactId === byNumber.id)).toBe(true)
    // Both identifiers now find the one contact.
    expect(resolve(h, { lid: '111222333', whatsappId: c1.id }).contact.id).toBe(byNumber.id)
    expect(resolve(h, { number: '551187654321', whatsappId: c1.id }).contact.id).toBe(byNumber.id)
  })

  test('two active tickets on one connection: the older is closed first (recorded), the other goes on', async () => {
    const h = await createHarness()
    const { c1, byNumber, byLid } = twoContacts(h)
    const now = h.clock.now()
    const older = makeTicket(h, h.a.id, {
      contactId: byLid.id,
      whatsappId: c1.id,
      status: 'open',
      updatedAt: now - 60_000,
    })
    const newer = makeTicket(h, h.a.id, {
      contactId: byNumber.id,
      whatsappId: c1.id,
      status: 'pending',
      updatedAt: now - 1_000,
    })
    makeMessage(h, h.a.id, older.id, byLid.id, 'mensagem no ticket mais antigo')
    resolve(h, { number: '5511987654321', lid: '111222333', whatsappId: c1.id })
    const status = (id: number) =>
      one<{ status: string; contactId: number }>(
        h,
        'SELECT status, contact_id AS contactId FROM tickets WHERE id = ?',
        id,
      )
    expect(status(older.id)).toEqual({ status: 'closed', contactId: byNumber.id })
    expect(status(newer.id)).toEqual({ status: 'pending', contactId: byNumber.id })
    expect(one<{ n: number }>(h, 'SELECT count(*) AS n FROM messages WHERE ticket_id = ?', older.id).n).toBe(
      1,
    )
    expect(
      one(
        h,
        `SELECT type, actor_user_id AS actor, from_status AS fromStatus, to_status AS toStatus FROM ticket_events WHERE ticket_id = ?`,
        older.id,
      ),
    ).toEqual({ type: 'closed', actor: null, fromStatus: 'open', toStatus: 'closed' })
  })

  test("the kept contact's own ticket is closed when it is the older one", async () => {
    const h = await createHarness()
    const { c1, byNumber, byLid } = twoContacts(h)
    const now = h.clock.now()
    const keptOld = makeTicket(h, h.a.id, {
      contactId: byNumber.id,
      whatsappId: c1.id,
      status: 'open',
      updatedAt: now - 60_000,
    })
    const goneNew = makeTicket(h, h.a.id, {
      contactId: byLid.id,
      whatsappId: c1.id,
      status: 'pending',
      updatedAt: now,
    })
    const events = h.recordEvents()
    resolve(h, { number: '5511987654321', lid: '111222333', whatsappId: c1.id })
    expect(one<{ status: string }>(h, 'SELECT status FROM tickets WHERE id = ?', keptOld.id).status).toBe(
      'closed',
    )
    expect(one<{ status: string }>(h, 'SELECT status FROM tickets WHERE id = ?', goneNew.id).status).toBe(
      'pending',
    )
    const updated = events
      .filter((e) => e.event === `company-${h.a.id}-ticket`)
      .map((e) => (e.data as { ticket?: { id: number; status: string } }).ticket)
    expect(updated).toContainEqual(expect.objectContaining({ id: keptOld.id, status: 'closed' }))
  })

  test('a LID mapping from the channel merges, fills in, or does nothing', async () => {
    const h = await createHarness()
    const { byNumber, byLid } = twoContacts(h)
    applyLidMapping(h.deps, h.a.id, { lid: '111222333@lid', number: '5511987654321@s.whatsapp.net' })
    expect(contactsOf(h, h.a.id).map((c) => [c.id, c.lid, c.number])).toEqual([
      [byNumber.id, '111222333', '5511987654321'],
    ])
    expect(one<{ n: number }>(h, 'SELECT count(*) AS n FROM contacts WHERE id = ?', byLid.id).n).toBe(0)
    // A number-only contact gains its LID; a LID-only one its number; unknown pairs create nothing.
    const onlyNumber = makeContact(h, h.a.id, { number: '5521911112222' })
    const onlyLid = makeContact(h, h.a.id, { number: null, lid: '444555666' })
    applyLidMapping(h.deps, h.a.id, { lid: '777888999', number: '5521911112222' })
    applyLidMapping(h.deps, h.a.id, { lid: '444555666', number: '5531933334444' })
    applyLidMapping(h.deps, h.a.id, { lid: '000111222', number: '5541955556666' })
    const rows = contactsOf(h, h.a.id)
    expect(rows.find((c) => c.id === onlyNumber.id)?.lid).toBe('777888999')
    expect(rows.find((c) => c.id === onlyLid.id)).toMatchObject({
      number: '5531933334444',
      numberKey: '5531933334444',
    })
    expect(rows).toHaveLength(3)
    // Another company's contacts are never touched.
    const foreign = makeContact(h, h.b.id, { number: '5551977778888' })
    applyLidMapping(h.deps, h.a.id, { lid: '123123123', number: '5551977778888' })
    expect(one<{ lid: string | null }>(h, 'SELECT lid FROM contacts WHERE id = ?', foreign.id).lid).toBeNull()
  })
})

describe('contactJid: where a message to the contact goes', () => {
  test('the LID once WhatsApp addresses the person by it, otherwise the number; groups by their id', () => {
    expect(contactJid({ number: '5511987654321', lid: null, isGroup: false })).toBe(
      '5511987654321@s.whatsapp.net',
    )
    expect(contactJid({ number: '5511987654321', lid: '111222333', isGroup: false })).toBe('111222333@lid')
    expect(contactJid({ number: null, lid: '111222333', isGroup: false })).toBe('111222333@lid')
    expect(contactJid({ number: '120363000000000001', lid: null, isGroup: true })).toBe(
      '120363000000000001@g.us',
    )
    expect(() => contactJid({ number: null, lid: null, isGroup: false })).toThrow()
    expect(contactRef({ number: '5511987654321', lid: '111222333', isGroup: false })).toEqual({
      jid: '111222333@lid',
      pn: '5511987654321',
      lid: '111222333',
    })
  })
})

test('EventBuffer holds contact events until commit', async () => {
  const h = await createHarness()
  const conn = h.makeConnection(h.a.id)
  const seen = h.recordEvents()
  const events = new EventBuffer()
  h.deps.db.transaction((tx) => {
    resolveInboundContact(
      tx as never,
      h.a.id,
      { number: '5511900000000', lid: null, name: null, isGroup: false, whatsappId: conn.id },
      h.clock.now(),
      events,
    )
  })
  expect(seen).toHaveLength(0)
  events.flush(h.deps.hub)
  expect(seen.map((e) => e.event)).toEqual([`company-${h.a.id}-contact`])
})
