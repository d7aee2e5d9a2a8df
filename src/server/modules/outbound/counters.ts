/**
 * What a connection's number sent per day (`connection_send_counters`, `day` YYYY-MM-DD in the company's time
 * zone): every message the number hands to WhatsApp counts, whichever sender wrote it, because WhatsApp judges
 * the number, not the sender. The campaigns' daily cap, warm-up and longer pause read it.
 */
import type { Database } from 'bun:sqlite'
import { wallTimeOf } from '../../../shared/timezone'
import { stmt } from '../../db/statements'

export function dayOf(ms: number, timeZone: string) {
  const w = wallTimeOf(ms, timeZone)
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`
}

/** Adds `n` (may be negative: a claimed send that never left) to the number's count of the day. */
export function countSends(sqlite: Database, whatsappId: number, day: string, n: number) {
  stmt(
    sqlite,
    `INSERT INTO connection_send_counters (whatsapp_id, day, sent) VALUES (?1, ?2, max(?3, 0))
     ON CONFLICT (whatsapp_id, day) DO UPDATE SET sent = max(sent + ?3, 0)`,
  ).run(whatsappId, day, n)
}

export function sentOn(sqlite: Database, whatsappId: number, day: string) {
  return (
    stmt<{ sent: number }, [number, string]>(
      sqlite,
      'SELECT sent FROM connection_send_counters WHERE whatsapp_id = ? AND day = ?',
    ).get(whatsappId, day)?.sent ?? 0
  )
}

/** Days before `day` on which the number sent anything (the warm-up's age). */
export function sendingDaysBefore(sqlite: Database, whatsappId: number, day: string) {
  return stmt<{ n: number }, [number, string]>(
    sqlite,
    'SELECT count(*) AS n FROM connection_send_counters WHERE whatsapp_id = ? AND day < ? AND sent > 0',
  ).get(whatsappId, day)!.n
}
