import { Hono } from 'hono'
import {
  normalizePhone,
  signupBody,
  signupCodeIssueBody,
  signupCodeRequestBody,
} from '../../../shared/schemas/signup'
import { LoginThrottle } from '../../access/throttle'
import type { Clock } from '../../clock'
import { ctxOf, requireAuth, requireSuper } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parseBody, pathId } from '../../http/validate'
import { getCompanyWithPlan, issueSignupCode, requestSignupCode, signUp } from './service'
import { reserveOrRefuse } from './throttle'

const MINUTE = 60 * 1000

/**
 * Public sign-up. Code requests are counted per address (10 per 15 minutes) and per phone (3 per 15
 * minutes, whatever the address); sign-ups per address (10 failures per 15 minutes) and, across every
 * address, 100 failures per 15 minutes, so a million codes cannot be tried from many addresses either.
 */
export function signupRoutes(clock: Clock) {
  const codeThrottle = new LoginThrottle(clock, {
    perAddressAccount: 3,
    perAddress: 10,
    windowMs: 15 * MINUTE,
    perAccount: 3,
    accountWindowMs: 15 * MINUTE,
  })
  const signupThrottle = new LoginThrottle(clock, {
    perAddressAccount: 10,
    perAddress: 10,
    windowMs: 15 * MINUTE,
    perAccount: 100,
    accountWindowMs: 15 * MINUTE,
  })

  /** `/signup`: codes. */
  const codes = new Hono<AppEnv>()
    .post('/code', async (c) => {
      const { phone } = await parseBody(c, signupCodeRequestBody)
      reserveOrRefuse(c, codeThrottle, normalizePhone(phone) ?? phone)
      // Not awaited: the answer is the same whether a message goes or not.
      void requestSignupCode(c.get('deps'), phone)
      return c.json({ status: 'accepted' }, 202)
    })
    .post('/codes', requireAuth, requireSuper, async (c) => {
      const { phone } = await parseBody(c, signupCodeIssueBody)
      return c.json(issueSignupCode(c.get('deps'), 'super', phone ? normalizePhone(phone) : null), 201)
    })

  /** `/companies`: mounted before the companies area, whose routes all need a signed-in super user. */
  const companies = new Hono<AppEnv>()
    .post('/cadastro', async (c) => {
      const body = await parseBody(c, signupBody)
      const reservation = reserveOrRefuse(c, signupThrottle, 'signup')
      const company = await signUp(c.get('deps'), body)
      signupThrottle.succeed(reservation)
      return c.json(company, 201)
    })
    .get('/listPlan/:id', requireAuth, (c) =>
      c.json(getCompanyWithPlan(ctxOf(c), pathId(c, 'ERR_NO_COMPANY_FOUND'))),
    )

  return { codes, companies }
}
