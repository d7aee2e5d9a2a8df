import { Hono } from 'hono'
import { platformSettingBody } from '../../../shared/schemas/platform-settings'
import { ctxOf, requireAuth, requireSuper } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parseBody } from '../../http/validate'
import { listPlatformSettings, updatePlatformSetting } from './service'

/** `/platform-settings`: the platform's mail, Pix receiver and webhook secret; the super user only. */
export const platformSettingsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireSuper)
  .get('/', (c) => c.json(listPlatformSettings(ctxOf(c))))
  .put('/:key', async (c) => {
    const { value } = await parseBody(c, platformSettingBody)
    return c.json(updatePlatformSetting(ctxOf(c), c.req.param('key'), value))
  })
