import { Hono } from 'hono'
import { email as emailRule } from '../../../shared/schemas/common'
import { LoginThrottle } from '../../access/throttle'
import type { Clock } from '../../clock'
import type { AppEnv } from '../../http/env'
import { parse } from '../../http/validate'
import { reserveOrRefuse } from '../signup/throttle'
import { requestPasswordReset, resetPasswordWithCode } from './service'

const MINUTE = 60 * 1000

/**
 * Password recovery, public. Requests for a code: 10 per address and 3 per e-mail per 15 minutes. Resets:
 * 20 failures per address and 10 per e-mail per 15 minutes (besides each code's own limit of wrong guesses).
 */
export function passwordResetRoutes(clock: Clock) {
  const requestThrottle = new LoginThrottle(clock, {
    perAddressAccount: 3,
    perAddress: 10,
    windowMs: 15 * MINUTE,
    perAccount: 3,
    accountWindowMs: 15 * MINUTE,
  })
  const resetThrottle = new LoginThrottle(clock, {
    perAddressAccount: 10,
    perAddress: 20,
    windowMs: 15 * MINUTE,
    perAccount: 10,
    accountWindowMs: 15 * MINUTE,
  })
  const emailOf = (raw: string | undefined) => parse(emailRule.describe('an e-mail address'), raw ?? '')

  /** `/forgetpassword/{email}` */
  const forget = new Hono<AppEnv>().post('/:email', async (c) => {
    const email = emailOf(c.req.param('email'))
    reserveOrRefuse(c, requestThrottle, email)
    return c.json(await requestPasswordReset(c.get('deps'), email))
  })

  /** `/resetpasswords/{email}/{token}/{password}` */
  const reset = new Hono<AppEnv>().post('/:email/:token/:password', async (c) => {
    const email = emailOf(c.req.param('email'))
    const reservation = reserveOrRefuse(c, resetThrottle, email)
    const result = await resetPasswordWithCode(
      c.get('deps'),
      email,
      c.req.param('token'),
      c.req.param('password'),
    )
    resetThrottle.succeed(reservation)
    return c.json(result)
  })

  return { forget, reset }
}
