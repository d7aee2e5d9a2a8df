/**
 * Secrets kept in the database (SMTP credentials, the payment webhook's secret, AI keys) are sealed with
 * AES-256-GCM under the data folder's `sealingKey` (secrets.json, mode 600): a copy of the database alone
 * does not reveal them, and a tampered value fails to open instead of being used.
 *   const stored = seal(deps.secrets, 'smtp://user:pass@host')   // 'v1:…'
 *   open(deps.secrets, stored)                                    // the text, or null when it cannot be opened
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import type { Secrets } from '../secrets'

const PREFIX = 'v1:'
const IV_BYTES = 12
const TAG_BYTES = 16

function keyOf(secrets: Pick<Secrets, 'sealingKey'>): Buffer {
  return createHash('sha256').update(`balcao-sealed:${secrets.sealingKey}`).digest()
}

export function seal(secrets: Pick<Secrets, 'sealingKey'>, plain: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', keyOf(secrets), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')
}

export function open(secrets: Pick<Secrets, 'sealingKey'>, stored: string): string | null {
  if (!stored.startsWith(PREFIX)) return null
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url')
  if (raw.length < IV_BYTES + TAG_BYTES) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secrets), raw.subarray(0, IV_BYTES))
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    return null
  }
}
