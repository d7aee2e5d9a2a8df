import { Hono } from 'hono'
import { listSchedulesQuery, scheduleBody } from '../../../shared/schemas/scheduled-messages'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { readForm, readOneMedia } from '../../media/upload'
import {
  createSchedule,
  deleteSchedule,
  deleteScheduleMedia,
  getSchedule,
  listSchedules,
  retrySchedule,
  updateSchedule,
  uploadScheduleMedia,
} from './service'

const NOT_FOUND = 'ERR_NO_SCHEDULE_FOUND'

/**
 * `/schedules` (plan flag useSchedules, gated in app.ts). `GET /schedules` and `GET /schedules/` are one route
 * (strict: false). `POST /schedules/{id}/retry` is our addition: a failed schedule goes again.
 */
export const schedulesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listSchedules(ctxOf(c), parse(listSchedulesQuery, c.req.query()))))
  .get('/:id', (c) => c.json(getSchedule(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) => c.json(createSchedule(ctxOf(c), await parseBody(c, scheduleBody)), 201))
  .put('/:id', async (c) => {
    const id = pathId(c, NOT_FOUND)
    return c.json(updateSchedule(ctxOf(c), id, await parseBody(c, scheduleBody)))
  })
  .delete('/:id', (c) => {
    deleteSchedule(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Schedule deleted' })
  })
  .post('/:id/retry', (c) => c.json(retrySchedule(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/:id/media-upload', async (c) => {
    const id = pathId(c, NOT_FOUND)
    const image = await readOneMedia(await readForm(c), 'image (png, jpg or jpeg)')
    return c.json(uploadScheduleMedia(ctxOf(c), id, image))
  })
  .delete('/:id/media-upload', (c) => c.json(deleteScheduleMedia(ctxOf(c), pathId(c, NOT_FOUND))))
