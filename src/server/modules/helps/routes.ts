import { Hono } from 'hono'
import { helpBody, listHelpsQuery } from '../../../shared/schemas/helps'
import { ctxOf, requireAuth, requireSuper } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { createHelp, deleteHelp, listAllHelps, listHelps, updateHelp } from './service'

const NOT_FOUND = 'ERR_NO_HELP_FOUND'

/**
 * `/helps`: every signed-in user reads (`GET /` the page `{ records, count, hasMore }`, `GET /list` all by
 * title); only super users write (403 `ERR_NO_PERMISSION` otherwise).
 */
export const helpsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listHelps(ctxOf(c), parse(listHelpsQuery, c.req.query()))))
  .get('/list', (c) => c.json(listAllHelps(ctxOf(c))))
  .post('/', requireSuper, async (c) => c.json(createHelp(ctxOf(c), await parseBody(c, helpBody)), 201))
  .put('/:id', requireSuper, async (c) =>
    c.json(updateHelp(ctxOf(c), pathId(c, NOT_FOUND), await parseBody(c, helpBody))),
  )
  .delete('/:id', requireSuper, (c) => {
    deleteHelp(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Help video deleted' })
  })
