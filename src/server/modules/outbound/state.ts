/**
 * The door's memory in `connection_doors` (one row per connection): its pace (when the number last sent) and its
 * restriction, read back when a door is made, so a restart neither forgets a restriction nor lets the number's
 * next campaign message go sooner than its pace allows.
 */
import type { Database } from 'bun:sqlite'
import { stmt } from '../../db/statements'

export type DoorState = {
  lastSentAt: number | null
  restriction: Restriction | null
}

/** Since when, why, and until when if WhatsApp said (its reach-out time lock). */
export type Restriction = { at: number; detail: string; until?: number | null }

export function readDoorState(sqlite: Database, whatsappId: number): DoorState {
  const row = stmt<
    { lastSentAt: number | null; restrictedAt: number | null; until: number | null; detail: string | null },
    [number]
  >(
    sqlite,
    `SELECT last_sent_at AS lastSentAt, restricted_at AS restrictedAt, restricted_until AS until,
            restriction_detail AS detail
       FROM connection_doors WHERE whatsapp_id = ?`,
  ).get(whatsappId)
  return {
    lastSentAt: row?.lastSentAt ?? null,
    restriction:
      row?.restrictedAt != null ? { at: row.restrictedAt, detail: row.detail ?? '', until: row.until } : null,
  }
}

export function saveLastSent(sqlite: Database, whatsappId: number, at: number) {
  stmt(
    sqlite,
    `INSERT INTO connection_doors (whatsapp_id, last_sent_at) VALUES (?1, ?2)
     ON CONFLICT (whatsapp_id) DO UPDATE SET last_sent_at = ?2`,
  ).run(whatsappId, at)
}

/** Records the restriction (null: lifted). */
export function saveRestriction(sqlite: Database, whatsappId: number, restriction: Restriction | null) {
  stmt(
    sqlite,
    `INSERT INTO connection_doors (whatsapp_id, restricted_at, restriction_detail, restricted_until)
     VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (whatsapp_id) DO UPDATE SET restricted_at = ?2, restriction_detail = ?3, restricted_until = ?4`,
  ).run(whatsappId, restriction?.at ?? null, restriction?.detail ?? null, restriction?.until ?? null)
}
