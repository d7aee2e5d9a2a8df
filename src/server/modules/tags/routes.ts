import { type } from 'arktype'
import { Hono } from 'hono'
import type { KanbanLanesDto } from '../../../shared/api'
import { listTagsQuery, tagBody } from '../../../shared/schemas/tags'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { createTag, deleteTag, getTag, listAllTags, listTags, updateTag } from './service'

const listAllQuery = type({ '+': 'delete', 'kanban?': type("'0' | '1'").pipe((s) => Number(s) as 0 | 1) })

/**
 * `/tags`. `GET /tags` and `GET /tags/` are one route (strict: false): both answer the page `{ tags, count,
 * hasMore }`; `GET /tags/list` answers the plain list; `GET /tags/kanban` the lanes as `{ lista }`.
 */
export const tagsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listTags(ctxOf(c), parse(listTagsQuery, c.req.query()))))
  .get('/list', (c) => c.json(listAllTags(ctxOf(c), parse(listAllQuery, c.req.query()).kanban)))
  // The board's lanes (spec 2: `lista`); gated by useKanban (PLAN_GATED_PATHS). Before `/:id`.
  .get('/kanban', (c) => c.json({ lista: listAllTags(ctxOf(c), 1) } satisfies KanbanLanesDto))
  .get('/:id', (c) => c.json(getTag(ctxOf(c), pathId(c, 'ERR_NO_TAG_FOUND'))))
  .post('/', async (c) => c.json(createTag(ctxOf(c), await parseBody(c, tagBody)), 201))
  .put('/:id', async (c) =>
    c.json(updateTag(ctxOf(c), pathId(c, 'ERR_NO_TAG_FOUND'), await parseBody(c, tagBody))),
  )
  .delete('/:id', (c) => {
    deleteTag(ctxOf(c), pathId(c, 'ERR_NO_TAG_FOUND'))
    return c.json({ message: 'Tag deleted' })
  })
