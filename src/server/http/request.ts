import type { Context } from 'hono'
import type { AppEnv } from './env'

/**
 * `BALCAO_TRUST_PROXY`: unset or `0` trusts no proxy; `1` (or `true`/`yes`) one proxy in front; `N` a chain
 * of N proxies, each appending the address it saw to X-Forwarded-For.
 */
export function proxyHops(value: string | undefined): number {
  const text = value?.trim().toLowerCase()
  if (!text) return 0
  if (text === 'true' || text === 'yes') return 1
  return /^\d{1,2}$/.test(text) ? Number(text) : 0
}

function hopsOf(trustProxy: boolean | number): number {
  if (trustProxy === true) return 1
  return typeof trustProxy === 'number' && trustProxy > 0 ? Math.floor(trustProxy) : 0
}

/**
 * The address a trusted proxy saw. Each proxy appends the address it received the request from, so with
 * N proxies the client is the Nth entry from the right; anything to its left was written by the client
 * and would let anyone choose their own throttling key.
 */
export function forwardedAddress(header: string | undefined, hops: number): string | undefined {
  if (!header || hops < 1) return undefined
  const entries = header
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  if (entries.length === 0) return undefined
  // Fewer entries than proxies: every entry was appended by one of ours, and the leftmost is the furthest.
  return entries[Math.max(0, entries.length - hops)]
}

/** The caller's address: the socket's, or the one the trusted proxy recorded. */
export function clientAddress(c: Context<AppEnv>): string {
  const forwarded = forwardedAddress(c.req.header('x-forwarded-for'), hopsOf(c.get('deps').trustProxy))
  if (forwarded) return forwarded
  return c.env?.server?.requestIP(c.req.raw)?.address ?? 'local'
}

export function isHttps(c: Context<AppEnv>): boolean {
  if (hopsOf(c.get('deps').trustProxy) > 0 && c.req.header('x-forwarded-proto') === 'https') return true
  return new URL(c.req.url).protocol === 'https:'
}
