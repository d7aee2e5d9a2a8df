import { timingSafeEqual } from 'node:crypto'
import { Hono, type MiddlewareHandler } from 'hono'
import { AppError } from '../../../shared/errors'
import { startSessionBody } from '../../../shared/schemas/whatsapp'
import type { Deps } from '../../context'
import type { AppEnv } from '../../http/env'
import { jsonBody, parse, pathId } from '../../http/validate'
import { runOperatorCommand } from './commands'
import { listAllConnections, operatorConnection, pairFromTerminal } from './service'

/** True when `token` is this run's operator credential (compared in constant time). */
export function isOperatorToken(deps: Deps, token: string | undefined | null) {
  if (!deps.operatorToken || !token) return false
  const a = Buffer.from(token)
  const b = Buffer.from(deps.operatorToken)
  return a.length === b.length && timingSafeEqual(a, b)
}

const requireOperator: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = c.req.header('authorization')?.match(/^Operator\s+(.+)$/i)?.[1]
  if (!isOperatorToken(c.get('deps'), token))
    throw new AppError('ERR_INVALID_TOKEN', 'Operator credential required')
  await next()
}

/** `/operator`: what `balcao connection …` calls on the running server, with the credential in operator.json. */
export const operatorRoutes = new Hono<AppEnv>()
  .use(requireOperator)
  .get('/connections', (c) => c.json(listAllConnections(c.get('deps'))))
  .get('/connections/:id', (c) => c.json(operatorConnection(c.get('deps'), pathId(c, 'ERR_NO_WAPP_FOUND'))))
  .post('/connections/:id/pair', async (c) => {
    const raw = c.req.header('content-type')?.includes('json') ? await jsonBody(c) : {}
    const { phone } = parse(startSessionBody, raw ?? {})
    return c.json(await pairFromTerminal(c.get('deps'), pathId(c, 'ERR_NO_WAPP_FOUND'), phone), 202)
  })
  /** `balcao company|plan|user|signup-code|connection …` on the running server (commands.ts): the result as JSON. */
  .post('/commands/:name', async (c) => {
    const raw = c.req.header('content-type')?.includes('json') ? await jsonBody(c) : {}
    return c.json((await runOperatorCommand(c.get('deps'), c.req.param('name'), raw, { live: true })) ?? null)
  })
