import { type Context, Hono } from 'hono'
import { AppError } from '../../../shared/errors'
import type { SandboxNetwork } from '../../channels/sandbox'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { jsonBody, pathId } from '../../http/validate'
import { getConnectionRowInCompany } from '../connections/service'

/**
 * `/sandbox/connections/{id}/…`: drive the simulated network as a company admin. Mounted only when the
 * server runs with --sandbox; otherwise these paths do not exist.
 */
export function sandboxRoutes(network: SandboxNetwork) {
  const sandboxConnection = (c: Context<AppEnv>) => {
    const ctx = ctxOf(c)
    const row = getConnectionRowInCompany(ctx.db, ctx.actor.companyId, pathId(c, 'ERR_NO_WAPP_FOUND'))
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
      return c.json(await network.inject(row.id, body as Record<string, unknown>), 201)
    })
    .get('/connections/:id/outbound', (c) => c.json(network.outbound(sandboxConnection(c).id)))
}
