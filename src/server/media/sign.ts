import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Deps } from '../context'

/** How long a media link lives by default. */
export const MEDIA_URL_TTL_MS = 6 * 60 * 60 * 1000
/**
 * Expiry times are rounded up to this step, so the same file keeps the same link for a while and the
 * browser's cache serves it across list reloads.
 */
const EXPIRY_STEP_MS = 60 * 60 * 1000

function signature(key: string, companyId: number, path: string, exp: number) {
  return createHmac('sha256', key).update(`media:${companyId}/${path}:${exp}`).digest('base64url')
}

/**
 * A signed, expiring link to a stored file: `/api/media/<companyId>/<file>?exp=<epoch s>&sig=<HMAC>`. Only
 * the server can make one (HMAC-SHA256 with the data folder's URL signing key); `<img>` and `<audio>` tags
 * load it without a bearer token.
 */
export function signedMediaUrl(
  deps: Pick<Deps, 'secrets' | 'clock'>,
  companyId: number,
  path: string,
  ttlMs = MEDIA_URL_TTL_MS,
) {
  const expMs = Math.ceil((deps.clock.now() + ttlMs) / EXPIRY_STEP_MS) * EXPIRY_STEP_MS
  const exp = Math.floor(expMs / 1000)
  const sig = signature(deps.secrets.urlSigningKey, companyId, path, exp)
  return `/api/media/${companyId}/${path}?exp=${exp}&sig=${sig}`
}

export type LinkCheck = 'ok' | 'invalid' | 'expired'

/** Checks a link's signature (in constant time) and then its expiry. */
export function checkMediaLink(
  deps: Pick<Deps, 'secrets' | 'clock'>,
  companyId: number,
  path: string,
  exp: string | undefined,
  sig: string | undefined,
): LinkCheck {
  if (!exp || !/^\d{1,12}$/.test(exp) || !sig || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return 'invalid'
  const expected = Buffer.from(signature(deps.secrets.urlSigningKey, companyId, path, Number(exp)))
  const given = Buffer.from(sig)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid'
  return Number(exp) * 1000 <= deps.clock.now() ? 'expired' : 'ok'
}
