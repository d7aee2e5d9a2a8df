import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateSecrets, loadOrCreateSecrets } from '../secrets'
import { open, seal } from './sealed'

describe('sealed secrets', () => {
  const secrets = generateSecrets()

  test('a sealed value opens to the same text, and never shows it', () => {
    const stored = seal(secrets, 'smtp://ana:s3nh@mail.example:587 — çã')
    expect(stored).toStartWith('v1:')
    expect(stored).not.toContain('s3nh')
    expect(open(secrets, stored)).toBe('smtp://ana:s3nh@mail.example:587 — çã')
    expect(seal(secrets, 'same')).not.toBe(seal(secrets, 'same'))
  })

  test('another key, a tampered value or a foreign text do not open', () => {
    const stored = seal(secrets, 'secret')
    expect(open(generateSecrets(), stored)).toBeNull()
    const raw = Buffer.from(stored.slice(3), 'base64url')
    raw[14] = (raw[14] ?? 0) ^ 1
    expect(open(secrets, `v1:${raw.toString('base64url')}`)).toBeNull()
    expect(open(secrets, 'plain text')).toBeNull()
    expect(open(secrets, 'v1:')).toBeNull()
  })
})

describe('the sealing key in secrets.json', () => {
  test('a data folder from an older release keeps its keys and gains the sealing key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-secrets-'))
    writeFileSync(
      join(dir, 'secrets.json'),
      JSON.stringify({ jwtSecret: 'old-jwt', urlSigningKey: 'old-url' }),
    )
    const loaded = loadOrCreateSecrets(dir)
    expect(loaded).toMatchObject({ jwtSecret: 'old-jwt', urlSigningKey: 'old-url' })
    expect(loaded.sealingKey.length).toBeGreaterThan(40)
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual(loaded)
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600)
    expect(loadOrCreateSecrets(dir)).toEqual(loaded)
  })
})
