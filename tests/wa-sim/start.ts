/**
 * Starts a fully wired simulator in this process (tests) and stops it.
 */
import type { SimulatorRoot } from './certs'
import { registerCoreRoutes } from './control-routes'
import { type CustomerNetwork, registerCustomers } from './customers'
import { registerHistorySync } from './history-sync'
import { registerDefaultIqHandlers } from './iq-handlers'
import { MediaStore } from './media/index.ts'
import { handleClientPayload } from './pairing'
import { Simulator, type SimulatorOptions } from './server'

export type RunningSimulator = {
  url: string
  wsUrl: string
  port: number
  root: SimulatorRoot
  sim: Simulator
  customers: CustomerNetwork
  media: MediaStore
  stop(): Promise<void>
}

/** The media host on the simulator's port: upload/download paths and the `media_conn` answer. */
const registerMedia = (sim: Simulator): MediaStore => {
  const media = new MediaStore()
  sim.httpHandlers.push(async (request) => (await media.handleMediaRequest(request)) ?? undefined)
  sim.iq.on('w:m', 'set', ({ sim }) => [media.mediaConnNode(`127.0.0.1:${sim.port}`)])
  return media
}

/** The simulator with everything wired: handshake, pairing, login, iqs, control routes, customers, media. */
export const createSimulator = (options: SimulatorOptions = {}) => {
  const sim = new Simulator(options)
  sim.clientPayloadHandler = (connection, noiseKey, payload) =>
    handleClientPayload(sim, connection, noiseKey, payload)
  registerDefaultIqHandlers(sim)
  registerCoreRoutes(sim)
  const media = registerMedia(sim)
  const customers = registerCustomers(sim, (bytes, kind, mimetype) =>
    media.uploadForCustomer(bytes, kind, mimetype),
  )
  registerHistorySync(sim, customers, media)
  return { sim, customers, media }
}

export const startSimulator = async (options: SimulatorOptions = {}): Promise<RunningSimulator> => {
  const { sim, customers, media } = createSimulator(options)
  sim.start()
  return {
    url: sim.url,
    wsUrl: sim.wsUrl,
    port: sim.port,
    root: sim.root,
    sim,
    customers,
    media,
    stop: () => sim.stop(),
  }
}
