import type { Actor, Deps } from '../context'

/** Hono's environment: the deps of the app, and the actor once authenticated. */
export type AppEnv = {
  Variables: { deps: Deps; actor: Actor }
  Bindings: { server?: { requestIP(req: Request): { address: string } | null } }
}
