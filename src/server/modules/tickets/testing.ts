/** Test fixtures for the tickets area: contacts, tickets and messages written straight into the database. */
import type { Harness } from '../../test/harness'
import { insertTicket } from './rows'

let seq = 0

export function makeContact(
  h: Harness,
  companyId: number,
  fields: { name?: string; number?: string | null; isGroup?: boolean; email?: string } = {},
): { id: number; name: string; number: string | null } {
  seq += 1
  const name = fields.name ?? `Cliente ${seq}`
  const number =
    fields.number === undefined ? `55119${String(70000000 + seq).padStart(8, '0')}` : fields.number
  const now = h.clock.now()
  const row = h.deps.sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO contacts (company_id, uuid, name, number, number_key, email, is_group, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(
      companyId,
      crypto.randomUUID(),
      name,
      number,
      number,
      fields.email ?? '',
      fields.isGroup ? 1 : 0,
      now,
      now,
    )!
  return { id: row.id, name, number }
}

export type TicketFixture = {
  contactId?: number
  whatsappId?: number | null
  queueId?: number | null
  userId?: number | null
  status?: 'open' | 'pending' | 'closed'
  isGroup?: boolean
  unread?: number
  updatedAt?: number
  createdAt?: number
  lastMessage?: string
}

/** A ticket in a company (a new contact unless one is given); closed tickets skip the one-active index. */
export function makeTicket(h: Harness, companyId: number, t: TicketFixture = {}) {
  const contactId = t.contactId ?? makeContact(h, companyId, { isGroup: t.isGroup }).id
  const now = h.clock.now()
  const row = insertTicket(h.deps.sqlite, {
    companyId,
    contactId,
    whatsappId: t.whatsappId ?? null,
    queueId: t.queueId ?? null,
    userId: t.userId ?? null,
    status: t.status === 'open' ? 'open' : 'pending',
    isGroup: t.isGroup ?? false,
    now,
  })
  const status = t.status ?? 'pending'
  h.deps.sqlite
    .query(
      `UPDATE tickets SET status = ?, unread_messages = ?, updated_at = ?, created_at = ?, last_message = ?,
              closed_at = CASE WHEN ? = 'closed' THEN ? END
        WHERE id = ?`,
    )
    .run(
      status,
      t.unread ?? 0,
      t.updatedAt ?? now,
      t.createdAt ?? t.updatedAt ?? now,
      t.lastMessage ?? '',
      status,
      now,
      row.id,
    )
  return { ...row, status, contactId }
}

/** A message of a ticket, indexed for search at once (the batch indexer's job in the server). */
export function makeMessage(
  h: Harness,
  ticket: { id: number; companyId: number; contactId: number },
  fields: { body?: string; fromMe?: boolean; read?: boolean; wid?: string } = {},
) {
  const now = h.clock.now()
  const row = h.deps.sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO messages (company_id, ticket_id, contact_id, wid, body, from_me, read, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(
      ticket.companyId,
      ticket.id,
      ticket.contactId,
      fields.wid ?? null,
      fields.body ?? 'Olá',
      fields.fromMe ? 1 : 0,
      fields.read ? 1 : 0,
      now,
      now,
    )!
  h.deps.sqlite
    .query('INSERT INTO messages_fts (rowid, body) VALUES (?, ?)')
    .run(ticket.id * 2 ** 32 + row.id, fields.body ?? 'Olá')
  h.deps.sqlite
    .query('UPDATE search_state SET messages_indexed_upto = max(messages_indexed_upto, ?)')
    .run(row.id)
  return row
}
