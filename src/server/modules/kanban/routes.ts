import { Hono } from 'hono'
import { kanbanMoveBody, kanbanTicketsQuery } from '../../../shared/schemas/kanban'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { listKanbanTickets, moveKanbanCard } from './service'

/** The query string without empty values: `queueIds=` means "no filter". */
function queryOf(c: { req: { query(): Record<string, string> } }) {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(c.req.query())) if (value !== '') out[key] = value
  return out
}

/**
 * `/ticket` (the spec's singular path for the board): `GET /ticket/kanban` and our `PUT /ticket/kanban/{ticketId}`.
 * The plan flag useKanban gates both (PLAN_GATED_PATHS); `GET /tags/kanban` lives with the tags.
 */
export const kanbanRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/kanban', (c) => c.json(listKanbanTickets(ctxOf(c), parse(kanbanTicketsQuery, queryOf(c)))))
  .put('/kanban/:ticketId', async (c) => {
    const ticketId = pathId(c, 'ERR_NO_TICKET_FOUND', 'ticketId')
    return c.json(moveKanbanCard(ctxOf(c), ticketId, await parseBody(c, kanbanMoveBody)))
  })
