/**
 * The simulated WhatsApp network: one per server process. It is the world (world.ts: credentials, customers,
 * messages, media, what was sent) plus the sessions by connection id, which it builds and drives.
 */
import { AppError } from '../../../shared/errors'
import type { ChannelProvider } from '../types'
import type { SandboxInbound } from './inbound'
import { SandboxChannelSession } from './session'
import { SandboxWorld } from './world'

export type {
  OutboundKind,
  OutboundRecord,
  SandboxCredentials,
  SandboxCustomer,
  SandboxNetworkOptions,
} from './world'

export class SandboxNetwork extends SandboxWorld {
  private readonly sessions = new Map<number, SandboxChannelSession>()

  /** Builds the session of a connection; a previous session of the same id is dropped silently. */
  createSession(connection: { id: number; companyId: number; name: string }) {
    this.sessions.get(connection.id)?.detach()
    const session = new SandboxChannelSession(this, connection)
    this.sessions.set(connection.id, session)
    return session
  }

  session(connectionId: number) {
    return this.sessions.get(connectionId)
  }

  /** Completes the QR (or pairing code) the connection's session is showing, as if the phone scanned it. */
  async pair(connectionId: number) {
    await this.require(connectionId).pair()
  }

  /** A virtual customer writes to the connection. Throws ERR_WAPP_NOT_INITIALIZED unless it is CONNECTED. */
  async inject(connectionId: number, input: SandboxInbound | Record<string, unknown>) {
    return this.require(connectionId).inject(input)
  }

  /** Several messages at once, in order (see SandboxChannelSession.injectBatch): all checked before any is delivered. */
  async injectBatch(
    connectionId: number,
    inputs: unknown[],
    options?: Parameters<SandboxChannelSession['injectBatch']>[1],
  ) {
    return this.require(connectionId).injectBatch(inputs, options)
  }

  /**
   * Failure injection: the connection's socket closes with a Baileys DisconnectReason. 401 (logged out) forgets
   * the credentials and 403, 440 end the session (DISCONNECTED); 408, 428, 500, 503 reconnect after
   * `reconnectMs` (OPENING, then CONNECTED); 515 restarts at once.
   */
  async simulateDisconnect(connectionId: number, code: number) {
    await this.require(connectionId).disconnect(code)
  }

  /** WhatsApp's history sync after pairing: the messages (oldest first) arrive as one chunk of old messages. */
  async syncHistory(
    connectionId: number,
    inputs: (SandboxInbound | Record<string, unknown>)[],
    options: { progress?: number; isLatest?: boolean } = {},
  ) {
    return this.require(connectionId).history(inputs, options)
  }

  /** Resolves once every session has handed all its events to its listeners. */
  async idle() {
    for (const session of this.sessions.values()) await session.idle()
  }

  private require(connectionId: number) {
    const session = this.sessions.get(connectionId)
    if (!session) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The sandbox connection is not started')
    return session
  }
}

/** The sandbox as a ChannelProvider: each call builds (and registers) the session of a connection. */
export function createSandboxProvider(network: SandboxNetwork): ChannelProvider {
  return (connection) => network.createSession(connection)
}
