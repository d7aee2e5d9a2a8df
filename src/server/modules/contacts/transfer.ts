/**
 * The contacts screen's spreadsheet export and import. The export carries name, number and email with the
 * numbers masked exactly as the reader sees them in the list (mask.ts). The import is a durable job with the
 * same rules as a contact list's (modules/contact-lists/imports.ts): a number key the company already has
 * updates that contact (name, and email when the row has one); a number repeated in the file is rejected.
 */
import { IMPORT_COLUMNS } from '../../../shared/contact-lists'
import { maskName, maskNumber, numberVisibility } from '../../access/mask'
import type { Ctx } from '../../context'

export type ExportFormat = 'csv' | 'xlsx'

const TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

export async function exportContacts(ctx: Ctx, format: ExportFormat) {
  const { writeSpreadsheet } = await import('../contact-lists/spreadsheet')
  const visibility = numberVisibility(ctx)
  const rows = ctx.sqlite
    .query<{ name: string; number: string | null; email: string }, [number]>(
      'SELECT name, number, email FROM contacts WHERE company_id = ? AND is_group = 0 ORDER BY name, id',
    )
    .all(ctx.actor.companyId)
  const grid: string[][] = [[...IMPORT_COLUMNS]]
  for (const r of rows)
    grid.push([
      maskName(r.name, r.number, visibility),
      r.number ? maskNumber(r.number, visibility) : '',
      r.email,
    ])
  const day = new Date(ctx.clock.now()).toISOString().slice(0, 10)
  return {
    bytes: writeSpreadsheet(grid, format),
    type: TYPES[format],
    fileName: `contatos-${day}.${format}`,
  }
}
