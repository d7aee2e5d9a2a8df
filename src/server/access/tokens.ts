import { createHmac, timingSafeEqual } from 'node:crypto'
import { sign } from 'hono/jwt'
import { AppError } from '../../shared/errors'
import type { Deps, UserActor } from '../context'

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000
export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000

export type AccessClaims = {
  sub: number
  cid: number
  sid: string
  profile: UserActor['profile']
  super: boolean
}

export async function signAccessToken(deps: Deps, claims: AccessClaims) {
  const iat = Math.floor(deps.clock.now() / 1000)
  return sign({ ...claims, iat, exp: iat + ACCESS_TOKEN_TTL_MS / 1000 }, deps.secrets.jwtSecret, 'HS256')
}

/**
 * Verifies the signature with the secret and the expiry with the injected clock.
 * Missing or forged: 401; expired: 403 ERR_SESSION_EXPIRED (the client refreshes and retries once).
 */
export async function verifyAccessToken(deps: Deps, token: string | undefined | null): Promise<AccessClaims> {
  if (!token) throw new AppError('ERR_NO_TOKEN', 'Sign in first')
  const payload = verifiedPayload(token, deps.secrets.jwtSecret)
  if (!payload) throw new AppError('ERR_INVALID_TOKEN', 'Invalid session token')
  const { sub, cid, sid, exp } = payload
  if (
    typeof sub !== 'number' ||
    typeof cid !== 'number' ||
    typeof sid !== 'string' ||
    typeof exp !== 'number'
  ) {
    throw new AppError('ERR_INVALID_TOKEN', 'Invalid session token')
  }
  if (exp * 1000 <= deps.clock.now()) throw new AppError('ERR_SESSION_EXPIRED', 'Session expired')
  return payload as unknown as AccessClaims
}

const HS256_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

/**
 * The payload of an HS256 token we signed, or null. Every request verifies one, so this is the short path
 * (a fixed header, one HMAC, a constant-time compare): about 1 µs against ~15 µs through hono/jwt's WebCrypto.
 */
export function verifiedPayload(token: string, secret: string): Record<string, unknown> | null {
  const [header, body, signature, extra] = token.split('.')
  if (header !== HS256_HEADER || !body || !signature || extra !== undefined) return null
  const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

export function newRefreshToken() {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

export function hashToken(token: string) {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex')
}
