import type { Database } from 'bun:sqlite'
import { AppError, fieldError } from '../../shared/errors'
import type { Deps, UserActor } from '../context'
import { LoginThrottle } from './throttle'

/**
 * Guesses of the current password through a stolen session are throttled like sign-ins, keyed by the
 * session. One throttle per database, i.e. per running app, made on first need.
 */
const throttles = new WeakMap<Database, LoginThrottle>()

function throttleOf(deps: Pick<Deps, 'sqlite' | 'clock'>) {
  let throttle = throttles.get(deps.sqlite)
  if (!throttle) {
    throttle = new LoginThrottle(deps.clock)
    throttles.set(deps.sqlite, throttle)
  }
  return throttle
}

/**
 * A user changing their own password or e-mail proves they know the current password, so a session left
 * open (or stolen) cannot take the account over. Missing: 400; wrong: 403; too many wrong: 429.
 */
export async function assertCurrentPassword(
  deps: Pick<Deps, 'sqlite' | 'clock'>,
  actor: UserActor,
  user: { email: string; passwordHash: string },
  currentPassword: string | undefined,
) {
  if (!currentPassword) {
    throw fieldError(
      'currentPassword',
      'Enter your current password to change your password or e-mail',
      'ERR_CURRENT_PASSWORD_REQUIRED',
    )
  }
  const attempt = throttleOf(deps).reserve(`session:${actor.sessionId}`, user.email)
  if ('retryAfter' in attempt) {
    const message = 'Too many wrong passwords. Try again later.'
    throw new AppError('ERR_TOO_MANY_ATTEMPTS', message, { retryAfter: attempt.retryAfter }, [
      { field: 'currentPassword', message },
    ])
  }
  if (!(await Bun.password.verify(currentPassword, user.passwordHash))) {
    throw fieldError('currentPassword', 'The current password is wrong', 'ERR_INVALID_CURRENT_PASSWORD')
  }
  throttleOf(deps).succeed(attempt.reservation)
}
