import type { Server } from 'bun'
import type { Api } from './api-entry'
import { bootstrap } from './bootstrap'
import type { Config } from './config'
import { createDemoCompany, DEMO_COMPANY_NAME } from './demo'
import { openDataDir } from './deps'
import { healthResponse } from './health'
import { connectHost, newOperatorToken, removeOperatorFile, writeOperatorFile } from './operator-file'
import { liveSocketHandler, PING_INTERVAL_MS, type SocketData } from './realtime/socket'
import { WebAssets, webDir } from './web-assets'

/** Starts Balcão: data folder, migrations, first-start bootstrap, HTTP + WebSocket server, and stops cleanly. */
export type ServeOptions = {
  /** Development: the UI straight from src/web (an HTML import) with hot reload, instead of dist/web. */
  devIndex?: import('bun').HTMLBundle
}

function isHealthCheck(req: Request) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  const { pathname } = new URL(req.url)
  return pathname === '/api/health' || pathname === '/api/health/'
}

export async function serve(config: Config, options: ServeOptions = {}) {
  const deps = await openDataDir(config.dataDir, { sandbox: config.sandbox })
  const { log } = deps
  // No socket survives a restart (or a crash): nobody is online until their browser connects again.
  deps.sqlite.run('UPDATE users SET online = 0 WHERE online = 1')
  const first = await bootstrap(deps, { email: config.adminEmail, password: config.adminPassword })
  if (first.created) {
    if (first.generatedPassword) {
      log.warn('super admin created; this password is shown only once', {
        email: first.email,
        password: first.generatedPassword,
        change: `balcao user reset-password ${first.email}`,
      })
    } else log.info('super admin created', { email: first.email })
  }

  if (first.created && config.sandbox) {
    const demo = await createDemoCompany(deps, process.env.BALCAO_DEMO_PASSWORD || undefined)
    if (demo) {
      log.warn('demo company created: try Balcão without a phone', {
        company: DEMO_COMPANY_NAME,
        admin: demo.adminEmail,
        attendant: demo.attendantEmail,
        ...(demo.generatedPassword ? { password: demo.generatedPassword } : {}),
      })
    }
  }
  deps.operatorToken = newOperatorToken()
  const web = new WebAssets(config.webDir ?? webDir())
  if (!web.available && !options.devIndex) log.warn('the web UI is not built; run `npm run build:web`')
  // The API (its routes, validation schemas and their libraries) loads on the first request that needs it, so a
  // starting server answers health checks at once and an idle one holds only what it uses.
  let api: Promise<Api> | undefined
  let loaded: Api | undefined
  const loadApi = () => {
    api ??= import('./api-entry').then((m) => (loaded = m.buildApi(deps, web)))
    return api
  }
  const handle = async (req: Request, srv: Server<SocketData>) => {
    if (isHealthCheck(req)) return healthResponse(deps)
    return (await loadApi()).app.fetch(req, { server: srv })
  }
  // A socket opens only after its upgrade went through the API, so `loaded` is set by then.
  const websocket = liveSocketHandler(deps, {
    roomsOfUser: (userId) => loaded?.roomsOfUser(userId) ?? [],
    setOnline: (userId, online) => loaded?.setOnline(userId, online),
    ticketAccess: (actor, ticketId) => loaded?.ticketAccess(actor, ticketId) ?? false,
  })
  const server = options.devIndex
    ? Bun.serve<SocketData, string>({
        port: config.port,
        hostname: config.host,
        development: { hmr: true, console: true },
        routes: { '/api/*': handle, '/*': options.devIndex },
        fetch: handle,
        websocket,
      })
    : Bun.serve<SocketData>({
        port: config.port,
        hostname: config.host,
        fetch: handle,
        websocket,
      })
  deps.hub.attach(server)
  const operatorFile = writeOperatorFile(config.dataDir, {
    url: `http://${connectHost(config.host)}:${server.port}`,
    token: deps.operatorToken,
    pid: process.pid,
  })
  // The inbound pipeline listens before any session starts, so nothing a session hands over is missed.
  const inbound = (await import('./modules/inbound')).startInbound(deps)
  // The chatbot answers stored messages; its timers sweep the connections' rows (modules/chatbot).
  ;(await import('./modules/chatbot')).startChatbot(deps, { inbound })
  void deps.channels.startAll()
  // Outbound messages of the previous run: sends it interrupted become failed (never resent blindly), queued
  // ones go out once their connections are back (modules/messages/outbound.ts).
  void import('./modules/messages/outbound').then((m) => m.outboundSender(deps).resume())
  // Spreadsheet imports cut short continue; contact list items still unknown are checked (modules/contact-lists).
  void import('./modules/contact-lists/imports').then((m) => m.resumeImports(deps))
  void import('./modules/contact-lists/checker').then((m) => m.resumeValidityChecks(deps))
  // Scheduled messages: what fell due while the server was down goes out now, in order (modules/schedules/runner.ts).
  const schedules = import('./modules/schedules/runner').then((m) => {
    const runner = m.scheduleRunner(deps)
    void runner.start()
    return runner
  })
  // Campaigns: interrupted sends become failed, due campaigns start, paced senders resume (modules/campaigns/runner.ts).
  const campaigns = import('./modules/campaigns/runner').then((m) => {
    const runner = m.campaignRunner(deps)
    void runner.start()
    return runner
  })
  // Invoices: issued from 10 days before each due date; the first sweep issues what fell due while down (modules/invoices/job.ts).
  const invoiceJob = import('./modules/invoices/job').then((m) => m.startInvoiceJob(deps))
  // Daily backups in the data folder, when asked for (ops/scheduled-backups.ts).
  const backups =
    config.backupKeep > 0
      ? (await import('./ops/scheduled-backups')).startScheduledBackups({
          dataDir: config.dataDir,
          keep: config.backupKeep,
          clock: deps.clock,
          log,
        })
      : null
  const ping = setInterval(
    () => deps.hub.sendToAll({ event: 'ping', data: { t: deps.clock.now() } }),
    PING_INTERVAL_MS,
  )
  log.info('Balcão is listening', {
    url: `http://${config.host}:${server.port}`,
    data: config.dataDir,
    version: deps.version,
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('stopping', { signal })
    clearInterval(ping)
    backups?.stop()
    await schedules.then((runner) => runner.stop()).catch(() => {})
    await campaigns.then((runner) => runner.stop()).catch(() => {})
    await invoiceJob.then((job) => job.stop()).catch(() => {})
    deps.hub.closeAll('server shutting down')
    await deps.channels.stopAll()
    // after the sessions: what they handed over last is stored; unfinished downloads resume at the next boot
    inbound.stop()
    await server.stop()
    removeOperatorFile(operatorFile, deps.operatorToken)
    deps.sqlite.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  return { server, deps, stop }
}
