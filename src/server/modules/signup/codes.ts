import { createHmac, randomInt } from 'node:crypto'
import type { Secrets } from '../../secrets'

/**
 * One-time codes (sign-up, password recovery): six random digits, stored only as an HMAC keyed by the
 * server's secret and the code's purpose, so a copy of the database does not give the codes away (a plain
 * hash of six digits is undone by trying all million).
 */
export type CodePurpose = 'signup' | 'password-reset'

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

export function codeHash(secrets: Pick<Secrets, 'jwtSecret'>, purpose: CodePurpose, code: string): string {
  return createHmac('sha256', secrets.jwtSecret).update(`${purpose}:${code}`).digest('hex')
}
