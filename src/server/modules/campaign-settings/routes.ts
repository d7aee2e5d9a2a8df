import { Hono } from 'hono'
import { campaignSettingsBody } from '../../../shared/schemas/campaign-settings'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parseBody } from '../../http/validate'
import { getCampaignSettings, saveCampaignSettings } from './service'

/**
 * `/campaign-settings` (admins; plan flag useCampaigns, gated in app.ts by PLAN_GATED_PATHS): `GET /` answers
 * `[{ key, value }]`, `POST /` `{ settings }` saves and answers the same.
 */
export const campaignSettingsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(getCampaignSettings(ctxOf(c))))
  .post('/', async (c) => c.json(saveCampaignSettings(ctxOf(c), await parseBody(c, campaignSettingsBody))))
