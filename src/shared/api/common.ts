/** Answers every area shares: the paged list's shape, settings items, version and health. */
import type { ConnectionStatus } from '../connection-status'

export type SettingItem = { key: string; value: string }

export type Paged<K extends string, T> = { [key in K]: T[] } & { count: number; hasMore: boolean }

/** `GET /api/version` (public): the running server's version, the menu's label. */
export type VersionResponse = { version: string }

/** `sandbox`: the server runs the simulated WhatsApp network (`--sandbox`). */
export type HealthResponse = {
  /** 'degraded' (answered with 503) when the database does not answer. */
  status: 'ok' | 'degraded'
  version: string
  uptimeMs: number
  sandbox: boolean
  database: 'ok' | 'error'
  /** How many connections are in each state (CONNECTED, qrcode, DISCONNECTED, …). */
  connections: Partial<Record<ConnectionStatus, number>>
}
