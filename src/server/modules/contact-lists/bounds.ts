/**
 * What an uploaded spreadsheet may cost before SheetJS reads it. SheetJS inflates every entry of an .xlsx whole,
 * into memory, whatever sizes the zip declares, so a 1 MB file whose sheet inflates to gigabytes took the server
 * with it. An .xlsx is checked here first: its central directory (entry count, declared sizes and ratios), then
 * each entry inflated for real with a byte cap, read the way SheetJS reads it (parse_zip in its cfb code: the last
 * end-of-directory record, each entry's deflate stream from its local header), so a zip whose sizes lie is
 * measured by what it inflates to. A legacy .xls (an OLE compound file) is not compressed: the file size bounds it.
 * Imported by the parser's worker only (spreadsheet.ts): the inflating never runs on the API's event loop.
 */
import { inflateRawSync } from 'node:zlib'
import { AppError } from '../../../shared/errors'

/** The largest file read (bytes). */
export const MAX_SPREADSHEET_BYTES = 8 * 1024 * 1024
/**
 * The most an .xlsx may inflate to, all entries together: 50,000 rows of three columns (MAX_IMPORT_ROWS) are
 * about 10 MB; SheetJS holds several times the expanded size while it reads, so the bound is kept close.
 */
export const MAX_EXPANDED_BYTES = 20 * 1024 * 1024
/** A workbook has a dozen entries, one per sheet beyond; thousands only serve to multiply the work. */
export const MAX_ZIP_ENTRIES = 1000
/** The most one large entry may expand over its compressed size; real sheets stay well under 100. */
export const MAX_ZIP_RATIO = 200
/** Entries smaller than this are not held to the ratio (a tiny repetitive XML part compresses very well). */
const RATIO_FLOOR_BYTES = 1024 * 1024

const MB = (n: number) => `${Math.round(n / (1024 * 1024))} MB`

export const spreadsheetTooLarge = (message: string) =>
  new AppError('ERR_SPREADSHEET_TOO_LARGE', message, { limit: MAX_EXPANDED_BYTES }, [
    { field: 'file', message },
  ])

const unreadable = () =>
  new AppError('ERR_VALIDATION', 'The spreadsheet could not be read', undefined, [
    { field: 'file', message: 'The spreadsheet could not be read' },
  ])

const u16 = (b: Uint8Array, at: number) => (at + 2 <= b.length ? b[at]! | (b[at + 1]! << 8) : -1)
const u32 = (b: Uint8Array, at: number) =>
  at + 4 <= b.length ? (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0 : -1

/** Where the end-of-central-directory record starts: the last one in the file, as SheetJS finds it. */
function endOfDirectory(b: Uint8Array): number {
  for (let i = b.length - 22; i >= 0; i--)
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 0x05 && b[i + 3] === 0x06) return i
  return -1
}

/**
 * Refuses an .xlsx (zip) that holds too many entries or expands past MAX_EXPANDED_BYTES, with
 * ERR_SPREADSHEET_TOO_LARGE (413); a zip whose directory cannot be walked is a 400.
 */
export function checkZipBounds(b: Uint8Array): void {
  const end = endOfDirectory(b)
  if (end < 0) throw unreadable()
  const count = u16(b, end + 8)
  const directory = u32(b, end + 16)
  if (count > MAX_ZIP_ENTRIES)
    throw spreadsheetTooLarge(`The spreadsheet has more than ${MAX_ZIP_ENTRIES} parts`)
  // First what the directory declares (cheap, and enough for an honest bomb)...
  const entries: { compressed: number; local: number }[] = []
  let declared = 0
  let at = directory
  for (let i = 0; i < count; i++) {
    const compressed = u32(b, at + 20)
    const expanded = u32(b, at + 24)
    const nameLength = u16(b, at + 28)
    const extraLength = u16(b, at + 30)
    const commentLength = u16(b, at + 32)
    const local = u32(b, at + 42)
    if (compressed < 0 || expanded < 0 || commentLength < 0 || local < 0) throw unreadable()
    // 0xFFFFFFFF sizes defer to a ZIP64 record: no workbook of MAX_SPREADSHEET_BYTES needs one.
    if (compressed === 0xffffffff || expanded === 0xffffffff)
      throw spreadsheetTooLarge('The spreadsheet is too large')
    declared += expanded
    if (declared > MAX_EXPANDED_BYTES)
      throw spreadsheetTooLarge(`The spreadsheet expands to more than ${MB(MAX_EXPANDED_BYTES)}`)
    if (expanded > RATIO_FLOOR_BYTES && expanded > MAX_ZIP_RATIO * Math.max(compressed, 1))
      throw spreadsheetTooLarge('The spreadsheet is compressed beyond what a real one is')
    entries.push({ compressed, local })
    at += 46 + nameLength + extraLength + commentLength
  }
  // ...then what the entries really inflate to, capped: declared sizes are the sender's word.
  let inflated = 0
  for (const entry of entries) {
    const method = u16(b, entry.local + 8)
    const localName = u16(b, entry.local + 26)
    const localExtra = u16(b, entry.local + 28)
    if (method < 0 || localName < 0 || localExtra < 0) throw unreadable()
    const start = entry.local + 30 + localName + localExtra
    if (start > b.length) throw unreadable()
    if (method === 0) {
      inflated += Math.min(u32(b, entry.local + 18), b.length - start)
    } else if (method === 8) {
      const room = MAX_EXPANDED_BYTES - inflated
      let size: number
      try {
        size = inflateRawSync(b.subarray(start), { maxOutputLength: Math.max(room, 1) }).byteLength
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          throw spreadsheetTooLarge(`The spreadsheet expands to more than ${MB(MAX_EXPANDED_BYTES)}`)
        throw unreadable()
      }
      if (size > RATIO_FLOOR_BYTES && size > MAX_ZIP_RATIO * Math.max(entry.compressed, 1))
        throw spreadsheetTooLarge('The spreadsheet is compressed beyond what a real one is')
      inflated += size
    } else {
      throw unreadable()
    }
    if (inflated > MAX_EXPANDED_BYTES)
      throw spreadsheetTooLarge(`The spreadsheet expands to more than ${MB(MAX_EXPANDED_BYTES)}`)
  }
}
