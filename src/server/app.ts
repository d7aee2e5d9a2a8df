import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { secureHeaders } from 'hono/secure-headers'
import type { HealthResponse } from '../shared/api'
import { AppError } from '../shared/errors'
import type { Deps } from './context'
import { authenticate } from './http/auth'
import type { AppEnv } from './http/env'
import { handleError, notFoundApi } from './http/errors'
import { authRoutes } from './modules/auth/routes'
import { LoginThrottle } from './modules/auth/throttle'
import { companiesRoutes } from './modules/companies/routes'
import { connectionsRoutes, restartRoutes, sessionRoutes } from './modules/connections/routes'
import { isOperatorToken, operatorRoutes } from './modules/operator/routes'
import { plansRoutes } from './modules/plans/routes'
import { queuesRoutes } from './modules/queues/routes'
import { sandboxRoutes } from './modules/sandbox/routes'
import { settingsRoutes } from './modules/settings/routes'
import { usersRoutes } from './modules/users/routes'
import type { SocketData } from './realtime/socket'
import type { WebAssets } from './web-assets'

const startedAt = Date.now()

/** Builds the whole HTTP app from its dependencies; tests call `app.request()` on it. */
export function createApp(deps: Deps, options: { web?: WebAssets } = {}) {
  const throttle = new LoginThrottle(deps.clock)
  const api = new Hono<AppEnv>({ strict: false })
    .use(
      bodyLimit({
        maxSize: 2 * 1024 * 1024,
        onError: (c) =>
          c.json({ error: 'ERR_PAYLOAD_TOO_LARGE', message: 'The request body is too large' }, 413),
      }),
    )
    .get('/health', (c) =>
      c.json({
        status: 'ok',
        version: deps.version,
        uptimeMs: Date.now() - startedAt,
        sandbox: !!deps.sandboxNetwork,
      } satisfies HealthResponse),
    )
    .get('/ws', async (c) => {
      const operator = c.req.query('operator')
      let data: SocketData
      if (operator !== undefined) {
        if (!isOperatorToken(deps, operator))
          throw new AppError('ERR_INVALID_TOKEN', 'Operator credential required')
        data = { operator: true }
      } else data = { actor: await authenticate(deps, c.req.query('token')) }
      // Refused before the upgrade, so a client retrying with backoff is not let in and thrown out in a loop.
      if (!data.operator && !deps.hub.hasRoomFor(data.actor.userId))
        throw new AppError('ERR_TOO_MANY_ATTEMPTS', 'Too many live connections for this user')
      const server = c.env?.server as { upgrade?(req: Request, o: { data: SocketData }): boolean } | undefined
      if (!server?.upgrade?.(c.req.raw, { data })) {
        return c.json({ error: 'ERR_VALIDATION', message: 'Expected a WebSocket upgrade' }, 426)
      }
      return new Response(null)
    })
    .route('/auth', authRoutes(throttle))
    .route('/users', usersRoutes)
    .route('/queue', queuesRoutes)
    .route('/settings', settingsRoutes)
    .route('/companies', companiesRoutes)
    .route('/plans', plansRoutes)
    .route('/whatsapp', connectionsRoutes)
    .route('/whatsappsession', sessionRoutes)
    .route('/whatsapp-restart', restartRoutes)
    .route('/operator', operatorRoutes)
  if (deps.sandboxNetwork) api.route('/sandbox', sandboxRoutes(deps.sandboxNetwork))
  api.all('*', notFoundApi)

  const app = new Hono<AppEnv>({ strict: false })
  app.onError(handleError)
  app.use(async (c, next) => {
    c.set('deps', deps)
    await next()
  })
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
      },
      crossOriginEmbedderPolicy: false,
    }),
  )
  app.route('/api', api)
  if (options.web) {
    const web = options.web
    app.get('*', (c) => web.serve(c))
  }
  return app
}

export type App = ReturnType<typeof createApp>
