import { Hono } from 'hono'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { pathId } from '../../http/validate'
import { addTicketTag, removeTicketTags } from './service'

/** `/ticket-tags`: both answer the ticket as it is afterwards (numbers masked for the reader). */
export const ticketTagsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .put('/:ticketId/:tagId', (c) =>
    c.json(
      addTicketTag(
        ctxOf(c),
        pathId(c, 'ERR_NO_TICKET_FOUND', 'ticketId'),
        pathId(c, 'ERR_NO_TAG_FOUND', 'tagId'),
      ),
    ),
  )
  .delete('/:ticketId', (c) =>
    c.json(removeTicketTags(ctxOf(c), pathId(c, 'ERR_NO_TICKET_FOUND', 'ticketId'))),
  )
