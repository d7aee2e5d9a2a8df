import { Hono } from 'hono'
import { queueBody } from '../../../shared/schemas/queues'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parseBody, pathId } from '../../http/validate'
import { createQueue, deleteQueue, getQueue, listQueues, updateQueue } from './service'

export const queuesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listQueues(ctxOf(c))))
  .get('/:id', (c) => c.json(getQueue(ctxOf(c), pathId(c, 'ERR_NO_QUEUE_FOUND'))))
  .post('/', requireAdmin, async (c) => c.json(createQueue(ctxOf(c), await parseBody(c, queueBody)), 201))
  .put('/:id', requireAdmin, async (c) =>
    c.json(updateQueue(ctxOf(c), pathId(c, 'ERR_NO_QUEUE_FOUND'), await parseBody(c, queueBody))),
  )
  .delete('/:id', requireAdmin, (c) => {
    deleteQueue(ctxOf(c), pathId(c, 'ERR_NO_QUEUE_FOUND'))
    return c.json({ message: 'Queue deleted' })
  })
