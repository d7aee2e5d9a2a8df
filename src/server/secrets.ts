import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Keys created on first start and kept in the data folder (mode 600); never defaults in code. */
export type Secrets = {
  jwtSecret: string
  urlSigningKey: string
  /** Seals secrets kept in the database (`sealed.ts`): SMTP credentials, webhook secrets, API keys. */
  sealingKey: string
}

function randomKey() {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('base64url')
}

export function generateSecrets(): Secrets {
  return { jwtSecret: randomKey(), urlSigningKey: randomKey(), sealingKey: randomKey() }
}

export function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = join(dataDir, 'secrets.json')
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>
    if (stored.jwtSecret && stored.urlSigningKey && stored.sealingKey) return stored as Secrets
    // A key added by a newer release joins the kept ones; the existing keys never change (sessions, links).
    if (stored.jwtSecret && stored.urlSigningKey)
      return writeSecrets(file, { ...generateSecrets(), ...stored })
  }
  return writeSecrets(file, generateSecrets())
}

function writeSecrets(file: string, secrets: Secrets): Secrets {
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return secrets
}
