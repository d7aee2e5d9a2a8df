import type { HealthResponse } from '../shared/api'
import type { ConnectionStatus } from '../shared/connection-status'
import type { Deps } from './context'

const startedAt = Date.now()

/**
 * What `/api/health` answers: the database answers a query, and how many connections are in each state.
 * Kept apart from the app so a starting server answers it before the API loads; a database that fails makes
 * it `degraded` (503), so a load balancer or systemd watchdog can tell.
 */
export function health(deps: Pick<Deps, 'version' | 'sandboxNetwork' | 'sqlite'>): HealthResponse {
  let database: HealthResponse['database'] = 'ok'
  const connections: HealthResponse['connections'] = {}
  try {
    const rows = deps.sqlite
      .query<{ status: ConnectionStatus; n: number }, []>(
        'SELECT status, count(*) AS n FROM whatsapps GROUP BY status',
      )
      .all()
    for (const { status, n } of rows) connections[status] = n
  } catch {
    database = 'error'
  }
  return {
    status: database === 'ok' ? 'ok' : 'degraded',
    version: deps.version,
    uptimeMs: Date.now() - startedAt,
    sandbox: !!deps.sandboxNetwork,
    database,
    connections,
  }
}

export function healthResponse(deps: Pick<Deps, 'version' | 'sandboxNetwork' | 'sqlite'>): Response {
  const answer = health(deps)
  // Answered before the app (and its secure headers) loads, so it says nosniff itself, as every JSON answer does.
  return Response.json(answer, {
    status: answer.status === 'ok' ? 200 : 503,
    headers: { 'x-content-type-options': 'nosniff' },
  })
}
