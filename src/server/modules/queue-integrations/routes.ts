import { Hono } from 'hono'
import {
  listQueueIntegrationsQuery,
  queueIntegrationBody,
  testSessionBody,
} from '../../../shared/schemas/queue-integrations'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import {
  createQueueIntegration,
  deleteQueueIntegration,
  getQueueIntegration,
  listQueueIntegrations,
  testSession,
  updateQueueIntegration,
} from './service'

const NOT_FOUND = 'ERR_NO_QUEUE_INTEGRATION_FOUND'

/**
 * `/queueIntegration` (spec 3), for admins of a company whose plan has useIntegrations (the plan gate is
 * app-wide, PLAN_GATED_PATHS): `GET /` the page `{ queueIntegrations, count, hasMore }`, `GET|PUT|DELETE /{id}`,
 * `POST /`, and `POST /testSession` (a Dialogflow detectIntent with 'Olá').
 */
export const queueIntegrationsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(listQueueIntegrations(ctxOf(c), parse(listQueueIntegrationsQuery, c.req.query()))))
  .post('/testSession', async (c) => c.json(await testSession(ctxOf(c), await parseBody(c, testSessionBody))))
  .get('/:id', (c) => c.json(getQueueIntegration(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) =>
    c.json(createQueueIntegration(ctxOf(c), await parseBody(c, queueIntegrationBody)), 201),
  )
  .put('/:id', async (c) =>
    c.json(updateQueueIntegration(ctxOf(c), pathId(c, NOT_FOUND), await parseBody(c, queueIntegrationBody))),
  )
  .delete('/:id', (c) => {
    deleteQueueIntegration(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Queue integration deleted' })
  })
