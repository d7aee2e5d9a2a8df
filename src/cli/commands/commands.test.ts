import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LoginThrottle } from '../../server/access/throttle'
import { bootstrap } from '../../server/bootstrap'
import { closeDatabase } from '../../server/db/statements'
import { openDataDir } from '../../server/deps'
import { silentLogger } from '../../server/logger'
import { login } from '../../server/modules/auth/service'

const main = join(import.meta.dir, '../../main.ts')

/** Runs the CLI as a separate process, as an operator would (stdout is a pipe: JSON output). */
async function balcao(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, main, ...args], {
    env: { ...process.env, ...env, CI: 'true' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  const last = stdout.trim().split('\n').at(-1) ?? ''
  // Errors are one JSON object on stderr (stdout is a pipe, so the output is JSON).
  const lastError = stderr.trim().split('\n').at(-1) ?? ''
  return {
    code,
    stdout,
    stderr,
    json: last.startsWith('{') ? JSON.parse(last) : null,
    error: lastError.startsWith('{') ? JSON.parse(lastError) : null,
  }
}

describe('balcao CLI', () => {
  test('--help lists the commands', async () => {
    const res = await balcao(['--help'])
    expect(res.code).toBe(0)
    for (const command of ['serve', 'migrate', 'user', 'version']) expect(res.stdout).toContain(command)
  })

  test('version prints JSON off a terminal', async () => {
    const res = await balcao(['version'])
    expect(res.code).toBe(0)
    expect(res.json.version).toMatch(/^\d+\.\d+\.\d+/)
  })

  test('migrate creates and migrates a data folder', async () => {
    const data = mkdtempSync(join(tmpdir(), 'balcao-cli-'))
    const res = await balcao(['migrate', '--data', data, '--json'])
    expect(res.code).toBe(0)
    expect(res.json).toMatchObject({ dataDir: data })
    expect(res.json.migrations).toBeGreaterThan(0)
  })

  test('user reset-password sets a new password and ends the user sessions; unknown e-mail exits 3', async () => {
    const data = mkdtempSync(join(tmpdir(), 'balcao-cli-'))
    const deps = await openDataDir(data, { log: silentLogger })
    await bootstrap(deps, { email: 'root@example.test', password: 'First-pass1' })
    const throttle = new LoginThrottle(deps.clock)
    const before = await login(deps, throttle, {
      email: 'root@example.test',
      password: 'First-pass1',
      address: 'x',
    })

    const res = await balcao([
      'user',
      'reset-password',
      'root@example.test',
      '--password',
      'Second-pass1',
      '--data',
      data,
    ])
    expect(res.code).toBe(0)
    expect(res.json).toMatchObject({ email: 'root@example.test' })
    expect(res.json.password).toBeUndefined()
    await expect(
      login(deps, throttle, { email: 'root@example.test', password: 'First-pass1', address: 'x' }),
    ).rejects.toThrow()
    expect(
      (await login(deps, throttle, { email: 'root@example.test', password: 'Second-pass1', address: 'x' }))
        .token,
    ).toBeTruthy()
    const session = deps.sqlite
      .query<{ revoked_at: number | null }, [string]>('SELECT revoked_at FROM user_sessions WHERE id = ?')
      .get(before.sessionId)
    expect(session?.revoked_at).not.toBeNull()

    const generated = await balcao(['user', 'reset-password', 'root@example.test', '--data', data])
    expect(generated.code).toBe(0)
    expect(generated.json.password).toHaveLength(16)

    const unknown = await balcao([
      'user',
      'reset-password',
      'nobody@example.test',
      '--password',
      'Whatever1',
      '--data',
      data,
    ])
    expect(unknown.code).toBe(3)
    expect(unknown.stdout).toBe('')
    expect(unknown.error.error).toBe('ERR_NO_USER_FOUND')
    const short = await balcao([
      'user',
      'reset-password',
      'root@example.test',
      '--password',
      '123',
      '--data',
      data,
    ])
    expect(short.code).toBe(2)
    closeDatabase(deps.sqlite)
  }, 30_000)
})
