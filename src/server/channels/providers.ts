import type { Database } from 'bun:sqlite'
import type { Clock } from '../clock'
import type { DB } from '../db/client'
import type { Logger } from '../logger'
import { createBaileysProvider } from './baileys/provider'
import { baileysWebSocketPatched, configuredWebSocketImpl } from './baileys/ws-impl'
import { createSandboxProvider, type SandboxNetwork } from './sandbox'
import type { ChannelProvider } from './types'

type Base = { db: DB; sqlite: Database; clock: Clock; log: Logger }

/** The providers a server offers: real WhatsApp (Baileys) always; the sandbox when started with --sandbox. */
export function buildProviders(base: Base, sandboxNetwork: SandboxNetwork | null) {
  if (configuredWebSocketImpl() === 'npm' && !baileysWebSocketPatched()) {
    base.log.warn(
      "WhatsApp sessions will use Bun's built-in WebSocket: the npm one could not be loaded (run from the project folder or the built executable)",
    )
  }
  const providers: Partial<Record<'beta' | 'sandbox', ChannelProvider>> = {
    beta: createBaileysProvider({
      log: base.log,
      clock: base.clock,
      db: { db: base.db, sqlite: base.sqlite, clock: base.clock },
    }),
  }
  if (sandboxNetwork) providers.sandbox = createSandboxProvider(sandboxNetwork)
  return providers
}
