import { createApp } from './app'
import type { Config } from './config'
import { bootstrap } from './db/bootstrap'
import { openDataDir } from './deps'
import { liveSocketHandler, PING_INTERVAL_MS, type SocketData } from './realtime/socket'
import { WebAssets, webDir } from './web-assets'

/** Starts Balcão: data folder, migrations, first-start bootstrap, HTTP + WebSocket server, and stops cleanly. */
export async function serve(config: Config) {
  const deps = openDataDir(config.dataDir, { sandbox: config.sandbox })
  const { log } = deps
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

  const web = new WebAssets(config.webDir ?? webDir())
  if (!web.available) log.warn('the web UI is not built; run `npm run build:web`')
  const app = createApp(deps, { web })
  const server = Bun.serve<SocketData>({
    port: config.port,
    hostname: config.host,
    fetch: (req, srv) => app.fetch(req, { server: srv }),
    websocket: liveSocketHandler(deps),
  })
  deps.hub.attach(server)
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
    await server.stop()
    deps.sqlite.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  return { server, deps, stop }
}
