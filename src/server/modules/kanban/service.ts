/**
 * The Kanban board (spec 2): lanes are the company's tags with kanban 1; a card is an open or pending ticket.
 *
 * - `GET /ticket/kanban` lists the tickets under the ticket lists' own rule (tickets/list.ts `scopeFilter`): what
 *   the user may see (access.ts), pending tickets of everyone, open tickets only the user's own unless show-all is
 *   on and allowed, and with `queueIds` only those queues plus tickets without a queue. Newest first, paged
 *   (KANBAN_PAGE_SIZE a page, `hasMore`), so a company with thousands of open tickets never gets them at once.
 * - Moving a card (`PUT /ticket/kanban/{ticketId}`, ours) replaces the ticket's lane tags with the target lane's
 *   tag (or with none: 'Em aberto') in one transaction. Ordinary tags (kanban 0) are labels, not positions, and
 *   stay: the spec's "removes the ticket's current tag" is read as its current lane. The board places a ticket
 *   without a lane tag in 'Em aberto'. Whoever may see the ticket may move it (as with `/ticket-tags`).
 */

import type { Database } from 'bun:sqlite'
import type { KanbanMoveDto, KanbanTicketsDto, TagRef } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { KanbanMoveInput, KanbanTicketsQuery } from '../../../shared/schemas/kanban'
import { numberVisibility } from '../../access/mask'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import { pageOf, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { getTagRowInCompany } from '../tags/service'
import { actorScope, assertCanSeeTicket } from '../tickets/access'
import { BY_IDS_SQL, loadTicketDtos, maskTicket, type TicketJoinRow, toTicketDtos } from '../tickets/dto'
import { type Filter, scopeFilter, TICKETS } from '../tickets/list'
import { publishTicket } from '../tickets/live'
import { ticketRowInCompany } from '../tickets/rows'

export const KANBAN_PAGE_SIZE = 100

type Param = string | number

/** `GET /ticket/kanban`: a page of the board's tickets (open and pending), newest first, with their tags. */
export function listKanbanTickets(ctx: Ctx, q: KanbanTicketsQuery): KanbanTicketsDto {
  const scope = actorScope(ctx)
  const sqlite = ctx.sqlite
  const at = pageWindow(q.pageNumber, KANBAN_PAGE_SIZE)
  const filter: Filter = { where: [], params: [] }
  // Pending: every one the user may see; open: the user's own unless show-all (as the two inbox lists).
  const parts: string[] = []
  for (const status of ['open', 'pending'] as const) {
    const part: Filter = { where: [], params: [] }
    scopeFilter(scope, { status, showAll: q.showAll, queueIds: q.queueIds }, TICKETS, part)
    parts.push(`(${part.where.join(' AND ')})`)
    filter.params.push(...part.params)
  }
  filter.where.push(`(${parts.join(' OR ')})`)
  const ids = stmt<[number], Param[]>(
    sqlite,
    `SELECT t.id FROM tickets t WHERE ${filter.where.join(' AND ')} ORDER BY t.updated_at DESC, t.id DESC
      LIMIT ? OFFSET ?`,
  )
    .values(...filter.params, at.limit, at.offset)
    .map((r) => r[0] as number)
  const page = pageOf(ids, at)
  const rows = rowsInOrder(sqlite, page.rows)
  return { tickets: toTicketDtos(sqlite, rows, scope.isTricked), hasMore: page.hasMore }
}

function rowsInOrder(sqlite: Database, ids: number[]): TicketJoinRow[] {
  if (ids.length === 0) return []
  const byId = new Map(
    stmt<TicketJoinRow, [string]>(sqlite, BY_IDS_SQL)
      .all(JSON.stringify(ids))
      .map((r) => [r.id, r]),
  )
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** The lane tags (kanban 1) a ticket carries, by name. */
function laneTagsOf(sqlite: Database, ticketId: number): TagRef[] {
  return sqlite
    .query<TagRef, [number]>(
      `SELECT g.id, g.name, g.color FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id
        WHERE tt.ticket_id = ? AND g.kanban = 1 ORDER BY g.name, g.id`,
    )
    .all(ticketId)
}

/**
 * `PUT /ticket/kanban/{ticketId}`: the card moves to the lane `tagId` (null: 'Em aberto'). One transaction: the
 * ticket's other lane tags go, the target's is added; the ticket is published when it changed. A tag of another
 * company is not found; an ordinary tag (kanban 0) is not a lane (400).
 */
export function moveKanbanCard(ctx: Ctx, ticketId: number, input: KanbanMoveInput): KanbanMoveDto {
  const { companyId } = ctx.actor
  const scope = actorScope(ctx)
  return transact(ctx, (sqlite, events) => {
    const ticket = ticketRowInCompany(sqlite, companyId, ticketId)
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
    assertCanSeeTicket(scope, ticket)
    let target: TagRef | null = null
    if (input.tagId != null) {
      const tag = getTagRowInCompany(sqlite, companyId, input.tagId)
      if (tag.kanban !== 1) throw fieldError('tagId', 'The tag is not a Kanban lane')
      target = { id: tag.id, name: tag.name, color: tag.color }
    }
    const removed = laneTagsOf(sqlite, ticketId).filter((t) => t.id !== target?.id)
    for (const tag of removed)
      sqlite.query('DELETE FROM ticket_tags WHERE ticket_id = ? AND tag_id = ?').run(ticketId, tag.id)
    const added =
      target &&
      sqlite
        .query('INSERT OR IGNORE INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)')
        .run(ticketId, target.id).changes > 0
        ? target
        : null
    const [dto] = loadTicketDtos(sqlite, [ticketId])
    if (!dto) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
    if (removed.length > 0 || added) publishTicket(events, dto)
    return { ticket: maskTicket(dto, numberVisibility(ctx)), removed, added }
  })
}
