/** Reads the payload of a JWT without verifying it (the server verifies; the client only needs `sid`/`exp`). */
export function decodeJwtPayload(token: string | null | undefined): Record<string, unknown> | null {
  const part = token?.split('.')[1]
  if (!part) return null
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=')
    const json = decodeURIComponent(
      Array.from(atob(base64), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
    )
    const payload = JSON.parse(json)
    return payload && typeof payload === 'object' ? payload : null
  } catch {
    return null
  }
}

/** True when the token's `exp` is within `skewSeconds` of now (or the token is unreadable). */
export function tokenExpiresSoon(
  token: string | null | undefined,
  skewSeconds = 30,
  now = Date.now(),
): boolean {
  const exp = decodeJwtPayload(token)?.exp
  if (typeof exp !== 'number') return true
  return exp * 1000 - now < skewSeconds * 1000
}
