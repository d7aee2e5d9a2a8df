import { describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const main = join(import.meta.dir, '../../main.ts')

/** The CLI as a separate process, its output a pipe (JSON): stdout's document, or stderr's on failure. */
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
  const parse = (text: string) => {
    const last = text.trim().split('\n').at(-1) ?? ''
    return last.startsWith('{') ? JSON.parse(last) : null
  }
  return { code, stdout, stderr, json: parse(stdout), error: parse(stderr) }
}

async function dataFolder() {
  const data = join(mkdtempSync(join(tmpdir(), 'balcao-ops-')), 'data')
  expect((await balcao(['migrate', '--data', data, '--json'])).code).toBe(0)
  return data
}

describe('balcao backup, restore and doctor', () => {
  test('backup prints { file, bytes }; restore needs --yes, then restores into a fresh folder', async () => {
    const data = await dataFolder()
    const file = join(mkdtempSync(join(tmpdir(), 'balcao-ops-out-')), 'b.tar.gz')
    const backup = await balcao(['backup', file, '--data', data, '--json'])
    expect(backup.code).toBe(0)
    expect(backup.json).toEqual({ file, bytes: expect.any(Number) })
    expect(backup.json.bytes).toBeGreaterThan(1000)

    const target = join(mkdtempSync(join(tmpdir(), 'balcao-ops-to-')), 'data')
    const unconfirmed = await balcao(['restore', file, '--data', target, '--json'])
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stdout).toBe('')
    expect(unconfirmed.error.error).toBe('ERR_VALIDATION')
    expect(existsSync(join(target, 'balcao.db'))).toBe(false)

    const restored = await balcao(['restore', file, '--data', target, '--yes', '--json'])
    expect(restored.code).toBe(0)
    expect(restored.json).toMatchObject({ dataDir: target, previous: null })
    expect((await balcao(['doctor', '--data', target, '--json'])).json.ok).toBe(true)
  })

  test('restore exits 5 while a server runs on the folder, 2 for an archive that is not a backup, 3 for no file', async () => {
    const data = await dataFolder()
    const file = join(mkdtempSync(join(tmpdir(), 'balcao-ops-out-')), 'b.tar.gz')
    await balcao(['backup', file, '--data', data, '--json'])
    // This test process stands in for a running server: operator.json names a live pid.
    writeFileSync(
      join(data, 'operator.json'),
      JSON.stringify({ url: 'http://127.0.0.1:9', token: 't', pid: process.pid }),
    )
    const running = await balcao(['restore', file, '--data', data, '--yes', '--json'])
    expect(running.code).toBe(5)
    expect(running.error.error).toBe('ERR_SERVER_RUNNING')

    const junk = join(mkdtempSync(join(tmpdir(), 'balcao-ops-junk-')), 'junk.tar.gz')
    writeFileSync(junk, 'not an archive')
    const fresh = join(mkdtempSync(join(tmpdir(), 'balcao-ops-to-')), 'data')
    const invalid = await balcao(['restore', junk, '--data', fresh, '--yes', '--json'])
    expect(invalid.code).toBe(2)
    expect(invalid.error.error).toBe('ERR_BACKUP_INVALID')
    const missing = await balcao(['restore', `${junk}.nope`, '--data', fresh, '--yes', '--json'])
    expect(missing.code).toBe(3)
  })

  test('doctor answers { ok, checks } and exits 1 naming what to fix', async () => {
    const data = await dataFolder()
    const healthy = await balcao(['doctor', '--data', data, '--json'])
    expect(healthy.code).toBe(0)
    expect(healthy.json.ok).toBe(true)
    const names = healthy.json.checks.map((c: { name: string }) => c.name)
    for (const name of ['data folder', 'permissions', 'free disk', 'secrets', 'database', 'migrations'])
      expect(names).toContain(name)

    chmodSync(join(data, 'secrets.json'), 0o644)
    const loose = await balcao(['doctor', '--data', data, '--json'])
    expect(loose.code).toBe(1)
    expect(loose.json.ok).toBe(false)
    expect(loose.json.checks.find((c: { name: string }) => c.name === 'permissions')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('secrets.json'),
    })

    const nowhere = await balcao(['doctor', '--data', join(data, 'nope'), '--json'])
    expect(nowhere.code).toBe(1)
    expect(nowhere.json.checks[0]).toMatchObject({ name: 'data folder', ok: false })
  })
})
