/**
 * Spreadsheets in and out, with SheetJS (`@e965/xlsx`, the npm mirror of the current SheetJS release: it reads
 * both .xlsx and the legacy .xls (BIFF) that the spec's import accepts, and writes both for the sample). Files are
 * recognised by their first bytes, never by their name: a zip (xlsx) or an OLE compound file (xls). Loaded only
 * when a spreadsheet is read or written (`await import`), so the API's start does not parse SheetJS.
 */
import * as XLSX from '@e965/xlsx'
import { IMPORT_COLUMNS } from '../../../shared/contact-lists'
import { AppError } from '../../../shared/errors'

import { checkZipBounds, MAX_SPREADSHEET_BYTES, spreadsheetTooLarge } from './bounds'
import type { SheetRow } from './rows'

export { MAX_SPREADSHEET_BYTES }
/** The most rows an import takes. */
export const MAX_IMPORT_ROWS = 50_000

const XLSX_MAGIC = [0x50, 0x4b, 0x03, 0x04]
const XLS_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b)

export function spreadsheetKind(bytes: Uint8Array): 'xlsx' | 'xls' | null {
  if (startsWith(bytes, XLSX_MAGIC)) return 'xlsx'
  if (startsWith(bytes, XLS_MAGIC)) return 'xls'
  return null
}

const fileError = (message: string) =>
  new AppError('ERR_VALIDATION', message, undefined, [{ field: 'file', message }])

/** Header names each column is known by (lower case, accents removed). */
const HEADERS: Record<'name' | 'number' | 'email', string[]> = {
  name: ['nome', 'name', 'nombre'],
  number: ['numero', 'number', 'telefone', 'phone', 'celular', 'whatsapp', 'numero de telefone'],
  email: ['email', 'e-mail', 'correo', 'mail'],
}

const plain = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()

/** A cell as text: a whole number as its digits (never 5.5E+12), anything else as the sheet's text. */
function cellText(value: unknown): string {
  if (value == null) return ''
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return ''
    return Number.isInteger(value) ? value.toFixed(0) : String(value)
  }
  return String(value).trim()
}

/**
 * The rows of the first sheet: the first row names the columns (nome/numero/email or name/number/email, any
 * order); empty rows are skipped. A file that is not a spreadsheet, or has no number column, is a 400.
 */
export function readSpreadsheet(bytes: Uint8Array): SheetRow[] {
  if (bytes.byteLength === 0) throw fileError('The file is empty')
  if (bytes.byteLength > MAX_SPREADSHEET_BYTES)
    throw spreadsheetTooLarge(`The file is larger than ${MAX_SPREADSHEET_BYTES / (1024 * 1024)} MB`)
  const kind = spreadsheetKind(bytes)
  if (!kind) throw fileError('The file is not an .xls or .xlsx spreadsheet')
  // Before SheetJS inflates anything: a zip bomb is refused by what it would expand to.
  if (kind === 'xlsx') checkZipBounds(bytes)
  let book: XLSX.WorkBook
  try {
    book = XLSX.read(bytes, { type: 'array', dense: true, sheetRows: MAX_IMPORT_ROWS + 2, sheets: 0 })
  } catch {
    throw fileError('The spreadsheet could not be read')
  }
  const sheet = book.SheetNames[0] ? book.Sheets[book.SheetNames[0]] : undefined
  if (!sheet) throw fileError('The spreadsheet has no sheet')
  const grid = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
    header: 1,
    raw: true,
    defval: null,
    blankrows: true,
  })
  const header = (grid[0] ?? []).map((h) => plain(cellText(h)))
  const col = (names: string[]) => header.findIndex((h) => names.includes(h))
  const at = { name: col(HEADERS.name), number: col(HEADERS.number), email: col(HEADERS.email) }
  if (at.number < 0) throw fileError(`The first row must name the columns: ${IMPORT_COLUMNS.join(', ')}`)
  if (grid.length - 1 > MAX_IMPORT_ROWS) throw fileError(`At most ${MAX_IMPORT_ROWS} rows per import`)
  const rows: SheetRow[] = []
  for (let i = 1; i < grid.length; i++) {
    const cells = grid[i] ?? []
    const pick = (j: number) => (j < 0 ? '' : cellText(cells[j]))
    const row = { row: i + 1, name: pick(at.name), number: pick(at.number), email: pick(at.email) }
    if (row.name || row.number || row.email) rows.push(row)
  }
  return rows
}

/**
 * A CSV cell a spreadsheet program would run as a formula (first character =, +, -, @, tab or carriage return)
 * gets a leading quote, so it opens as the text it is. An .xlsx needs none: its cells are typed strings, never
 * formulas.
 */
export function inertCsvCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

/** A workbook of one sheet from rows of text (the first row is the header). */
export function writeSpreadsheet(rows: string[][], bookType: 'xlsx' | 'xls' | 'csv', sheetName = 'Contatos') {
  const sheet = XLSX.utils.aoa_to_sheet(bookType === 'csv' ? rows.map((row) => row.map(inertCsvCell)) : rows)
  // Numbers stay text: a spreadsheet would otherwise show a long number as 5.5E+12.
  for (const key of Object.keys(sheet)) {
    const cell = sheet[key] as XLSX.CellObject | undefined
    if (key[0] !== '!' && cell?.t === 's') cell.z = '@'
  }
  if (bookType === 'csv') return new TextEncoder().encode(`\ufeff${XLSX.utils.sheet_to_csv(sheet)}`)
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, sheet, sheetName)
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType }) as ArrayBuffer)
}

/** The sample the lists screen offers: the three columns and two example rows. */
export function sampleSpreadsheet(): Uint8Array {
  return writeSpreadsheet(
    [
      [...IMPORT_COLUMNS],
      ['Maria Silva', '5511988887777', 'maria@exemplo.com'],
      ['João Souza', '5521977776666', ''],
    ],
    'xlsx',
  )
}
