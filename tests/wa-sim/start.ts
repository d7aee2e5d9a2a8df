/**
 * Starts a fully wired simulator in this process (tests) and stops it.
 */
import type { SimulatorRoot } from './certs'
import { registerCoreRoutes } from './control-routes'
import { registerDefaultIqHandlers } from './iq-handlers'
import { handleClientPayload } from './pairing'
import { Simulator, type SimulatorOptions } from './server'

export type RunningSimulator = {
  url: string
  wsUrl: string
  port: number
  root: SimulatorRoot
  sim: Simulator
  stop(): Promise<void>
}

/** The simulator with the core wired: handshake, pairing, login, default iqs and control routes. */
export const createSimulator = (options: SimulatorOptions = {}): Simulator => {
  const sim = new Simulator(options)
  sim.clientPayloadHandler = (connection, noiseKey, payload) =>
    handleClientPayload(sim, connection, noiseKey, payload)
  registerDefaultIqHandlers(sim)
  registerCoreRoutes(sim)
  return sim
}

export const startSimulator = async (options: SimulatorOptions = {}): Promise<RunningSimulator> => {
  const sim = createSimulator(options).start()
  return { url: sim.url, wsUrl: sim.wsUrl, port: sim.port, root: sim.root, sim, stop: () => sim.stop() }
}
