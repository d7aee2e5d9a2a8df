import { Hono } from 'hono'
import {
  createConnectionBody,
  startSessionBody,
  updateConnectionBody,
} from '../../../shared/schemas/whatsapp'
import { ctxOf, requireAuth, requirePermission } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { jsonBody, parse, parseBody, pathId } from '../../http/validate'
import {
  createConnection,
  deleteConnection,
  disconnectSession,
  getConnection,
  listConnections,
  renewConnectionToken,
  renewQrCode,
  restartCompanySessions,
  startSession,
  updateConnection,
} from './service'

/** `/whatsapp`: the connection records. */
export const connectionsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listConnections(ctxOf(c))))
  .get('/:id', (c) => c.json(getConnection(ctxOf(c), pathId(c, 'ERR_NO_WAPP_FOUND'))))
  .post('/', requirePermission('connections-page:addConnection'), async (c) =>
    c.json(await createConnection(ctxOf(c), await parseBody(c, createConnectionBody)), 201),
  )
  .post('/:id/token', requirePermission('connections-page:editOrDeleteConnection'), (c) =>
    c.json(renewConnectionToken(ctxOf(c), pathId(c, 'ERR_NO_WAPP_FOUND'))),
  )
  .put('/:id', requirePermission('connections-page:editOrDeleteConnection'), async (c) =>
    c.json(
      updateConnection(ctxOf(c), pathId(c, 'ERR_NO_WAPP_FOUND'), await parseBody(c, updateConnectionBody)),
    ),
  )
  .delete('/:id', requirePermission('connections-page:editOrDeleteConnection'), async (c) => {
    await deleteConnection(ctxOf(c), pathId(c, 'ERR_NO_WAPP_FOUND'))
    return c.json({ message: 'Connection deleted' })
  })

/** `/whatsappsession/{id}`: start, new QR code, disconnect. Results also arrive live. */
export const sessionRoutes = new Hono<AppEnv>()
  .use(requireAuth, requirePermission('connections-page:actionButtons'))
  .post('/:id', async (c) => {
    const raw = c.req.header('content-type')?.includes('json') ? await jsonBody(c) : {}
    const { phone } = parse(startSessionBody, raw ?? {})
    return c.json(await startSession(ctxOf(c), pathId(c, 'ERR_NO_WAPP_FOUND'), { phone }))
  })
  .put('/:id', async (c) => c.json(await renewQrCode(ctxOf(c), pathId(c, 'ERR_NO_WAPP_FOUND'))))
  .delete('/:id', async (c) => c.json(await disconnectSession(ctxOf(c), pathId(c, 'ERR_NO_WAPP_FOUND'))))

/** `/whatsapp-restart/`: restarts the company's sessions. */
export const restartRoutes = new Hono<AppEnv>()
  .use(requireAuth, requirePermission('connections-page:actionButtons'))
  .post('/', async (c) => c.json(await restartCompanySessions(ctxOf(c))))
