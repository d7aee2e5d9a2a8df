/** Spreadsheet rows as the imports apply them, and the spec's rules for one (no spreadsheet library here). */
import type { ImportRejection } from '../../../shared/contact-lists'
import { normalizeNumber, numberKey } from '../../../shared/numbers'

/** A data row as read: its row number in the sheet (1 is the header) and the three texts. */
export type SheetRow = { row: number; name: string; number: string; email: string }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** A row checked: the values to store, or why it is refused (spec 2's rules for an item). */
export function checkRow(
  r: SheetRow,
): { ok: true; name: string; key: string; email: string } | { ok: false; rejection: ImportRejection } {
  const refuse = (field: ImportRejection['field'], reason: ImportRejection['reason']) => ({
    ok: false as const,
    rejection: { row: r.row, field, reason },
  })
  const name = r.name.trim()
  if (!name) return refuse('name', 'required')
  if (name.length < 2) return refuse('name', 'tooShort')
  if (name.length > 50) return refuse('name', 'tooLong')
  if (!r.number.trim()) return refuse('number', 'required')
  if (r.number.length > 50) return refuse('number', 'tooLong')
  const digits = normalizeNumber(r.number)
  if (!digits) return refuse('number', 'invalid')
  if (digits.length < 8) return refuse('number', 'tooShort')
  const email = r.email.trim().toLowerCase()
  if (email && (email.length > 120 || !EMAIL.test(email))) return refuse('email', 'invalid')
  return { ok: true, name, key: numberKey(digits), email }
}
