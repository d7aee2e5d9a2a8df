/**
 * The sandbox provider: a simulated WhatsApp network in the same process ("try Balcão without a phone"),
 * for demos, tests and benchmarks. network.ts holds the network, session.ts one session (its life cycle and
 * what it sends), customer.ts what customers do to it, shapes.ts the Baileys shapes it builds (normalized by the
 * same normalizeBaileysEvents as the real adapter).
 *
 * The rules of the simulated world (every delay is multiplied by `timeScale`):
 * - start: OPENING, then a QR (`ref,key,key,key,sandbox`; the first lives 60 s, later ones 20 s); it pairs by
 *   itself after 5 s (`autoPair`, `autoPairMs`), or at once with `network.pair(id)`; without pairing, after
 *   3 QRs (`maxQrAttempts`) the session ends in TIMEOUT. Pairing: OPENING (515 restart), then CONNECTED.
 *   A new session of an unpaired connection shows QR codes never shown before, as a real restart would.
 * - a connection pairs as 55 11 98 + its id on 7 digits (`companyPhoneOf`), or as the phone of a pairing code;
 *   pairing codes are 8 characters, deterministic per connection and phone.
 * - stop() is silent and keeps the credentials (the next start connects without a QR); logout() forgets them.
 * - customers: any phone number (8 to 15 digits) is a customer with a stable LID, a deterministic name and a
 *   generated SVG avatar; numbers ending in 0 are not on WhatsApp (checkNumbers, and messages to them stop at
 *   "sent"); numbers ending in 9 hide their picture.
 * - receipts of a sent message: sent after 50 ms, delivered after 300 ms, read after 2 s (`ackDelays`).
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
