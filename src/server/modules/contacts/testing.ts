/** For tests only: rows of the inbox made directly, so contact and tag tests do not depend on other areas' APIs. */

import { numberKey } from '../../../shared/numbers'
import type { Harness } from '../../test/harness'

type ContactFields = {
  name?: string
  number?: string | null
  lid?: string | null
  email?: string
  isGroup?: boolean
  whatsappId?: number | null
  profilePicUrl?: string
}

let seq = 0

export function makeContact(h: Harness, companyId: number, fields: ContactFields = {}) {
  seq += 1
  const number = fields.number === undefined ? `55119${String(10_000_000 + seq).slice(-8)}` : fields.number
  const now = h.clock.now()
  return h.deps.sqlite
    .query<{ id: number; uuid: string }, (string | number | null)[]>(
      `INSERT INTO contacts (company_id, uuid, name, number, number_key, lid, email, is_group, whatsapp_id,
                             profile_pic_url, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, uuid`,
    )
    .get(
      companyId,
      crypto.randomUUID(),
      fields.name ?? `Contato ${seq}`,
      number,
      number ? (fields.isGroup ? number : numberKey(number)) : null,
      fields.lid ?? null,
      fields.email ?? '',
      fields.isGroup ? 1 : 0,
      fields.whatsappId ?? null,
      fields.profilePicUrl ?? '',
      now,
      now,
    )!
}

type TicketFields = {
  contactId: number
  whatsappId?: number | null
  queueId?: number | null
  userId?: number | null
  status?: 'open' | 'pending' | 'closed'
  updatedAt?: number
}

export function makeTicket(h: Harness, companyId: number, t: TicketFields) {
  const now = t.updatedAt ?? h.clock.now()
  return h.deps.sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO tickets (company_id, uuid, status, contact_id, whatsapp_id, queue_id, user_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(
      companyId,
      crypto.randomUUID(),
      t.status ?? 'pending',
      t.contactId,
      t.whatsappId ?? null,
      t.queueId ?? null,
      t.userId ?? null,
      now,
      now,
    )!
}

export function makeMessage(
  h: Harness,
  companyId: number,
  ticketId: number,
  contactId: number | null,
  body: string,
) {
  const now = h.clock.now()
  return h.deps.sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO messages (company_id, ticket_id, contact_id, body, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(companyId, ticketId, contactId, body, now, now)!
}

export function makeTag(h: Harness, companyId: number, name: string, color = '#123456', kanban = 0) {
  const now = h.clock.now()
  return h.deps.sqlite
    .query<{ id: number }, (string | number)[]>(
      'INSERT INTO tags (company_id, name, color, kanban, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
    )
    .get(companyId, name, color, kanban, now, now)!
}

export function tagContact(h: Harness, contactId: number, tagId: number) {
  h.deps.sqlite.query('INSERT INTO contact_tags (contact_id, tag_id) VALUES (?, ?)').run(contactId, tagId)
}

export function setTricked(h: Harness, userId: number, isTricked: 'enabled' | 'disabled') {
  h.deps.sqlite.query('UPDATE users SET is_tricked = ? WHERE id = ?').run(isTricked, userId)
}
