import { type } from 'arktype'
import { type Context, Hono } from 'hono'
import { AppError } from '../../../shared/errors'
import type { SandboxNetwork } from '../../channels/sandbox'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { jsonBody, parse, pathId } from '../../http/validate'
import { getConnectionRowInCompany } from '../connections/service'
import { inboundOf } from '../inbound'

/** `POST /sandbox/connections/{id}/restrict`: `{ "on": true }` makes sends to new chats fail as WhatsApp's 463. */
const restrictBody = type({ '+': 'delete', on: 'boolean' })

/** The most messages one inbound request may carry. */
export const MAX_INBOUND_BATCH = 500

/**
 * `/sandbox/connections/{id}/…`: drive the simulated network as a company admin. Mounted only when the
 * server runs with --sandbox; otherwise these paths do not exist.
 */
export function sandboxRoutes(network: SandboxNetwork) {
  const sandboxConnection = (c: Context<AppEnv>) => {
    const ctx = ctxOf(c)
    const row = getConnectionRowInCompany(ctx.sqlite, ctx.actor.companyId, pathId(c, 'ERR_NO_WAPP_FOUND'))
    if (row.provider !== 'sandbox') throw new AppError('ERR_NO_WAPP_FOUND', 'Not a sandbox connection')
    return row
  }
  return new Hono<AppEnv>()
    .use(requireAuth, requireAdmin)
    .post('/connections/:id/pair', async (c) => {
      const row = sandboxConnection(c)
      if (!network.session(row.id)) await c.get('deps').channels.start(row)
      await network.pair(row.id)
      return c.json({ id: row.id, paired: true })
    })
    .post('/connections/:id/inbound', async (c) => {
      const row = sandboxConnection(c)
      const body = await jsonBody(c)
      if (!Array.isArray(body))
        return c.json(await network.inject(row.id, body as Record<string, unknown>), 201)
      // A batch: every message checked first, then each stored (committed) before the answer.
      if (body.length < 1 || body.length > MAX_INBOUND_BATCH)
        throw new AppError('ERR_VALIDATION', `A batch holds 1 to ${MAX_INBOUND_BATCH} messages`, undefined, [
          { field: '', message: `must hold 1 to ${MAX_INBOUND_BATCH} messages` },
        ])
      // The pipeline holds the batch's messages and stores them in one transaction (flush) before the answer.
      // Acknowledged means committed: a message that could not be stored turns the answer into a 500.
      const inbound = inboundOf(c.get('deps'))
      const flush = () => {
        const failed = inbound?.flush(row.id) ?? 0
        if (failed)
          throw new AppError(
            'ERR_CREATING_MESSAGE',
            `${failed} of the batch's messages could not be stored`,
            {
              failed,
            },
          )
      }
      let result: { ids: string[] }
      try {
        result = await network.injectBatch(row.id, body, { mark: inbound && ((e) => inbound.defer(e)) })
      } catch (err) {
        flush()
        throw err
      }
      flush()
      return c.json(result, 201)
    })
    .get('/connections/:id/outbound', (c) => c.json(network.outbound(sandboxConnection(c).id)))
    .post('/connections/:id/restrict', async (c) => {
      const row = sandboxConnection(c)
      const { on } = parse(restrictBody, await jsonBody(c))
      network.restrict(row.id, on)
      return c.json({ id: row.id, restricted: on })
    })
}
