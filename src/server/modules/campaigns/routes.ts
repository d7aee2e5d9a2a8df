import { Hono } from 'hono'
import { campaignBody } from '../../../shared/schemas/campaigns'
import { attachmentFields, pageQuery } from '../../../shared/schemas/common'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { formFields, readForm, readOneMedia } from '../../media/upload'
import {
  assertMayAttach,
  attachCampaignMedia,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  removeCampaignMedia,
  restartCampaign,
  resumeCampaign,
  updateCampaign,
} from './service'

const NOT_FOUND = 'ERR_NO_CAMPAIGN_FOUND'

/** `/campaigns`: admins only; the plan flag useCampaigns is checked in front (PLAN_GATED_PATHS). */
export const campaignsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(listCampaigns(ctxOf(c), parse(pageQuery, c.req.query()))))
  .get('/:id', (c) => c.json(getCampaign(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) => c.json(createCampaign(ctxOf(c), await parseBody(c, campaignBody)), 201))
  .put('/:id', async (c) => {
    const id = pathId(c, NOT_FOUND)
    return c.json(updateCampaign(ctxOf(c), id, await parseBody(c, campaignBody)))
  })
  .delete('/:id', (c) => {
    deleteCampaign(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Campaign deleted' })
  })
  .post('/:id/cancel', (c) => c.json(cancelCampaign(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/:id/restart', (c) => c.json(restartCampaign(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/:id/resume', (c) => c.json(resumeCampaign(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/:id/media-upload', async (c) => {
    const id = pathId(c, NOT_FOUND)
    const ctx = ctxOf(c)
    assertMayAttach(ctx, id)
    const form = await readForm(c)
    parse(attachmentFields, formFields(form))
    return c.json(attachCampaignMedia(ctx, id, await readOneMedia(form)))
  })
  .delete('/:id/media-upload', (c) => c.json(removeCampaignMedia(ctxOf(c), pathId(c, NOT_FOUND))))
