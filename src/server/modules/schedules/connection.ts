import type { Database } from 'bun:sqlite'
import { stmt } from '../../db/statements'
import type { ScheduleRow } from './rows'

/** The connection a schedule sends from: its own, else the company's default (then its first); null if none. */
export function scheduleConnection(
  sqlite: Database,
  row: Pick<ScheduleRow, 'companyId' | 'whatsappId'>,
): number | null {
  if (row.whatsappId != null) {
    const own = stmt<{ id: number }, [number, number]>(
      sqlite,
      'SELECT id FROM whatsapps WHERE id = ? AND company_id = ?',
    ).get(row.whatsappId, row.companyId)
    if (own) return own.id
  }
  const fallback = stmt<{ id: number }, [number]>(
    sqlite,
    'SELECT id FROM whatsapps WHERE company_id = ? ORDER BY is_default DESC, id LIMIT 1',
  ).get(row.companyId)
  return fallback?.id ?? null
}
