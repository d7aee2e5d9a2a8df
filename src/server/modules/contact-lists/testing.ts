/**
 * Test helpers: zip files written by hand, so a test can build what no honest writer makes (a sheet that
 * inflates to hundreds of MB from a few hundred KB, sizes that lie).
 */

import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib'
import * as XLSX from '@e965/xlsx'

export type ZipEntry = {
  name: string
  /** The bytes as stored (deflated when method is 8). */
  stored: Uint8Array
  method: 0 | 8
  crc: number
  /** The uncompressed size the headers declare (the truth unless a test makes them lie). */
  size: number
}

const le = (n: number, bytes: number) => {
  const out = new Uint8Array(bytes)
  for (let i = 0; i < bytes; i++) out[i] = Math.floor(n / 2 ** (8 * i)) & 0xff
  return out
}

const concat = (parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** A zip of the entries: local headers and data, the central directory, the end record. */
export function zipOf(entries: ZipEntry[]): Uint8Array<ArrayBuffer> {
  const locals: Uint8Array[] = []
  const central: Uint8Array[] = []
  let offset = 0
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name)
    const common = [le(e.method, 2), le(0, 4), le(e.crc, 4), le(e.stored.length, 4), le(e.size, 4)]
    const local = concat([
      le(0x04034b50, 4),
      le(20, 2),
      le(0, 2),
      ...common,
      le(name.length, 2),
      le(0, 2),
      name,
    ])
    locals.push(local, e.stored)
    central.push(
      concat([
        le(0x02014b50, 4),
        le(20, 2),
        le(20, 2),
        le(0, 2),
        ...common,
        le(name.length, 2),
        le(0, 2),
        le(0, 2),
        le(0, 2),
        le(0, 2),
        le(0, 4),
        le(offset, 4),
        name,
      ]),
    )
    offset += local.length + e.stored.length
  }
  const directory = concat(central)
  const end = concat([
    le(0x06054b50, 4),
    le(0, 2),
    le(0, 2),
    le(entries.length, 2),
    le(entries.length, 2),
    le(directory.length, 4),
    le(offset, 4),
    le(0, 2),
  ])
  return concat([...locals, directory, end])
}

/** The entries of a zip SheetJS wrote (its entries are stored or deflated), inflated. */
export function unzip(zip: Uint8Array): { name: string; bytes: Uint8Array }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  let end = zip.length - 22
  while (view.getUint32(end, true) !== 0x06054b50) end--
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const out: { name: string; bytes: Uint8Array }[] = []
  for (let i = 0; i < count; i++) {
    const method = view.getUint16(at + 10, true)
    const compressed = view.getUint32(at + 20, true)
    const nameLength = view.getUint16(at + 28, true)
    const extra = view.getUint16(at + 30, true)
    const comment = view.getUint16(at + 32, true)
    const local = view.getUint32(at + 42, true)
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength))
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
    const data = zip.subarray(start, start + compressed)
    out.push({ name, bytes: method === 8 ? new Uint8Array(inflateRawSync(data)) : data.slice() })
    at += 46 + nameLength + extra + comment
  }
  return out
}

const stored = (name: string, bytes: Uint8Array): ZipEntry => ({
  name,
  stored: bytes,
  method: 0,
  crc: crc32(bytes),
  size: bytes.length,
})

/**
 * A real .xlsx (SheetJS's own, with a 'numero' header) whose first sheet's XML is padded with `megabytes` MB of
 * blanks inside <sheetData>: a few hundred KB on disk. The deflate stream is built from one deflated megabyte
 * repeated (full-flushed blocks can be concatenated), so the test never holds the expanded sheet. With
 * `lie`, the headers declare the sheet at 10 KB.
 */
export function bombXlsx(megabytes: number, lie = false): Uint8Array<ArrayBuffer> {
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ['nome', 'numero'],
      ['Ana', '5511988887777'],
    ]),
    'P',
  )
  const real = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer)
  const entries = unzip(real)
  const sheet = entries.find((e) => /^xl\/worksheets\/sheet1\.xml$/.test(e.name))
  if (!sheet) throw new Error('no sheet in the workbook SheetJS wrote')
  const xml = new TextDecoder().decode(sheet.bytes)
  const cut = xml.indexOf('</sheetData>')
  const head = new TextEncoder().encode(xml.slice(0, cut))
  const tail = new TextEncoder().encode(xml.slice(cut))
  const flush = { finishFlush: constants.Z_FULL_FLUSH }
  const blank = new Uint8Array(1024 * 1024).fill(0x20)
  const block = deflateRawSync(blank, flush)
  const parts: Uint8Array[] = [deflateRawSync(head, flush)]
  let crc = crc32(head)
  for (let i = 0; i < megabytes; i++) {
    parts.push(block)
    crc = crc32(blank, crc)
  }
  parts.push(deflateRawSync(tail))
  crc = crc32(tail, crc)
  const size = head.length + megabytes * blank.length + tail.length
  const bomb: ZipEntry = {
    name: sheet.name,
    stored: concat(parts),
    method: 8,
    crc,
    size: lie ? 10_000 : size,
  }
  return zipOf(entries.map((e) => (e === sheet ? bomb : stored(e.name, e.bytes))))
}
