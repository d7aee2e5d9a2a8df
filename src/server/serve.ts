import type { Server } from 'bun'
import type { Api } from './api-entry'
import { bootstrap } from './bootstrap'
import type { Config } from './config'
import { createDemoCompany, DEMO_COMPANY_NAME } from './demo'
import { openDataDir } from './deps'
import { healthResponse } from './health'
import { declareJobs } from './jobs/catalogue'
import { JOBS_STOP_BOUND_MS } from './jobs/registry'
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
  const deps = await openDataDir(config.dataDir, {
    sandbox: config.sandbox,
    ...(config.waSimulator ? { waSimulator: config.waSimulator } : {}),
  })
  const { log } = deps
  // Before any session starts: only this process trusts the simulator's key and routes WhatsApp's hosts to it.
  if (config.waSimulator)
    await (await import('./channels/baileys/simulator')).connectToWaSimulator(config.waSimulator, log)
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
  // The background jobs (jobs/catalogue.ts), each loaded as it starts: the inbound pipeline and the chatbot
  // first, then the sessions, then the sender, the runners and the sweeps, each catching up with what fell due
  // while the server was down.
  declareJobs(deps, { backups: { dataDir: config.dataDir, keep: config.backupKeep } })
  await deps.jobs.start(['inbound', 'chatbot', 'channels'])
  void deps.jobs.start().then(() => log.info('jobs started', { jobs: deps.jobs.names() }))
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
    deps.hub.closeAll('server shutting down')
    // Every job, the last started first, within one bound: the sessions stop before the inbound pipeline, so
    // what they handed over last is stored; unfinished downloads resume at the next boot.
    const { stopped, late } = await deps.jobs.stop(JOBS_STOP_BOUND_MS)
    log.info('jobs stopped', { jobs: stopped, ...(late.length ? { late } : {}) })
    await server.stop()
    removeOperatorFile(operatorFile, deps.operatorToken)
    deps.sqlite.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  return { server, deps, stop }
}
