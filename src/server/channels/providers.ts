import type { Database } from 'bun:sqlite'
import { DEFAULT_CONNECTION_CONFIG } from '@whiskeysockets/baileys'
import type { Clock } from '../clock'
import type { DB } from '../db/client'
import type { Logger } from '../logger'
import { createBaileysProvider } from './baileys/provider'
import type { MessageStore } from './baileys/session'
import type { WaSimulator } from './baileys/simulator'
import { baileysWebSocketPatched, configuredWebSocketImpl } from './baileys/ws-impl'
import { createSandboxProvider, type SandboxNetwork } from './sandbox'
import type { ChannelProvider } from './types'

type Base = { db: DB; sqlite: Database; clock: Clock; log: Logger }

/**
 * The providers a server offers: real WhatsApp (Baileys) always; the sandbox when started with --sandbox. With
 * --wa-simulator the same Baileys provider connects to the simulator, on Baileys's bundled WA Web version (the
 * simulator is not on the internet to ask for a newer one).
 */
export function buildProviders(
  base: Base,
  sandboxNetwork: SandboxNetwork | null,
  waSimulator: WaSimulator | null = null,
) {
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
      messageStore: storedMessages(base.sqlite, base.clock),
      ...(waSimulator
        ? { waWebSocketUrl: waSimulator.url, fetchVersion: null, version: DEFAULT_CONNECTION_CONFIG.version }
        : {}),
    }),
  }
  if (sandboxNetwork) providers.sandbox = createSandboxProvider(sandboxNetwork)
  return providers
}

/** How long what a session sent is kept for retry receipts (WhatsApp clients ask within days). */
export const SENT_MESSAGE_RETENTION_MS = 14 * 24 * 60 * 60 * 1000
/** Old sent messages are pruned once every this many keeps. */
const PRUNE_EVERY = 500

/**
 * Baileys' getMessage (retry receipts, quoting) beyond its in-memory recent messages: what the session sent
 * (`wa_sent_messages`, kept as each send returns), else the raw message the inbox kept on the row
 * (`messages.provider_data.raw`, base64) of this connection's chats.
 */
export function storedMessages(sqlite: Database, clock: Pick<Clock, 'now'> = Date): MessageStore {
  let keeps = 0
  return {
    async load(connectionId, msgId) {
      const sent = sqlite
        .query<{ message: Uint8Array }, [number, string]>(
          'SELECT message FROM wa_sent_messages WHERE whatsapp_id = ? AND msg_id = ?',
        )
        .get(connectionId, msgId)
      if (sent) return new Uint8Array(sent.message)
      const row = sqlite
        .query<{ data: string | null }, [number, string, number]>(
          `SELECT m.provider_data AS data FROM messages m JOIN tickets t ON t.id = m.ticket_id
            WHERE m.company_id = (SELECT company_id FROM whatsapps WHERE id = ?1) AND m.wid = ?2
              AND t.whatsapp_id = ?3`,
        )
        .get(connectionId, msgId, connectionId)
      if (!row?.data) return undefined
      try {
        const raw = (JSON.parse(row.data) as { raw?: unknown }).raw
        return typeof raw === 'string' && raw ? new Uint8Array(Buffer.from(raw, 'base64')) : undefined
      } catch {
        return undefined
      }
    },
    keepSent(connectionId, msgId, raw) {
      const now = clock.now()
      sqlite
        .query(
          `INSERT INTO wa_sent_messages (whatsapp_id, msg_id, message, created_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (whatsapp_id, msg_id) DO UPDATE SET message = excluded.message, created_at = excluded.created_at`,
        )
        .run(connectionId, msgId, raw, now)
      if (++keeps % PRUNE_EVERY === 0)
        sqlite.query('DELETE FROM wa_sent_messages WHERE created_at < ?').run(now - SENT_MESSAGE_RETENTION_MS)
    },
  }
}
