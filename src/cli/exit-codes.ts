import { AppError } from '../shared/errors'

/** The CLI's exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  denied: 4,
  conflict: 5,
  unavailable: 6,
} as const

export function exitCodeOf(err: unknown): number {
  if (!(err instanceof AppError)) return EXIT.failure
  if (err.status === 400) return EXIT.usage
  if (err.status === 404) return EXIT.notFound
  if (err.status === 401 || err.status === 402 || err.status === 403) return EXIT.denied
  if (err.status === 409) return EXIT.conflict
  if (err.status === 502 || err.status === 503) return EXIT.unavailable
  return EXIT.failure
}
