import type { Database } from 'bun:sqlite'
import type { TicketRow } from '../../db/schema'
import { stmt } from '../../db/statements'

/** `SELECT` list giving a TicketRow's fields under their Drizzle names (booleans still 0/1: see `toTicketRow`). */
export const TICKET_ROW_COLUMNS = `id, company_id AS companyId, uuid, status, contact_id AS contactId,
  whatsapp_id AS whatsappId, queue_id AS queueId, user_id AS userId, channel, is_group AS isGroup, chatbot,
  last_message AS lastMessage, unread_messages AS unreadMessages, imported, closed_at AS closedAt,
  created_at AS createdAt, updated_at AS updatedAt`

type RawTicketRow = Omit<TicketRow, 'isGroup' | 'chatbot' | 'imported'> & {
  isGroup: number
  chatbot: number
  imported: number
}

export function toTicketRow(raw: RawTicketRow): TicketRow {
  return { ...raw, isGroup: !!raw.isGroup, chatbot: !!raw.chatbot, imported: !!raw.imported }
}

/** The ticket in this company, or undefined (another company's id is not found). */
export function ticketRowInCompany(sqlite: Database, companyId: number, id: number): TicketRow | undefined {
  const raw = stmt<RawTicketRow, [number, number]>(
    sqlite,
    `SELECT ${TICKET_ROW_COLUMNS} FROM tickets WHERE id = ? AND company_id = ?`,
  ).get(id, companyId)
  return raw ? toTicketRow(raw) : undefined
}

export function ticketRowByUuid(sqlite: Database, companyId: number, uuid: string): TicketRow | undefined {
  const raw = stmt<RawTicketRow, [string, number]>(
    sqlite,
    `SELECT ${TICKET_ROW_COLUMNS} FROM tickets WHERE uuid = ? AND company_id = ?`,
  ).get(uuid, companyId)
  return raw ? toTicketRow(raw) : undefined
}

/** The open-or-pending ticket of a contact on a connection (at most one: the partial unique index). */
export function activeTicketRow(
  sqlite: Database,
  companyId: number,
  contactId: number,
  whatsappId: number,
): TicketRow | undefined {
  const raw = stmt<RawTicketRow, [number, number, number]>(
    sqlite,
    `SELECT ${TICKET_ROW_COLUMNS} FROM tickets
        WHERE company_id = ? AND contact_id = ? AND whatsapp_id = ? AND status IN ('open', 'pending')`,
  ).get(companyId, contactId, whatsappId)
  return raw ? toTicketRow(raw) : undefined
}

export type NewTicket = {
  companyId: number
  contactId: number
  whatsappId: number | null
  queueId: number | null
  userId: number | null
  status: 'open' | 'pending'
  isGroup: boolean
  now: number
}

/** Inserts a ticket and answers its row. The partial unique index refuses a second active one. */
export function insertTicket(sqlite: Database, t: NewTicket): TicketRow {
  const raw = stmt<RawTicketRow, (string | number | null)[]>(
    sqlite,
    `INSERT INTO tickets (company_id, uuid, status, contact_id, whatsapp_id, queue_id, user_id, is_group,
                            created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       RETURNING ${TICKET_ROW_COLUMNS}`,
  ).get(
    t.companyId,
    crypto.randomUUID(),
    t.status,
    t.contactId,
    t.whatsappId,
    t.queueId,
    t.userId,
    t.isGroup ? 1 : 0,
    t.now,
    t.now,
  )
  if (!raw) throw new Error('ticket insert returned nothing')
  return toTicketRow(raw)
}
