/**
 * The spreadsheet of an upload request: the contact lists' import and the contacts' import (contacts/routes.ts)
 * read it the same way, so it lives apart from either area's routes.
 */
import type { Context } from 'hono'
import { AppError } from '../../../shared/errors'
import { readForm } from '../../media/upload'
import { MAX_SPREADSHEET_BYTES, spreadsheetTooLarge } from './bounds'
import { parseSpreadsheet } from './parse'

/** The one spreadsheet of a multipart form (field `file`), read into rows off the main thread; anything else is a 400. */
export async function readUploadedSheet(c: Context) {
  const form = await readForm(c)
  const files = form.getAll('file').filter((v): v is File => typeof v !== 'string')
  if (files.length !== 1 || form.getAll('file').length !== 1)
    throw new AppError('ERR_VALIDATION', 'Send exactly one file', undefined, [
      { field: 'file', message: 'must be exactly one .xls or .xlsx file' },
    ])
  const file = files[0]!
  if (file.size > MAX_SPREADSHEET_BYTES)
    throw spreadsheetTooLarge(`The file is larger than ${MAX_SPREADSHEET_BYTES / (1024 * 1024)} MB`)
  // Parsed on a worker thread: SheetJS is synchronous and a large file would block every other request.
  const rows = await parseSpreadsheet(await file.arrayBuffer())
  return {
    rows,
    name: [...(file.name || 'planilha')]
      .map((ch) => (ch < ' ' || ch === '/' || ch === '\\' ? '_' : ch))
      .join(''),
  }
}
