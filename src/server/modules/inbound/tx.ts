import type { Database } from 'bun:sqlite'
import type { Deps } from '../../context'
import { EventBuffer } from '../../realtime/hub'

const runners = new WeakMap<Database, (fn: () => unknown) => unknown>()

/**
 * `transact` on bun:sqlite's own transaction (BEGIN and COMMIT prepared once; nested calls become savepoints)
 * rather than Drizzle's, which builds a transaction object per call: the inbound pipeline runs one per
 * message. Same contract: synchronous, live events published after commit. `tx` is the raw database, which
 * the areas' helpers accept (a `Connection`).
 */
export function fastTransact<T>(
  deps: Pick<Deps, 'sqlite' | 'hub'>,
  fn: (tx: Database, events: EventBuffer) => T,
): T {
  let run = runners.get(deps.sqlite)
  if (!run) {
    run = deps.sqlite.transaction((body: () => unknown) => body())
    runners.set(deps.sqlite, run)
  }
  const events = new EventBuffer()
  const result = run(() => fn(deps.sqlite, events)) as T
  events.flush(deps.hub)
  return result
}
