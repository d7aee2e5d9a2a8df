import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { secureHeaders } from 'hono/secure-headers'
import type { VersionResponse } from '../shared/api'
import { AppError } from '../shared/errors'
import { PLAN_FLAGS, PLAN_GATED_PATHS } from '../shared/plans'
import { LoginThrottle } from './access/throttle'
import type { Deps } from './context'
import { healthResponse } from './health'
import { authenticate, requireAuth, requirePlanFeature } from './http/auth'
import type { AppEnv } from './http/env'
import { handleError, notFoundApi } from './http/errors'
import { isHttps } from './http/request'
import { mediaRoutes } from './media/routes'
import { UPLOAD_REQUEST_LIMIT } from './media/types'
import { isUploadRequest, uploadTooLarge } from './media/upload'
import { metricsAuthorized, metricsOf } from './metrics'
import { announcementsRoutes } from './modules/announcements/routes'
import { authRoutes } from './modules/auth/routes'
import { campaignSettingsRoutes } from './modules/campaign-settings/routes'
import { campaignsRoutes } from './modules/campaigns/routes'
import { chatbotTicketTransition } from './modules/chatbot/transitions'
import { chatsRoutes } from './modules/chats/routes'
import { companiesRoutes } from './modules/companies/routes'
import { connectionsRoutes, restartRoutes, sessionRoutes } from './modules/connections/routes'
import { contactListItemsRoutes, contactListsRoutes } from './modules/contact-lists/routes'
import { contactsRoutes } from './modules/contacts/routes'
import { dashboardRoutes, messagesAllMeRoutes } from './modules/dashboard/routes'
import { externalApiRoutes } from './modules/external-api/routes'
import { filesRoutes } from './modules/files/routes'
import { helpsRoutes } from './modules/helps/routes'
import { mediaRetryRoutes } from './modules/inbound/routes'
import { invoicesRoutes } from './modules/invoices/routes'
import { kanbanRoutes } from './modules/kanban/routes'
import { ticketNotices } from './modules/messages/notices'
import { messageForwardRoutes, messagesRoutes } from './modules/messages/routes'
import { isOperatorToken, operatorRoutes } from './modules/operator/routes'
import { passwordResetRoutes } from './modules/password-reset/routes'
import { paymentsRoutes, subscriptionRoutes } from './modules/payments/routes'
import { plansRoutes } from './modules/plans/routes'
import { platformSettingsRoutes } from './modules/platform-settings/routes'
import { promptsRoutes, testAudioRoutes, transcribeRoutes } from './modules/prompts/routes'
import { queueIntegrationsRoutes } from './modules/queue-integrations/routes'
import { queueOptionsRoutes } from './modules/queue-options/routes'
import { queuesRoutes } from './modules/queues/routes'
import { quickMessagesRoutes } from './modules/quick-messages/routes'
import { sandboxRoutes } from './modules/sandbox/routes'
import { schedulesRoutes } from './modules/schedules/routes'
import { settingsRoutes } from './modules/settings/routes'
import { signupRoutes } from './modules/signup/routes'
import { tagsRoutes } from './modules/tags/routes'
import { ticketTagsRoutes } from './modules/ticket-tags/routes'
import { ticketsRoutes } from './modules/tickets/routes'
import { usersRoutes } from './modules/users/routes'
import type { SocketData } from './realtime/socket'
import type { WebAssets } from './web-assets'

/**
 * The live socket's origin for the CSP's connect-src: this origin's own ws(s), not every ws: and wss: host.
 * A host that is not a plain name or address is left out rather than echoed into the header.
 */
function liveSocketOrigin(c: Context<AppEnv>) {
  const host = new URL(c.req.url).host
  if (!/^[a-z0-9.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i.test(host)) return ''
  return `${isHttps(c) ? 'wss' : 'ws'}://${host}`
}

/** Builds the whole HTTP app from its dependencies; tests call `app.request()` on it. */
export function createApp(deps: Deps, options: { web?: WebAssets } = {}) {
  const throttle = new LoginThrottle(deps.clock)
  const signup = signupRoutes(deps.clock)
  const recovery = passwordResetRoutes(deps.clock)
  const apiBodyLimit = bodyLimit({
    maxSize: 2 * 1024 * 1024,
    onError: (c) => c.json({ error: 'ERR_PAYLOAD_TOO_LARGE', message: 'The request body is too large' }, 413),
  })
  // Uploads (multipart sends) may be larger; each file's own limit is checked by its type (media/types.ts).
  const uploadBodyLimit = bodyLimit({
    maxSize: UPLOAD_REQUEST_LIMIT,
    onError: () => {
      throw uploadTooLarge()
    },
  })
  const api = new Hono<AppEnv>({ strict: false })
    .use((c, next) =>
      (isUploadRequest(c.req.method, c.req.path, c.req.header('content-type'))
        ? uploadBodyLimit
        : apiBodyLimit)(c, next),
    )
    .get('/health', () => healthResponse(deps))
    // Public: the spec's menu label reads it, as do integrators checking what they talk to.
    .get('/version', (c) => c.json({ version: deps.version } satisfies VersionResponse))
    .get('/metrics', (c) => {
      const token = deps.env.BALCAO_METRICS_TOKEN?.trim()
      if (!token) return notFoundApi(c)
      if (!metricsAuthorized(token, c.req.header('authorization')))
        return c.json({ error: 'ERR_INVALID_TOKEN', message: 'The metrics token is required' }, 401)
      return c.body(metricsOf(deps).render(deps), 200, { 'content-type': 'text/plain; version=0.0.4' })
    })
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
  for (const flag of PLAN_FLAGS)
    for (const path of PLAN_GATED_PATHS[flag])
      api
        .use(path, requireAuth, requirePlanFeature(flag))
        .use(`${path}/*`, requireAuth, requirePlanFeature(flag))
  api
    .route('/auth', authRoutes(throttle))
    .route('/users', usersRoutes)
    .route('/queue', queuesRoutes)
    .route('/queue-options', queueOptionsRoutes)
    .route('/settings', settingsRoutes)
    .route('/signup', signup.codes) // public sign-up codes; POST /signup/codes for super users
    .route('/companies', signup.companies) // public POST /companies/cadastro, GET /companies/listPlan/{id}
    .route('/companies', companiesRoutes)
    .route('/forgetpassword', recovery.forget)
    .route('/resetpasswords', recovery.reset)
    .route('/plans', plansRoutes)
    .route('/platform-settings', platformSettingsRoutes)
    .route('/whatsapp', connectionsRoutes)
    .route('/whatsappsession', sessionRoutes)
    .route('/whatsapp-restart', restartRoutes)
    .route('/operator', operatorRoutes)
    .route('/messages', externalApiRoutes) // POST /messages/send (a connection's token): before /messages/:ticketId
    .route('/messages', mediaRetryRoutes) // POST /messages/{id}/media/retry (inbound media)
    .route('/messages', transcribeRoutes) // POST /messages/{id}/transcribe (useOpenAi)
    .route('/messages', messagesRoutes)
    .route('/message', messageForwardRoutes)
    .route('/media', mediaRoutes)
    .route('/tickets', ticketsRoutes([chatbotTicketTransition], ticketNotices))
    .route('/contacts', contactsRoutes)
    .route('/contact-lists', contactListsRoutes)
    .route('/contact-list-items', contactListItemsRoutes)
    .route('/tags', tagsRoutes)
    .route('/schedules', schedulesRoutes)
    .route('/campaigns', campaignsRoutes)
    .route('/quick-messages', quickMessagesRoutes)
    .route('/chats', chatsRoutes)
    .route('/campaign-settings', campaignSettingsRoutes)
    .route('/files', filesRoutes)
    .route('/queueIntegration', queueIntegrationsRoutes)
    .route('/prompt', promptsRoutes)
    .route('/test', testAudioRoutes) // POST /test/audio (spec 1: transcription)
    .route('/announcements', announcementsRoutes) // super users; GET /announcements/feed for everyone
    .route('/helps', helpsRoutes)
    .route('/dashboard', dashboardRoutes)
    .route('/messages-allMe', messagesAllMeRoutes)
    .route('/invoices', invoicesRoutes)
    .route('/subscription', subscriptionRoutes)
    .route('/payments', paymentsRoutes) // POST /payments/webhook: signed by the payment provider, no session
    .route('/ticket-tags', ticketTagsRoutes)
    .route('/ticket', kanbanRoutes) // GET /ticket/kanban, PUT /ticket/kanban/{ticketId} (useKanban)
  if (deps.sandboxNetwork) api.route('/sandbox', sandboxRoutes(deps.sandboxNetwork))
  api.all('*', notFoundApi)

  const app = new Hono<AppEnv>({ strict: false })
  app.onError(handleError)
  const metrics = metricsOf(deps)
  app.use(async (c, next) => {
    c.set('deps', deps)
    const started = performance.now()
    await next()
    if (c.req.path.startsWith('/api/'))
      metrics.observe(c.req.method, c.res.status, (performance.now() - started) / 1000)
  })
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        // Help videos (src/shared/helps.ts): YouTube's thumbnails and its privacy-enhanced player, nothing else.
        imgSrc: ["'self'", 'data:', 'blob:', 'https://i.ytimg.com'],
        frameSrc: ['https://www.youtube-nocookie.com'],
        mediaSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", liveSocketOrigin],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
      },
      crossOriginEmbedderPolicy: false,
      // A handler's own header wins: signed media answers carry their own, stricter CSP (media/routes.ts).
      overwrite: false,
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
