import type { Deps } from '../../context'

/** Tickets whose bot is done, per database: their later messages cost no query. A cache; the rows are the truth. */
const finished = new WeakMap<object, Set<number>>()
const MAX = 100_000

export function finishedOf(deps: Pick<Deps, 'sqlite'>): Set<number> {
  let set = finished.get(deps.sqlite)
  if (!set) {
    set = new Set()
    finished.set(deps.sqlite, set)
  }
  if (set.size > MAX) set.clear()
  return set
}

/** Forgets that a ticket's bot was done (a rating question starts on it). */
export function forgetFinished(deps: Pick<Deps, 'sqlite'>, ticketId: number) {
  finished.get(deps.sqlite)?.delete(ticketId)
}

/**
 * Forgets every ticket whose bot was done: a queue or connection was just given a bot (an integration or a
 * prompt), and the tickets waiting in it must reach that bot with their next message, not after a restart.
 */
export function forgetAllFinished(deps: Pick<Deps, 'sqlite'>) {
  finished.get(deps.sqlite)?.clear()
}
