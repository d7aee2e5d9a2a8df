import { Database } from 'bun:sqlite'
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

  test("doctor lists each connection's health: versions, last received and acknowledged, last disconnect, restriction", async () => {
    const data = await dataFolder()
    const now = Date.now()
    const db = new Database(join(data, 'balcao.db'))
    db.run(`INSERT INTO plans (id, name, created_at, updated_at) VALUES (1, 'Plano', ${now}, ${now})`)
    db.run(
      `INSERT INTO companies (id, name, plan_id, created_at, updated_at) VALUES (1, 'Padaria', 1, ${now}, ${now})`,
    )
    const connection = db.query(
      `INSERT INTO whatsapps (id, company_id, name, status, status_reason, token, created_at, updated_at)
       VALUES (?, 1, ?, ?, ?, ?, ${now}, ${now})`,
    )
    connection.run(1, 'Loja', 'CONNECTED', null, 't1')
    connection.run(2, 'Nova', 'DISCONNECTED', 'logged_out', 't2')
    db.query(
      `INSERT INTO whatsapp_health (whatsapp_id, baileys_version, wa_web_version, last_received_at, last_acked_at,
         last_disconnect_reason, last_disconnect_code, last_disconnect_at)
       VALUES (1, '7.0.0-rc14', '2.3000.1', ?, ?, 'no_network', 428, ?)`,
    ).run(now - 3 * 60_000, now - 60_000, now - 2 * 3_600_000)
    db.query(
      `INSERT INTO connection_doors (whatsapp_id, restricted_at, restriction_detail)
       VALUES (1, ?, '463 reachout timelock')`,
    ).run(now - 30 * 60_000)
    db.close()

    const report = await balcao(['doctor', '--data', data, '--json'])
    const detail = (name: string) =>
      report.json.checks.find((c: { name: string }) => c.name === name)?.detail as string
    expect(detail('connection 1').split('\n')).toEqual([
      'Loja (Padaria): CONNECTED',
      'Baileys 7.0.0-rc14, WhatsApp Web 2.3000.1',
      'last received 3 min ago, last send acknowledged 1 min ago',
      'last disconnect: no network (428), 2 h ago',
      'SENDS RESTRICTED since 30 min ago: 463 reachout timelock',
    ])
    expect(detail('connection 2').split('\n')).toEqual([
      'Nova (Padaria): DISCONNECTED — start the server, then check again',
      'versions: not connected yet on this server',
      'last received never, last send acknowledged never',
      'last disconnect: none recorded',
      'sends not restricted',
    ])
    expect(report.json.connections).toEqual([
      {
        id: 1,
        company: 'Padaria',
        name: 'Loja',
        status: 'CONNECTED',
        statusReason: null,
        baileysVersion: '7.0.0-rc14',
        waWebVersion: '2.3000.1',
        lastReceivedAt: new Date(now - 3 * 60_000).toISOString(),
        lastAckedAt: new Date(now - 60_000).toISOString(),
        lastDisconnect: { reason: 'no_network', code: 428, at: new Date(now - 2 * 3_600_000).toISOString() },
        restricted: {
          since: new Date(now - 30 * 60_000).toISOString(),
          until: null,
          detail: '463 reachout timelock',
        },
      },
      expect.objectContaining({
        id: 2,
        status: 'DISCONNECTED',
        statusReason: 'logged_out',
        lastDisconnect: null,
      }),
    ])
  })
})
