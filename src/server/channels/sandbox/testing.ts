/**
 * A sandbox network on a manual clock, for tests (this folder's, the contract tests, route tests): nothing
 * sleeps; `clock.tick(ms)` moves time and fires what falls due.
 */
import { ManualClock } from '../../clock'
import type { ChannelEvent, ChannelEventOf, ChannelSession } from '../types'
import { SandboxNetwork, type SandboxNetworkOptions } from './network'

export function createTestNetwork(options: Partial<Omit<SandboxNetworkOptions, 'clock'>> = {}) {
  const clock = new ManualClock()
  const network = new SandboxNetwork({ clock, ...options })
  return { clock, network }
}

/** Records a session's events. */
export function recordEvents(session: Pick<ChannelSession, 'on'>) {
  const events: ChannelEvent[] = []
  session.on((e) => {
    events.push(e)
  })
  return {
    events,
    of<T extends ChannelEvent['t']>(t: T) {
      return events.filter((e): e is ChannelEventOf<T> => e.t === t)
    },
    statuses() {
      return events.filter((e) => e.t === 'status').map((e) => (e.t === 'status' ? e.status : ''))
    },
    clear() {
      events.length = 0
    },
  }
}

/** A session of connection `id` on the network, started and connected (paired at once). */
export async function connectedSession(network: SandboxNetwork, id = 1) {
  const session = network.createSession({ id, companyId: 1, name: `Sandbox ${id}` })
  const recorder = recordEvents(session)
  await session.start()
  await session.pair()
  await network.idle()
  recorder.clear()
  return { session, ...recorder }
}
