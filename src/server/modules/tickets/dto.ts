/**
 * TicketDto from raw rows: the lists, the live events and every ticket answer build it here, from one SELECT
 * with the contact joined, the company's directory (db/directory.ts: the names of its users, queues and
 * connections, kept in memory) and, for the tickets that have tags, one batched query for them. Timestamps stay
 * numbers until the DTO; numbers (and names that are numbers) are unmasked here and masked per reader by
 * `maskTicket`.
 */

import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { TagRef, TicketDto, TicketStatusName } from '../../../shared/api'
import { maskContact, maskName, maskNumber, type NumberVisibility } from '../../access/mask'
import { isoString } from '../../clock'
import { type Connection, sqliteOf } from '../../db/connection'
import { companyDirectory, type Directory } from '../../db/directory'
import { stmt } from '../../db/statements'
import { inIds } from './sql'

/** The columns of a ticket row with its contact; `t` tickets, `c` contacts. */
export const TICKET_COLUMNS = `t.id, t.uuid, t.status, t.contact_id AS contactId, t.user_id AS userId,
  t.queue_id AS queueId, t.whatsapp_id AS whatsappId, t.channel, t.is_group AS isGroup, t.chatbot,
  t.last_message AS lastMessage, t.unread_messages AS unreadMessages, t.tag_count AS tagCount,
  t.company_id AS companyId, t.created_at AS createdAt, t.updated_at AS updatedAt,
  c.name AS cName, c.number AS cNumber, c.profile_pic_url AS cPic, c.email AS cEmail, c.is_group AS cGroup`

/** A LEFT JOIN keeps `tickets` the outer loop, so a list scans its index in order and stops at the page's end. */
export const TICKET_JOINS = 'LEFT JOIN contacts c ON c.id = t.contact_id'

export type TicketJoinRow = {
  id: number
  uuid: string
  status: TicketStatusName
  contactId: number
  userId: number | null
  queueId: number | null
  whatsappId: number | null
  channel: string
  isGroup: number
  chatbot: number
  lastMessage: string
  unreadMessages: number
  tagCount: number
  companyId: number
  createdAt: number
  updatedAt: number
  cName: string | null
  cNumber: string | null
  cPic: string | null
  cEmail: string | null
  cGroup: number | null
}

/**
 * A join row a list read without the columns its WHERE already fixes (see `PageKnown`): the company always, the
 * status when the list asks one. Each text column left out saves bun:sqlite a string per row.
 */
export type TicketPageRow = Omit<TicketJoinRow, 'status' | 'companyId'> & {
  status?: TicketStatusName
  companyId?: number
}

/** What every row of a list shares, so its query need not read it: the company, and the status asked for. */
export type PageKnown = { companyId: number; status?: TicketStatusName }

export function toTicketDto(
  r: TicketPageRow,
  directory: Directory,
  tags: TagRef[],
  isTricked: NumberVisibility = 'enabled',
  known?: PageKnown,
): TicketDto {
  const number = r.cNumber ?? ''
  const userName = r.userId == null ? undefined : directory.users.get(r.userId)
  const queue = r.queueId == null ? undefined : directory.queues.get(r.queueId)
  const whatsappName = r.whatsappId == null ? undefined : directory.whatsapps.get(r.whatsappId)
  return {
    id: r.id,
    uuid: r.uuid,
    status: (known?.status ?? r.status) as TicketStatusName,
    contactId: r.contactId,
    contact: {
      id: r.contactId,
      name: isTricked === 'enabled' ? (r.cName ?? '') : maskName(r.cName ?? '', number, isTricked),
      number: isTricked === 'enabled' ? number : maskNumber(number, isTricked),
      profilePicUrl: r.cPic ?? '',
      email: r.cEmail ?? '',
      isGroup: !!r.cGroup,
    },
    userId: r.userId,
    user: userName === undefined ? null : { id: r.userId as number, name: userName },
    queueId: r.queueId,
    queue: queue === undefined ? null : { id: r.queueId as number, name: queue.name, color: queue.color },
    whatsappId: r.whatsappId,
    whatsapp: whatsappName === undefined ? null : { id: r.whatsappId as number, name: whatsappName },
    channel: r.channel,
    isGroup: !!r.isGroup,
    chatbot: !!r.chatbot,
    lastMessage: r.lastMessage,
    unreadMessages: r.unreadMessages,
    tags,
    companyId: (known ? known.companyId : r.companyId) as number,
    createdAt: isoString(r.createdAt),
    updatedAt: isoString(r.updatedAt),
  }
}

type TagRow = { ticketId: number; id: number; name: string; color: string }

/** The tags of many tickets in one query. */
export function tagsOfTickets(sqlite: Database, ids: number[]): Map<number, TagRef[]> {
  const byTicket = new Map<number, TagRef[]>()
  if (ids.length === 0) return byTicket
  const params: SQLQueryBindings[] = []
  const sql = `SELECT tt.ticket_id AS ticketId, g.id, g.name, g.color
    FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id
   WHERE ${inIds('tt.ticket_id', ids, params)}
   ORDER BY g.name`
  for (const row of stmt<TagRow, SQLQueryBindings[]>(sqlite, sql).all(...params)) {
    const list = byTicket.get(row.ticketId)
    const tag = { id: row.id, name: row.name, color: row.color }
    if (list) list.push(tag)
    else byTicket.set(row.ticketId, [tag])
  }
  return byTicket
}

/**
 * DTOs of rows with their tags (one query, for the rows whose tag_count says they have some); numbers masked unless `isTricked` is 'enabled'. Rows read without
 * their company (or status) take it from `known`.
 */
export function toTicketDtos(
  sqlite: Database,
  rows: TicketPageRow[],
  isTricked: NumberVisibility = 'enabled',
  known?: PageKnown,
): TicketDto[] {
  const tagged: number[] = []
  for (const r of rows) if (r.tagCount > 0) tagged.push(r.id)
  const tags = tagged.length ? tagsOfTickets(sqlite, tagged) : null
  let directory: Directory | undefined
  let directoryOf = -1
  return rows.map((r) => {
    const companyId = (known ? known.companyId : r.companyId) as number
    if (companyId !== directoryOf) {
      directory = companyDirectory(sqlite, companyId)
      directoryOf = companyId
    }
    return toTicketDto(r, directory as Directory, tags?.get(r.id) ?? [], isTricked, known)
  })
}

export const BY_IDS_SQL = `SELECT ${TICKET_COLUMNS} FROM tickets t ${TICKET_JOINS}
 WHERE t.id IN (SELECT value FROM json_each(?))`

/**
 * Tickets as DTOs, in the order of `ids` (missing ids are left out), numbers unmasked: one query for the
 * tickets with their joins and one for their tags, whatever the batch size. Works inside a transaction.
 */
export function loadTicketDtos(db: Connection, ids: number[]): TicketDto[] {
  if (ids.length === 0) return []
  const sqlite = sqliteOf(db)
  const rows = stmt<TicketJoinRow, [string]>(sqlite, BY_IDS_SQL).all(JSON.stringify(ids))
  const byId = new Map(toTicketDtos(sqlite, rows).map((t) => [t.id, t]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** The ticket as a reader who may not see numbers in full gets it. */
export function maskTicket(ticket: TicketDto, isTricked: NumberVisibility): TicketDto {
  if (isTricked === 'enabled' || !ticket.contact.number) return ticket
  return { ...ticket, contact: maskContact(ticket.contact, isTricked) }
}

type SingleTicketRow = Omit<TicketJoinRow, 'cName' | 'cNumber' | 'cPic' | 'cEmail' | 'cGroup'>

const TICKET_SQL = `SELECT t.id, t.uuid, t.status, t.contact_id AS contactId, t.user_id AS userId,
  t.queue_id AS queueId, t.whatsapp_id AS whatsappId, t.channel, t.is_group AS isGroup, t.chatbot,
  t.last_message AS lastMessage, t.unread_messages AS unreadMessages, t.company_id AS companyId,
  t.created_at AS createdAt, t.updated_at AS updatedAt, t.tag_count AS tagCount
 FROM tickets t WHERE t.id = ?`

type ContactRow = {
  name: string | null
  number: string | null
  pic: string | null
  email: string | null
  isGroup: number | null
}

const CONTACT_SQL = `SELECT name, number, profile_pic_url AS pic, email, is_group AS isGroup
  FROM contacts WHERE id = ?`

/**
 * One ticket as `loadTicketDtos(sqlite, [id])[0]` gives it (numbers unmasked), or undefined: the same object,
 * read more cheaply (two primary-key lookups; a join costs more than they do here). The conversation reads it on
 * every page.
 */
export function loadTicketDto(sqlite: Database, id: number): TicketDto | undefined {
  const r = stmt<SingleTicketRow, [number]>(sqlite, TICKET_SQL).get(id)
  if (!r) return undefined
  const c = stmt<ContactRow, [number]>(sqlite, CONTACT_SQL).get(r.contactId)
  const row: TicketJoinRow = {
    ...r,
    cName: c?.name ?? null,
    cNumber: c?.number ?? null,
    cPic: c?.pic ?? null,
    cEmail: c?.email ?? null,
    cGroup: c?.isGroup ?? null,
  }
  const tags = r.tagCount > 0 ? (tagsOfTickets(sqlite, [r.id]).get(r.id) ?? []) : []
  return toTicketDto(row, companyDirectory(sqlite, r.companyId), tags)
}
