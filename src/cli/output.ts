import { AppError } from '../shared/errors'
import { exitCodeOf } from './exit-codes'
import { OperatorError } from './operator-client'
import type { ResultView } from './ui/result'

/** JSON when asked, or when stdout is not a terminal; otherwise a screen drawn with Ink. */
export function wantsJson(options: { json?: boolean }) {
  return !!options.json || !process.stdout.isTTY
}

/** Prompts only on a terminal and outside CI. */
export function canPrompt() {
  return !!process.stdin.isTTY && !!process.stdout.isTTY && !process.env.CI
}

// Type-only: the Ink screen itself loads when a result is drawn.
export type { ResultView } from './ui/result'

export async function printResult(options: { json?: boolean }, data: unknown, view: ResultView) {
  if (wantsJson(options)) {
    process.stdout.write(`${JSON.stringify(data)}\n`)
    return
  }
  const { renderResult } = await import('./ui/result')
  await renderResult(view)
}

/** What a failure prints: `{ error, message, fields? }`, and the exit code its kind maps to. */
export function errorReport(err: unknown) {
  const known = err instanceof AppError || err instanceof OperatorError
  const code = known ? err.code : 'ERR_INTERNAL'
  const message = err instanceof Error ? err.message : String(err)
  const fields = known && err.fields?.length ? err.fields : undefined
  const exitCode = err instanceof OperatorError ? err.exitCode : exitCodeOf(err)
  return { body: { error: code, message, ...(fields ? { fields } : {}) }, known, exitCode }
}

/**
 * Prints an error on STDERR (one JSON object with `--json` or off a terminal, one line otherwise) and exits with
 * the documented code: 1 failure, 2 usage, 3 not found, 4 denied, 5 conflict, 6 unavailable.
 */
export function fail(options: { json?: boolean }, err: unknown): never {
  const { body, known, exitCode } = errorReport(err)
  if (wantsJson(options)) process.stderr.write(`${JSON.stringify(body)}\n`)
  else process.stderr.write(`✖ ${body.message}${known ? ` (${body.error})` : ''}\n`)
  process.exit(exitCode)
}
