/**
 * The connections part of `balcao doctor`: each connection's last state and health (channels/health.ts), read
 * in one query however many connections there are, and told in a few terminal lines each.
 */
import type { Database } from 'bun:sqlite'
import type { ConnectionHealth } from '../../shared/api'
import { HEALTH_COLUMNS, type HealthSource, toHealth } from '../channels/health'

export type ConnectionReport = {
  id: number
  company: string
  name: string
  status: string
  statusReason: string | null
} & ConnectionHealth

type Row = {
  id: number
  company: string
  name: string
  status: string
  statusReason: string | null
} & HealthSource

/** Every connection of the database with its health, by id (a database before the health migration: none). */
export function connectionReports(db: Database): ConnectionReport[] {
  const hasHealth = !!db
    .query<{ name: string }, []>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'whatsapp_health'`,
    )
    .get()
  const rows = db
    .query<Row, []>(
      `SELECT w.id, w.name, w.status, w.status_reason AS statusReason, c.name AS company,
              ${hasHealth ? HEALTH_COLUMNS : 'NULL AS baileysVersion'}
         FROM whatsapps w JOIN companies c ON c.id = w.company_id
         ${
           hasHealth
             ? `LEFT JOIN whatsapp_health h ON h.whatsapp_id = w.id
                LEFT JOIN connection_doors d ON d.whatsapp_id = w.id`
             : ''
         }
        ORDER BY w.id`,
    )
    .all()
  return rows.map(({ id, company, name, status, statusReason, ...facts }) => ({
    id,
    company,
    name,
    status,
    statusReason,
    ...toHealth({ ...emptyFacts, ...facts }),
  }))
}

const emptyFacts: HealthSource = {
  baileysVersion: null,
  waWebVersion: null,
  lastReceivedAt: null,
  lastAckedAt: null,
  lastDisconnectReason: null,
  lastDisconnectCode: null,
  lastDisconnectAt: null,
  restrictedAt: null,
  restrictedUntil: null,
  restrictionDetail: null,
}

/** "3 min ago", "in 2 h", "never". */
export function ago(iso: string | null, now: number) {
  if (!iso) return 'never'
  const ms = now - Date.parse(iso)
  const abs = Math.abs(ms)
  const span =
    abs < 60_000
      ? `${Math.round(abs / 1000)} s`
      : abs < 3_600_000
        ? `${Math.round(abs / 60_000)} min`
        : abs < 172_800_000
          ? `${Math.round(abs / 3_600_000)} h`
          : `${Math.round(abs / 86_400_000)} d`
  return ms >= 0 ? `${span} ago` : `in ${span}`
}

/** The health lines of a connection, under its status line. */
export function healthLines(c: ConnectionHealth, now: number): string[] {
  const lines = [
    c.baileysVersion || c.waWebVersion
      ? `Baileys ${c.baileysVersion ?? '?'}, WhatsApp Web ${c.waWebVersion ?? '?'}`
      : 'versions: not connected yet on this server',
    `last received ${ago(c.lastReceivedAt, now)}, last send acknowledged ${ago(c.lastAckedAt, now)}`,
    c.lastDisconnect
      ? `last disconnect: ${c.lastDisconnect.reason.replaceAll('_', ' ')}${
          c.lastDisconnect.code != null ? ` (${c.lastDisconnect.code})` : ''
        }, ${ago(c.lastDisconnect.at, now)}`
      : 'last disconnect: none recorded',
  ]
  if (c.restricted) {
    const until = c.restricted.until ? `, until ${c.restricted.until} (${ago(c.restricted.until, now)})` : ''
    const why = c.restricted.detail ? `: ${c.restricted.detail}` : ''
    lines.push(`SENDS RESTRICTED since ${ago(c.restricted.since, now)}${until}${why}`)
  } else lines.push('sends not restricted')
  return lines
}
