import { Hono } from 'hono'
import { settingBody } from '../../../shared/schemas/settings'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parseBody } from '../../http/validate'
import { listSettings, updateSetting } from './service'

export const settingsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listSettings(ctxOf(c))))
  .put('/:key', requireAdmin, async (c) => {
    const { value } = await parseBody(c, settingBody)
    return c.json(updateSetting(ctxOf(c), c.req.param('key'), value))
  })
