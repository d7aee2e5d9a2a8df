import { Hono } from 'hono'
import {
  createQueueOptionBody,
  queueOptionsQuery,
  reorderQueueOptionsBody,
  updateQueueOptionBody,
} from '../../../shared/schemas/queue-options'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { readForm, readOneMedia } from '../../media/upload'
import {
  clearQueueOptionMedia,
  createQueueOption,
  deleteQueueOption,
  getQueueOption,
  listQueueOptions,
  reorderQueueOptions,
  setQueueOptionMedia,
  updateQueueOption,
} from './service'

const optionId = (c: Parameters<typeof pathId>[0]) => pathId(c, 'ERR_NO_QUEUE_OPTION_FOUND')

/** `/queue-options`: a queue's chatbot menu. Queues are configured by admins only. */
export const queueOptionsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(listQueueOptions(ctxOf(c), parse(queueOptionsQuery, c.req.query()))))
  .post('/', async (c) => c.json(createQueueOption(ctxOf(c), await parseBody(c, createQueueOptionBody)), 201))
  .post('/reorder', async (c) =>
    c.json(reorderQueueOptions(ctxOf(c), await parseBody(c, reorderQueueOptionsBody))),
  )
  .get('/:id', (c) => c.json(getQueueOption(ctxOf(c), optionId(c))))
  .put('/:id', async (c) =>
    c.json(updateQueueOption(ctxOf(c), optionId(c), await parseBody(c, updateQueueOptionBody))),
  )
  .delete('/:id', (c) =>
    c.json({ message: 'Queue option deleted', ...deleteQueueOption(ctxOf(c), optionId(c)) }),
  )
  .post('/:id/media-upload', async (c) => {
    const id = optionId(c)
    const ctx = ctxOf(c)
    return c.json(setQueueOptionMedia(ctx, id, await readOneMedia(await readForm(c))))
  })
  .delete('/:id/media-upload', (c) => c.json(clearQueueOptionMedia(ctxOf(c), optionId(c))))
