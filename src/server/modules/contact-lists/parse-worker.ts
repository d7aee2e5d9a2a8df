/**
 * The spreadsheet parser's thread: SheetJS reads a whole workbook synchronously (about 200 ms for 10,000 rows,
 * up to a second at the 8 MB limit), so the upload hands the file's bytes here (transferred, not copied) and the
 * API's event loop goes on serving. One message in (the file's ArrayBuffer), one out: the rows, or the error
 * readSpreadsheet raised (an AppError's code, message and field errors, rebuilt on the other side).
 * It is its own entrypoint of the executable (scripts/build.ts); parse.ts starts it.
 */
import { AppError } from '../../../shared/errors'
import type { ParseReply } from './parse'
import { readSpreadsheet } from './spreadsheet'

declare const self: Worker

self.onmessage = (event: MessageEvent<ArrayBuffer>) => {
  let reply: ParseReply
  try {
    reply = { ok: true, rows: readSpreadsheet(new Uint8Array(event.data)) }
  } catch (err) {
    reply =
      err instanceof AppError
        ? { ok: false, code: err.code, message: err.message, fields: err.fields }
        : { ok: false, message: (err as Error)?.message ?? String(err) }
  }
  self.postMessage(reply)
}
