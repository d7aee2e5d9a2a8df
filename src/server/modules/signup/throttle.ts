import type { Context } from 'hono'
import { AppError } from '../../../shared/errors'
import type { LoginThrottle, Reservation } from '../../access/throttle'
import type { AppEnv } from '../../http/env'
import { clientAddress } from '../../http/request'

/**
 * Counts one request of a public route against a throttle (access/throttle.ts: per address, per account, and
 * per address and account), or answers 429 with Retry-After. The "account" is what the route protects: a
 * phone, an e-mail, or a fixed name for the whole route.
 */
export function reserveOrRefuse(c: Context<AppEnv>, throttle: LoginThrottle, account: string): Reservation {
  const attempt = throttle.reserve(clientAddress(c), account)
  if ('retryAfter' in attempt) {
    c.header('Retry-After', String(attempt.retryAfter))
    throw new AppError('ERR_TOO_MANY_ATTEMPTS', 'Too many requests. Try again later.', {
      retryAfter: attempt.retryAfter,
    })
  }
  return attempt.reservation
}
