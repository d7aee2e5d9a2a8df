import type { Context } from 'hono'
import type { AppEnv } from './env'

/** The caller's address: the socket's, or the proxy's X-Forwarded-For when the proxy is trusted. */
export function clientAddress(c: Context<AppEnv>): string {
  if (c.get('deps').trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return c.env?.server?.requestIP(c.req.raw)?.address ?? 'local'
}

export function isHttps(c: Context<AppEnv>): boolean {
  if (c.get('deps').trustProxy && c.req.header('x-forwarded-proto') === 'https') return true
  return new URL(c.req.url).protocol === 'https:'
}
