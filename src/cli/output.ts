import { AppError } from '../shared/errors'
import { exitCodeOf } from './exit-codes'
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

/** Prints an error the same two ways and exits with the code its kind maps to. */
export function fail(options: { json?: boolean }, err: unknown): never {
  const code = err instanceof AppError ? err.code : 'ERR_INTERNAL'
  const message = err instanceof Error ? err.message : String(err)
  if (wantsJson(options)) process.stdout.write(`${JSON.stringify({ error: code, message })}\n`)
  else process.stderr.write(`✖ ${message}${err instanceof AppError ? ` (${code})` : ''}\n`)
  process.exit(exitCodeOf(err))
}
