import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootstrap } from '../../server/bootstrap'
import { closeDatabase } from '../../server/db/statements'
import { openDataDir } from '../../server/deps'
import { silentLogger } from '../../server/logger'
import { signUp } from '../../server/modules/signup/service'

const main = join(import.meta.dir, '../../main.ts')

async function balcao(args: string[]) {
  const proc = Bun.spawn([process.execPath, main, ...args], {
    env: { ...process.env, CI: 'true' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  const last = stdout.trim().split('\n').at(-1) ?? ''
  const lastError = stderr.trim().split('\n').at(-1) ?? ''
  return {
    code,
    stdout,
    json: last.startsWith('{') ? JSON.parse(last) : null,
    // Errors are one JSON object on stderr.
    error: lastError.startsWith('{') ? JSON.parse(lastError) : null,
  }
}

describe('balcao signup-code create', () => {
  test('--json prints a code and its expiry; the code signs a company up once', async () => {
    const data = mkdtempSync(join(tmpdir(), 'balcao-cli-'))
    const setup = await openDataDir(data, { log: silentLogger })
    await bootstrap(setup, { email: 'root@example.test', password: 'First-pass1' })
    setup.sqlite.close()

    const res = await balcao(['signup-code', 'create', '--data', data, '--json'])
    expect(res.code).toBe(0)
    const code = String(res.json.code)
    expect(code).toMatch(/^\d{6}$/)
    expect(res.json.phone).toBeNull()
    const left = Date.parse(res.json.expiresAt) - Date.now()
    expect(left).toBeGreaterThan(14 * 60 * 1000)
    expect(left).toBeLessThanOrEqual(15 * 60 * 1000)

    const bound = await balcao([
      'signup-code',
      'create',
      '--phone',
      '(11) 91234-5678',
      '--data',
      data,
      '--json',
    ])
    expect(bound.code).toBe(0)
    expect(bound.json.phone).toBe('5511912345678')

    const deps = await openDataDir(data, { log: silentLogger })
    const input = {
      name: 'Maria Souza',
      companyName: 'Padaria Central',
      email: 'maria@padaria.test',
      password: 'Segredo1',
      phone: '+5521987654321',
      planId: 1,
      code,
    }
    expect((await signUp(deps, input)).name).toBe('Padaria Central')
    await expect(
      signUp(deps, { ...input, email: 'b@padaria.test', companyName: 'Outra' }),
    ).rejects.toMatchObject({
      code: 'ERR_SIGNUP_INVALID_CODE',
    })
    // The phone-bound code does not sign up another phone.
    await expect(
      signUp(deps, { ...input, email: 'c@padaria.test', companyName: 'Terceira', code: bound.json.code }),
    ).rejects.toMatchObject({ code: 'ERR_SIGNUP_INVALID_CODE' })
    closeDatabase(deps.sqlite)
  }, 30_000)

  test('a malformed phone exits with the validation code and a JSON error', async () => {
    const data = mkdtempSync(join(tmpdir(), 'balcao-cli-'))
    const res = await balcao(['signup-code', 'create', '--phone', 'abc', '--data', data, '--json'])
    expect(res.code).toBe(2)
    expect(res.stdout).toBe('')
    expect(res.error).toMatchObject({ error: 'ERR_VALIDATION' })
  })
})
