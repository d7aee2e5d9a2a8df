/**
 * Parses an uploaded spreadsheet on a worker thread (parse-worker.ts), so a large file never blocks the API's
 * event loop. One short-lived worker per file: it is terminated when it answers, fails or runs past the timeout,
 * so a pathological workbook cannot hold a thread.
 */
import { AppError, type ErrorCode, type FieldError } from '../../../shared/errors'
import type { SheetRow } from './rows'

export type ParseReply =
  | { ok: true; rows: SheetRow[] }
  | { ok: false; code?: ErrorCode; message: string; fields?: FieldError[] }

/** Generous: the 8 MB limit parses in about a second. */
export const PARSE_TIMEOUT_MS = 30_000

const unreadable = () =>
  new AppError('ERR_VALIDATION', 'The spreadsheet could not be read', undefined, [
    { field: 'file', message: 'The spreadsheet could not be read' },
  ])

/** The rows of the file (see readSpreadsheet); the buffer is transferred to the worker and unusable after. */
export function parseSpreadsheet(buffer: ArrayBuffer, timeoutMs = PARSE_TIMEOUT_MS): Promise<SheetRow[]> {
  return new Promise<SheetRow[]>((resolve, reject) => {
    // The documented form for `bun build --compile`: the worker is an entrypoint of the executable too.
    const worker = new Worker(new URL('./parse-worker.ts', import.meta.url).href)
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      worker.terminate()
      fn()
    }
    const timer = setTimeout(() => settle(() => reject(unreadable())), timeoutMs)
    worker.onmessage = (event: MessageEvent<ParseReply>) => {
      const reply = event.data
      settle(() => {
        if (reply.ok) resolve(reply.rows)
        else if (reply.code) reject(new AppError(reply.code, reply.message, undefined, reply.fields))
        else reject(new Error(`spreadsheet parser failed: ${reply.message}`))
      })
    }
    worker.onerror = (event) => settle(() => reject(new Error(`spreadsheet parser failed: ${event.message}`)))
    worker.postMessage(buffer, [buffer])
  })
}
