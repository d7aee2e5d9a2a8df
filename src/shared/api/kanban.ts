/** The Kanban board. */
import type { TagDto, TagRef } from './tags'
import type { TicketDto } from './tickets'

/** `GET /tags/kanban`: the company's lanes (tags with kanban 1), by name. */
export type KanbanLanesDto = { lista: TagDto[] }

/** `GET /ticket/kanban`: open and pending tickets for the board, newest first (paged; `hasMore` is ours). */
export type KanbanTicketsDto = { tickets: TicketDto[]; hasMore: boolean }

/** `PUT /ticket/kanban/{ticketId}` (ours): the ticket afterwards, the lane tags it lost and the one it gained. */
export type KanbanMoveDto = { ticket: TicketDto; removed: TagRef[]; added: TagRef | null }
