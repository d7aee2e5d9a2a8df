import type { HealthResponse } from '../shared/api'
import type { Deps } from './context'

const startedAt = Date.now()

/** What `/api/health` answers. Kept apart from the app so a starting server answers it before the API loads. */
export function health(deps: Pick<Deps, 'version' | 'sandboxNetwork'>): HealthResponse {
  return {
    status: 'ok',
    version: deps.version,
    uptimeMs: Date.now() - startedAt,
    sandbox: !!deps.sandboxNetwork,
  }
}
