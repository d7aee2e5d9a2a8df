import { Hono } from 'hono'
import type { MessageDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import type { Ctx } from '../../context'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { pathId } from '../../http/validate'
import { loadMessageDtos } from '../messages/dto'
import { actorScope, assertCanSeeTicket } from '../tickets/access'
import { inboundOf } from './index'

/**
 * `POST /messages/{id}/media/retry`: an inbound media that failed to download (mediaState 'failed', shown as
 * ERR_WAPP_DOWNLOAD_MEDIA) is fetched again, from attempt one (asking WhatsApp to re-upload it if it expired).
 * Answers the message (mediaState 'pending'). 404 for another company's message, 403 for a ticket the user may
 * not see, 400 for a message whose media is stored or that has none.
 */
export function retryMediaDownload(ctx: Ctx, id: number): MessageDto {
  const scope = actorScope(ctx)
  const row = ctx.sqlite
    .query<{ companyId: number; queueId: number | null; userId: number | null }, [number, number]>(
      `SELECT m.company_id AS companyId, t.queue_id AS queueId, t.user_id AS userId
         FROM messages m JOIN tickets t ON t.id = m.ticket_id WHERE m.id = ? AND m.company_id = ?`,
    )
    .get(id, ctx.actor.companyId)
  if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND', 'Message not found')
  assertCanSeeTicket(scope, row)
  const inbound = inboundOf(ctx)
  if (!inbound) throw new AppError('ERR_INTERNAL', 'The inbound pipeline is not running')
  if (!inbound.media.retry(ctx.actor.companyId, id))
    throw new AppError('ERR_VALIDATION', 'This message has no media waiting to be downloaded', undefined, [
      { field: 'id', message: 'must be a message whose media failed to download' },
    ])
  return loadMessageDtos(ctx, [id])[0]!
}

/**
 * Mounted at `/api/messages` beside the messages area's routes. Authentication is on the route itself, not a
 * `use()`: a sub-app's middleware would run for every `/messages/*` request mounted after it.
 */
export const mediaRetryRoutes = new Hono<AppEnv>().post('/:id/media/retry', requireAuth, (c) =>
  c.json(retryMediaDownload(ctxOf(c), pathId(c, 'ERR_NO_MESSAGE_FOUND')), 202),
)
