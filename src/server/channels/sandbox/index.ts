/**
 * The sandbox provider: a simulated WhatsApp network in the same process ("try Balcão without a phone"),
 * for demos, tests and benchmarks. See network.ts for the network, session.ts for one session.
 */

export { avatarDataUrl, companyPhoneOf, customerNameOf, lidOf, pairingCodeOf } from './identities'
export type { SandboxInbound, SandboxInboundMedia } from './inbound'
export { validateInbound } from './inbound'
export {
  createSandboxProvider,
  type OutboundKind,
  type OutboundRecord,
  type SandboxCredentials,
  type SandboxCustomer,
  SandboxNetwork,
  type SandboxNetworkOptions,
} from './network'
export { SandboxChannelSession, SIMULATED_DISCONNECTS, type SimulatedDisconnect } from './session'
export { ManualTimers, type SandboxTimers, systemTimers } from './timers'
