import { type Context, Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { loginBody } from '../../../shared/schemas/auth'
import type { LoginThrottle } from '../../access/throttle'
import { REFRESH_TOKEN_TTL_MS } from '../../access/tokens'
import { userActor } from '../../context'
import { authenticate, bearer, ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { clientAddress, isHttps } from '../../http/request'
import { parseBody } from '../../http/validate'
import { type Issued, login, logout, me, refresh } from './service'

/** The refresh token lives only in this httpOnly cookie, scoped to the auth routes. */
export const REFRESH_COOKIE = 'jrt'

export function authRoutes(throttle: LoginThrottle) {
  const withCookie = (c: Context<AppEnv>, issued: Issued) => {
    if (issued.refreshToken !== null)
      setCookie(c, REFRESH_COOKIE, issued.refreshToken, {
        httpOnly: true,
        sameSite: 'Strict',
        secure: isHttps(c),
        path: '/api/auth',
        maxAge: REFRESH_TOKEN_TTL_MS / 1000,
      })
    return c.json({ token: issued.token, user: issued.user })
  }

  return new Hono<AppEnv>()
    .post('/login', async (c) => {
      const body = await parseBody(c, loginBody)
      try {
        const issued = await login(c.get('deps'), throttle, {
          ...body,
          address: clientAddress(c),
          userAgent: c.req.header('user-agent'),
        })
        return withCookie(c, issued)
      } catch (err) {
        const retryAfter = (err as { details?: { retryAfter?: number } }).details?.retryAfter
        if (retryAfter) c.header('Retry-After', String(retryAfter))
        throw err
      }
    })
    .post('/refresh_token', async (c) =>
      withCookie(c, await refresh(c.get('deps'), getCookie(c, REFRESH_COOKIE))),
    )
    .delete('/logout', async (c) => {
      const deps = c.get('deps')
      const sessionId = await authenticate(deps, bearer(c.req.header('authorization')))
        .then((actor) => actor.sessionId)
        .catch(() => undefined)
      logout(deps, { sessionId, refreshToken: getCookie(c, REFRESH_COOKIE) })
      deleteCookie(c, REFRESH_COOKIE, { path: '/api/auth' })
      return c.body(null, 204)
    })
    .get('/me', requireAuth, (c) => c.json(me(c.get('deps'), userActor(ctxOf(c)).userId)))
}
