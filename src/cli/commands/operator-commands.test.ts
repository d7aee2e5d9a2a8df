import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { LoginThrottle } from '../../server/access/throttle'
import { bootstrap } from '../../server/bootstrap'
import { closeDatabase } from '../../server/db/statements'
import { openDataDir } from '../../server/deps'
import { silentLogger } from '../../server/logger'
import { login } from '../../server/modules/auth/service'

/**
 * The operator's commands as an operator runs them: a separate process, --json (or a pipe) on stdout, errors as
 * one JSON object on stderr, and the documented exit codes; once on the database alone, once through a running
 * server on the same kind of folder.
 */

const main = join(import.meta.dir, '../../main.ts')
const ROOT = 'root@example.test'
const ROOT_PASSWORD = 'First-pass1'
const dirs: string[] = []

type Run = {
  code: number
  stdout: string
  stderr: string
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed
  json: any
  // biome-ignore lint/suspicious/noExplicitAny: the error object printed on stderr
  error: any
}

async function balcao(args: string[], env: Record<string, string> = {}): Promise<Run> {
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
  const parse = (text: string) => {
    const trimmed = text.trim()
    if (!trimmed) return null
    try {
      return JSON.parse(trimmed)
    } catch {
      return null
    }
  }
  return { code, stdout, stderr, json: parse(stdout), error: parse(stderr.trim().split('\n').at(-1) ?? '') }
}

/** A data folder with the platform (its super user) created, as the first `balcao serve` leaves it. */
async function platformFolder() {
  const data = mkdtempSync(join(tmpdir(), 'balcao-ops-'))
  dirs.push(data)
  const deps = await openDataDir(data, { log: silentLogger })
  await bootstrap(deps, { email: ROOT, password: ROOT_PASSWORD })
  closeDatabase(deps.sqlite)
  return data
}

/** Signs in on the database directly: the error code when refused. */
async function signIn(data: string, email: string, password: string) {
  const deps = await openDataDir(data, { log: silentLogger })
  try {
    await login(deps, new LoginThrottle(deps.clock), { email, password, address: 'test' })
    return 'ok'
  } catch (err) {
    return (err as { code: string }).code
  } finally {
    closeDatabase(deps.sqlite)
  }
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** The same scenario on either path; `d` is the data flag. */
async function companiesAndPlans(d: string[]) {
  const created = await balcao([
    'company',
    'create',
    '--name',
    'Padaria Central',
    '--email',
    'Dona@Padaria.test',
    '--plan',
    'plano padrão',
    '--due-date',
    '2030-01-10',
    ...d,
    '--json',
  ])
  expect(created.code).toBe(0)
  expect(created.json).toMatchObject({
    name: 'Padaria Central',
    email: 'dona@padaria.test',
    plan: { name: 'Plano Padrão' },
    dueDate: '2030-01-10',
  })
  expect(created.json.password).toHaveLength(16) // generated, printed once
  const id = created.json.id as number

  const list = await balcao(['company', 'list', ...d, '--json'])
  expect(list.code).toBe(0)
  expect(list.json.map((c: { name: string }) => c.name)).toContain('Padaria Central')

  const updated = await balcao([
    'company',
    'update',
    'Padaria Central',
    '--recurrence',
    'anual',
    ...d,
    '--json',
  ])
  expect(updated.code).toBe(0)
  expect(updated.json).toMatchObject({ id, recurrence: 'ANUAL' })

  const extended = await balcao(['company', 'extend', String(id), ...d, '--json'])
  expect(extended.code).toBe(0)
  expect(extended.json.dueDate).toBe('2031-01-10')

  const duplicate = await balcao([
    'company',
    'create',
    '--name',
    'Padaria Central',
    '--email',
    'outra@padaria.test',
    '--plan',
    '1',
    '--password',
    'Segredo1',
    ...d,
    '--json',
  ])
  expect(duplicate.code).toBe(5)
  expect(duplicate.error).toMatchObject({ error: 'ERR_COMPANY_NAME_ALREADY_EXISTS' })
  expect(duplicate.stdout).toBe('')

  const missing = await balcao(['company', 'create', '--name', 'Sem Email', ...d, '--json'])
  expect(missing.code).toBe(2)
  expect(missing.error.message).toContain('--email')

  const unknownPlan = await balcao([
    'company',
    'create',
    '--name',
    'Outra',
    '--email',
    'x@outra.test',
    '--plan',
    'Ouro',
    ...d,
  ])
  expect(unknownPlan.code).toBe(3)
  expect(unknownPlan.error.error).toBe('ERR_NO_PLAN_FOUND')

  const badDate = await balcao(['company', 'update', String(id), '--recurrence', 'weekly', ...d])
  expect(badDate.code).toBe(2)
  expect(badDate.error.fields.map((f: { field: string }) => f.field)).toEqual(['recurrence'])

  expect((await balcao(['company', 'extend', 'Nobody', ...d])).code).toBe(3)

  // Plans: create with features off, update one field, in use cannot be deleted.
  const plan = await balcao([
    'plan',
    'create',
    '--name',
    'Pro',
    '--value',
    '99.90',
    '--users',
    '2',
    '--disable',
    'kanban,campaigns',
    ...d,
    '--json',
  ])
  expect(plan.code).toBe(0)
  expect(plan.json).toMatchObject({
    name: 'Pro',
    value: 99.9,
    users: 2,
    useKanban: false,
    useCampaigns: false,
  })
  expect(plan.json.useSchedules).toBe(true)
  const planUpdated = await balcao([
    'plan',
    'update',
    'Pro',
    '--queues',
    '3',
    '--enable',
    'kanban',
    ...d,
    '--json',
  ])
  expect(planUpdated.code).toBe(0)
  expect(planUpdated.json).toMatchObject({ name: 'Pro', users: 2, queues: 3, useKanban: true })
  const plans = await balcao(['plan', 'list', ...d])
  expect(plans.json.map((p: { name: string }) => p.name).sort()).toEqual(['Plano Padrão', 'Pro'])
  expect((await balcao(['plan', 'create', '--name', 'X1', '--users', 'many', ...d])).code).toBe(2)
  expect((await balcao(['plan', 'create', '--name', 'X2', '--enable', 'teleport', ...d])).code).toBe(2)

  const noYes = await balcao(['plan', 'delete', 'Plano Padrão', ...d, '--json'])
  expect(noYes.code).toBe(2)
  expect(noYes.error.message).toContain('--yes')
  const inUse = await balcao(['plan', 'delete', 'Plano Padrão', '--yes', ...d, '--json'])
  expect(inUse.code).toBe(5)
  expect(inUse.error.error).toBe('ERR_PLAN_IN_USE')
  const planDeleted = await balcao(['plan', 'delete', 'Pro', '--yes', ...d, '--json'])
  expect(planDeleted.code).toBe(0)
  expect(planDeleted.json).toMatchObject({ name: 'Pro', deleted: true })

  // Company delete needs --yes.
  const refused = await balcao(['company', 'delete', String(id), ...d])
  expect(refused.code).toBe(2)
  expect(refused.error.message).toContain('--yes')
  const platform = await balcao(['company', 'delete', '1', '--yes', ...d])
  expect(platform.code).toBe(5)
  const deleted = await balcao(['company', 'delete', 'dona@padaria.test', '--yes', ...d, '--json'])
  expect(deleted.code).toBe(0)
  expect(deleted.json).toMatchObject({ id, deleted: true })
  expect((await balcao(['company', 'list', ...d])).json.map((c: { id: number }) => c.id)).not.toContain(id)
}

async function users(d: string[], data: string) {
  const company = await balcao([
    'company',
    'create',
    '--name',
    'Loja Azul',
    '--email',
    'admin@azul.test',
    '--plan',
    '1',
    '--password',
    'Segredo1',
    ...d,
  ])
  expect(company.code).toBe(0)
  const created = await balcao([
    'user',
    'create',
    '--company',
    'Loja Azul',
    '--name',
    'Ana Atendente',
    '--email',
    'ana@azul.test',
    '--password',
    'Segredo2',
    ...d,
    '--json',
  ])
  expect(created.code).toBe(0)
  expect(created.json).toMatchObject({ email: 'ana@azul.test', profile: 'user', companyId: company.json.id })
  expect(created.json.password).toBeUndefined()
  expect(created.json.disabled).toBe(false)

  const again = await balcao([
    'user',
    'create',
    '--company',
    'Loja Azul',
    '--name',
    'Ana Outra',
    '--email',
    'ana@azul.test',
    '--password',
    'Segredo2',
    ...d,
  ])
  expect(again.code).toBe(5)
  expect(
    (await balcao(['user', 'create', '--company', 'Nowhere', '--name', 'Zé', '--email', 'z@z.test', ...d]))
      .code,
  ).toBe(3)

  const list = await balcao(['user', 'list', '--company', 'Loja Azul', ...d, '--json'])
  expect(list.code).toBe(0)
  expect(list.json.map((u: { email: string }) => u.email).sort()).toEqual([
    'admin@azul.test',
    'ana@azul.test',
  ])
  expect(list.json[0].companyName).toBe('Loja Azul')

  const reset = await balcao(['user', 'reset-password', String(created.json.id), ...d, '--json'])
  expect(reset.code).toBe(0)
  expect(reset.json).toMatchObject({ email: 'ana@azul.test' })
  expect(reset.json.password).toHaveLength(16)
  const password = reset.json.password as string

  const noYes = await balcao(['user', 'disable', 'ana@azul.test', ...d])
  expect(noYes.code).toBe(2)
  const disabled = await balcao(['user', 'disable', 'ana@azul.test', '--yes', ...d, '--json'])
  expect(disabled.code).toBe(0)
  expect(disabled.json).toMatchObject({ email: 'ana@azul.test', disabled: true })
  expect(await signIn(data, 'ana@azul.test', password)).toBe('ERR_USER_DISABLED')

  const lastSuper = await balcao(['user', 'disable', ROOT, '--yes', ...d, '--json'])
  expect(lastSuper.code).toBe(5)
  expect(lastSuper.error.error).toBe('ERR_LAST_SUPER_USER')

  const enabled = await balcao(['user', 'enable', 'ana@azul.test', ...d, '--json'])
  expect(enabled.code).toBe(0)
  expect(enabled.json.disabled).toBe(false)
  expect(await signIn(data, 'ana@azul.test', password)).toBe('ok')

  const code = await balcao(['signup-code', 'create', ...d])
  expect(code.code).toBe(0)
  expect(code.json.code).toMatch(/^\d{6}$/)
}

async function connectionsAndUsage(d: string[]) {
  expect((await balcao(['connection', 'restart', '999', ...d])).code).toBe(3)
  expect((await balcao(['connection', 'logout', '999', '--yes', ...d])).code).toBe(3)
  const noYes = await balcao(['connection', 'logout', '999', ...d])
  expect(noYes.code).toBe(2)
  expect((await balcao(['connection', 'restart', 'abc', ...d])).code).toBe(2)
  const list = await balcao(['connection', 'list', ...d])
  expect(list.code).toBe(0)
  expect(Array.isArray(list.json)).toBe(true)

  // Usage errors from the parser itself: exit 2, one JSON object on stderr.
  const unknown = await balcao(['company', 'rename', ...d, '--json'])
  expect(unknown.code).toBe(2)
  expect(unknown.error).toMatchObject({ error: 'ERR_VALIDATION' })
  expect((await balcao(['user', 'disable', ...d])).code).toBe(2)
  expect((await balcao(['plan', 'list', '--bogus', ...d])).code).toBe(2)
}

describe('operator commands on the database (no server running)', () => {
  let data: string
  let d: string[]
  beforeAll(async () => {
    data = await platformFolder()
    d = ['--data', data]
  })

  test('companies and plans: create, list, update, extend, delete (--yes), conflicts', async () => {
    await companiesAndPlans(d)
  }, 60_000)

  test('users: create, list, reset-password, disable (cannot sign in), enable; signup-code', async () => {
    await users(d, data)
  }, 60_000)

  test('connections: unknown ids are not found; restart of a real one needs the server (6); usage errors', async () => {
    await connectionsAndUsage(d)
    const deps = await openDataDir(data, { log: silentLogger })
    const { whatsapps } = await import('../../server/db/schema')
    const now = Date.now()
    const row = deps.db
      .insert(whatsapps)
      .values({ companyId: 1, name: 'Loja', token: 'tok-ops', createdAt: now, updatedAt: now })
      .returning()
      .get()
    closeDatabase(deps.sqlite)
    const restart = await balcao(['connection', 'restart', String(row.id), ...d, '--json'])
    // Seen once under CI load: exit 1 instead of 6. Say what the process printed if it happens again.
    if (restart.code !== 6) console.error('connection restart:', restart.code, restart.stdout, restart.stderr)
    expect(restart.code).toBe(6)
    expect(restart.error.error).toBe('ERR_NOT_RUNNING')
  }, 60_000)

  test('a folder without Balcão data is unavailable (6), and the environment names the folder', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'balcao-ops-'))
    dirs.push(empty)
    const res = await balcao(['company', 'list', '--json'], { BALCAO_DATA_DIR: empty })
    expect(res.code).toBe(6)
    expect(res.error).toMatchObject({ error: 'ERR_NO_DATA' })
    expect(existsSync(join(empty, 'balcao.db'))).toBe(false)
    expect((await balcao(['company', 'list'], { BALCAO_DATA_DIR: data })).code).toBe(0)
  })
})

describe('operator commands through a running server', () => {
  let data: string
  let d: string[]
  let server: Subprocess
  let url: string

  beforeAll(async () => {
    data = await platformFolder()
    d = ['--data', data]
    const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const port = probe.port
    probe.stop(true)
    url = `http://127.0.0.1:${port}`
    server = Bun.spawn([process.execPath, main, 'serve', '--data', data, '--port', String(port)], {
      env: { ...process.env, CI: 'true', BALCAO_LOG_FORMAT: 'json' },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    // A loaded machine (CI beside other work) may take a while to compile and start the server from sources.
    for (let i = 0; i < 600; i++) {
      const up = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
      if (up && existsSync(join(data, 'operator.json'))) return
      await Bun.sleep(100)
    }
    throw new Error('the server did not start')
  }, 90_000)

  afterAll(async () => {
    server?.kill()
    await server?.exited
  })

  test('companies and plans, with the same results and exit codes', async () => {
    await companiesAndPlans(d)
  }, 60_000)

  test('users and signup codes', async () => {
    await users(d, data)
  }, 60_000)

  test('connections and usage errors', async () => {
    await connectionsAndUsage(d)
  }, 60_000)

  test('live: an admin socket sees the user a command created; a disabled user loses their socket at once', async () => {
    const company = await balcao([
      'company',
      'create',
      '--name',
      'Ao Vivo',
      '--email',
      'admin@aovivo.test',
      '--plan',
      '1',
      '--password',
      'Segredo1',
      ...d,
    ])
    expect(company.code).toBe(0)
    const signIn = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@aovivo.test', password: 'Segredo1' }),
    })
    expect(signIn.status).toBe(200)
    const { token } = (await signIn.json()) as { token: string }
    const socket = new WebSocket(`${url.replace('http', 'ws')}/api/ws?token=${encodeURIComponent(token)}`)
    const frames: string[] = []
    socket.onmessage = (e) => frames.push(String(e.data))
    const closed = new Promise<number>((resolve) => {
      socket.onclose = (e) => resolve(e.code)
    })
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve()
      socket.onerror = () => reject(new Error('socket failed'))
    })

    const created = await balcao([
      'user',
      'create',
      '--company',
      'Ao Vivo',
      '--name',
      'Beto',
      '--email',
      'beto@aovivo.test',
      '--password',
      'Segredo2',
      ...d,
    ])
    expect(created.code).toBe(0)
    const event = `company-${company.json.id}-user`
    const createdFrame = () =>
      frames.map((f) => JSON.parse(f)).find((f) => f.event === event && f.data?.action === 'create')
    for (let i = 0; i < 100 && !createdFrame(); i++) await Bun.sleep(50)
    expect(createdFrame()?.data).toMatchObject({ action: 'create', user: { email: 'beto@aovivo.test' } })

    const disabled = await balcao(['user', 'disable', 'admin@aovivo.test', '--yes', ...d])
    expect(disabled.code).toBe(0)
    expect(await Promise.race([closed, Bun.sleep(5000).then(() => 'still open')])).not.toBe('still open')
    const refused = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@aovivo.test', password: 'Segredo1' }),
    })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toBe('ERR_USER_DISABLED')
  }, 60_000)
})
