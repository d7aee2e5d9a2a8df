import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { ConnectionHealth } from '../../shared/api'
import type { ConnectionStatusReason } from '../../shared/connection-status'
import { isoTime } from '../clock'
import type { ConnectionDoorRow, WhatsappHealthRow } from '../db/schema'
import { stmt } from '../db/statements'

/**
 * A connection's health facts (table `whatsapp_health`), written where they happen, each by one statement the
 * writer runs inside its own transaction: the inbound pipeline (last received, once per stored batch), the
 * acks (last acknowledged send) and the channel manager (versions, last disconnect). The restriction is the
 * outbound door's own (`connection_doors`), read beside them. Read by the connections area and `balcao doctor`
 * without touching messages.
 */

type Facts = Partial<Omit<WhatsappHealthRow, 'whatsappId'>>

/** What the health answer is made of: the recorded facts and the door's restriction. */
export type HealthSource = Omit<WhatsappHealthRow, 'whatsappId'> &
  Pick<ConnectionDoorRow, 'restrictedAt' | 'restrictedUntil' | 'restrictionDetail'>

const COLUMN_OF = {
  baileysVersion: 'baileys_version',
  waWebVersion: 'wa_web_version',
  lastReceivedAt: 'last_received_at',
  lastAckedAt: 'last_acked_at',
  lastDisconnectReason: 'last_disconnect_reason',
  lastDisconnectCode: 'last_disconnect_code',
  lastDisconnectAt: 'last_disconnect_at',
} as const satisfies Record<keyof Facts, string>

/**
 * Writes the given facts (undefined ones left as they are), making the connection's row on its first fact; a
 * connection deleted meanwhile has none.
 */
export function recordHealth(sqlite: Database, connectionId: number, facts: Facts) {
  const set = Object.entries(facts).filter(([field, value]) => value !== undefined && field in COLUMN_OF)
  if (!set.length) return
  const columns = set.map(([field]) => COLUMN_OF[field as keyof Facts])
  stmt<unknown, SQLQueryBindings[]>(
    sqlite,
    `INSERT INTO whatsapp_health (whatsapp_id, ${columns.join(', ')})
       SELECT id${', ?'.repeat(columns.length)} FROM whatsapps WHERE id = ?
     ON CONFLICT (whatsapp_id) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`,
  ).run(...set.map(([, value]) => value as SQLQueryBindings), connectionId)
}

/** The columns of a health answer, from `whatsapp_health h` and `connection_doors d` joined on the connection. */
export const HEALTH_COLUMNS = [
  ...Object.entries(COLUMN_OF).map(([field, column]) => `h.${column} AS ${field}`),
  'd.restricted_at AS restrictedAt',
  'd.restricted_until AS restrictedUntil',
  'd.restriction_detail AS restrictionDetail',
].join(', ')

/** The health of these connections, by id (a connection with no fact yet has all its fields null). */
export function healthOf(sqlite: Database, connectionIds: number[]): Map<number, ConnectionHealth> {
  const rows = connectionIds.length
    ? stmt<HealthSource & { whatsappId: number }, [string]>(
        sqlite,
        `SELECT ids.value AS whatsappId, ${HEALTH_COLUMNS}
           FROM json_each(?) ids
           LEFT JOIN whatsapp_health h ON h.whatsapp_id = ids.value
           LEFT JOIN connection_doors d ON d.whatsapp_id = ids.value`,
      ).all(JSON.stringify(connectionIds))
    : []
  const byId = new Map(rows.map((r) => [r.whatsappId, r]))
  return new Map(connectionIds.map((id) => [id, toHealth(byId.get(id))]))
}

export function toHealth(row: HealthSource | undefined): ConnectionHealth {
  return {
    baileysVersion: row?.baileysVersion ?? null,
    waWebVersion: row?.waWebVersion ?? null,
    lastReceivedAt: isoTime(row?.lastReceivedAt),
    lastAckedAt: isoTime(row?.lastAckedAt),
    lastDisconnect:
      row?.lastDisconnectReason && row.lastDisconnectAt != null
        ? {
            reason: row.lastDisconnectReason as ConnectionStatusReason,
            code: row.lastDisconnectCode ?? null,
            at: isoTime(row.lastDisconnectAt)!,
          }
        : null,
    restricted:
      row?.restrictedAt != null
        ? {
            since: isoTime(row.restrictedAt)!,
            until: isoTime(row.restrictedUntil),
            detail: row.restrictionDetail ?? null,
          }
        : null,
  }
}
