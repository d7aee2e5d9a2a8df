import { Hono } from 'hono'
import { AppError } from '../../../shared/errors'
import {
  createTicketBody,
  type ListTicketsQuery,
  listTicketsQuery,
  ticketCountsQuery,
  updateTicketBody,
} from '../../../shared/schemas/tickets'
import { ctxOf, requireAuth, requirePermission } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { listTickets, ticketCounts } from './list'
import { createTicket, deleteTicket, getTicket, getTicketByUuid, updateTicket } from './service'
import type { TicketNotices, TicketTransitionListener } from './transitions'

/** The query string without empty values: `queueIds=` or `date=` from a form means "no filter". */
function queryOf(c: { req: { query(): Record<string, string> } }) {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(c.req.query())) if (value !== '') out[key] = value
  return out
}

/**
 * The list's query, parsed, by its query string: parsing (the JSON id lists included) is a pure function of that
 * text, and an inbox polls the same few lists over and over. Bounded; a refused query is not kept; what is kept
 * is frozen, since every request with that text shares it.
 */
const listQueries = new Map<string, ListTicketsQuery>()
const MAX_LIST_QUERIES = 256

function listQueryOf(c: { req: { url: string; query(): Record<string, string> } }): ListTicketsQuery {
  const url = c.req.url
  const at = url.indexOf('?')
  const key = at < 0 ? '' : url.slice(at + 1)
  let q = listQueries.get(key)
  if (!q) {
    q = parse(listTicketsQuery, queryOf(c))
    for (const list of [q.queueIds, q.users, q.tags]) if (list) Object.freeze(list)
    Object.freeze(q)
    if (listQueries.size >= MAX_LIST_QUERIES) listQueries.clear()
    listQueries.set(key, q)
  }
  return q
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `transitions` and `notices`: the other areas' part in a change a person makes (tickets/transitions.ts). */
export const ticketsRoutes = (transitions: readonly TicketTransitionListener[], notices: TicketNotices) =>
  new Hono<AppEnv>()
    .use(requireAuth)
    .get('/', (c) => c.json(listTickets(ctxOf(c), listQueryOf(c))))
    .get('/counts', (c) => c.json(ticketCounts(ctxOf(c), parse(ticketCountsQuery, queryOf(c)))))
    .get('/u/:uuid', (c) => {
      const uuid = c.req.param('uuid')
      if (!UUID.test(uuid)) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
      return c.json(getTicketByUuid(ctxOf(c), uuid.toLowerCase()))
    })
    .get('/:id', (c) => c.json(getTicket(ctxOf(c), pathId(c, 'ERR_NO_TICKET_FOUND'))))
    .post('/', async (c) => {
      const { ticket, created } = createTicket(ctxOf(c), await parseBody(c, createTicketBody))
      return c.json(ticket, created ? 201 : 200)
    })
    .put('/:id', async (c) => {
      const id = pathId(c, 'ERR_NO_TICKET_FOUND')
      return c.json(updateTicket(ctxOf(c), id, await parseBody(c, updateTicketBody), transitions, notices))
    })
    .delete('/:id', requirePermission('ticket-options:deleteTicket'), (c) => {
      deleteTicket(ctxOf(c), pathId(c, 'ERR_NO_TICKET_FOUND'))
      return c.json({ message: 'Ticket deleted' })
    })
