import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server, ServerWebSocket } from 'bun'
import { EXIT } from './exit-codes'
import {
  OperatorClient,
  type OperatorConnectionDetail,
  OperatorError,
  readOperatorFile,
  type SessionSnapshot,
  sessionOfFrame,
} from './operator-client'
import { applySnapshot, followPairing, initialPairState, newerThan, type PairState } from './pairing'

const TOKEN = 'test-operator-token'
const REPO = join(import.meta.dir, '..', '..')

type Pairing = { id: number; phone?: string }

/**
 * A stand-in for the running server's operator API on 127.0.0.1: the three endpoints and the live socket.
 * `onPair` scripts what the session does after `POST …/pair`.
 */
class FakeOperatorServer {
  server: Server<undefined>
  connections = new Map<number, OperatorConnectionDetail>()
  sockets = new Set<ServerWebSocket<undefined>>()
  pairings: Pairing[] = []
  authHeaders: (string | null)[] = []
  webSocket = true
  /** How long `POST …/pair` takes to answer (the session has already moved on by then). */
  pairDelayMs = 0
  onPair: (pairing: Pairing) => void = () => {}

  constructor() {
    this.server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (req, server) => this.fetch(req, server),
      websocket: {
        open: (ws) => {
          this.sockets.add(ws)
        },
        close: (ws) => {
          this.sockets.delete(ws)
        },
        message: () => {},
      },
    })
  }

  get url() {
    return `http://127.0.0.1:${this.server.port}`
  }

  reset() {
    this.connections.clear()
    this.pairings = []
    this.authHeaders = []
    this.webSocket = true
    this.pairDelayMs = 0
    this.onPair = () => {}
    for (const ws of this.sockets) ws.close()
  }

  add(patch: Partial<OperatorConnectionDetail> & { id: number }) {
    const c: OperatorConnectionDetail = {
      name: `Connection ${patch.id}`,
      companyId: 2,
      companyName: 'Padaria Estrela',
      provider: 'sandbox',
      status: 'DISCONNECTED',
      statusReason: null,
      number: null,
      isDefault: false,
      retries: 0,
      updatedAt: new Date().toISOString(),
      qrcode: '',
      pairingCode: null,
      expirationTime: null,
      ...patch,
    }
    this.connections.set(c.id, c)
    return c
  }

  /** Changes a connection and tells every socket, as the server's hub does. */
  update(id: number, patch: Partial<OperatorConnectionDetail>) {
    const old = this.connections.get(id)
    if (!old) return // a script of an earlier test, still running
    const c = { ...old, ...patch, updatedAt: new Date().toISOString() }
    this.connections.set(id, c)
    const { name, status, qrcode, pairingCode, expirationTime, retries, number } = c
    const frame = {
      event: `company-${c.companyId}-whatsappSession`,
      data: {
        action: 'update',
        session: { id, name, status, qrcode, pairingCode, expirationTime, retries, number },
      },
    }
    for (const ws of this.sockets) ws.send(JSON.stringify(frame))
  }

  private async fetch(req: Request, server: Server<undefined>) {
    const url = new URL(req.url)
    const json = (body: unknown, status = 200) => Response.json(body, { status })
    if (url.pathname === '/api/ws') {
      if (!this.webSocket) return json({ error: 'ERR_NOT_FOUND', message: 'no socket here' }, 404)
      if (url.searchParams.get('operator') !== TOKEN)
        return json({ error: 'ERR_INVALID_TOKEN', message: 'no' }, 401)
      return server.upgrade(req) ? undefined : json({ error: 'ERR_INTERNAL', message: 'upgrade' }, 500)
    }
    this.authHeaders.push(req.headers.get('authorization'))
    if (req.headers.get('authorization') !== `Operator ${TOKEN}`) {
      return json({ error: 'ERR_INVALID_TOKEN', message: 'Invalid operator token' }, 401)
    }
    // `balcao connection list` runs the `connection.list` operator command: the same list.
    const listed =
      (req.method === 'GET' && url.pathname === '/api/operator/connections') ||
      (req.method === 'POST' && url.pathname === '/api/operator/commands/connection.list')
    if (listed) {
      return json(
        [...this.connections.values()].map(({ qrcode: _q, pairingCode: _p, expirationTime: _e, ...c }) => c),
      )
    }
    const match = url.pathname.match(/^\/api\/operator\/connections\/(\d+)(\/pair)?$/)
    const c = match ? this.connections.get(Number(match[1])) : undefined
    if (match && !c) return json({ error: 'ERR_NO_WAPP_FOUND', message: 'Connection not found' }, 404)
    if (c && req.method === 'GET' && !match![2]) return json(c)
    if (c && req.method === 'POST' && match![2]) {
      const body = (await req.json()) as { phone?: string }
      const pairing = { id: c.id, ...(body.phone ? { phone: body.phone } : {}) }
      this.pairings.push(pairing)
      await Bun.sleep(this.pairDelayMs)
      this.update(c.id, {
        status: 'OPENING',
        qrcode: '',
        pairingCode: null,
        expirationTime: null,
        retries: 0,
      })
      setTimeout(() => this.onPair(pairing), 0)
      return json(this.connections.get(c.id), 202)
    }
    return json({ error: 'ERR_NOT_FOUND', message: 'Not found' }, 404)
  }
}

let fake: FakeOperatorServer
let dataDir: string
const dirs: string[] = []

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-cli-'))
  dirs.push(dir)
  return dir
}

function writeCredential(dir: string, credential: unknown) {
  const path = join(dir, 'operator.json')
  writeFileSync(path, typeof credential === 'string' ? credential : JSON.stringify(credential))
  chmodSync(path, 0o600)
}

beforeAll(() => {
  fake = new FakeOperatorServer()
  dataDir = tempDir()
  writeCredential(dataDir, { url: fake.url, token: TOKEN, pid: process.pid })
})
afterEach(() => fake.reset())
afterAll(() => {
  fake.server.stop(true)
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A session going qrcode → new qrcode → CONNECTED, a few ms apart. */
function connectsAfterTwoQrs({ id, phone }: Pairing) {
  const at = Date.now()
  setTimeout(() => {
    if (phone) fake.update(id, { status: 'PAIRING', pairingCode: 'ABCD1234', expirationTime: at + 60_000 })
    else fake.update(id, { status: 'qrcode', qrcode: 'QR-1', expirationTime: at + 60_000 })
  }, 20)
  setTimeout(
    () => !phone && fake.update(id, { qrcode: 'QR-2', expirationTime: at + 120_000, retries: 1 }),
    60,
  )
  setTimeout(
    () => fake.update(id, { status: 'CONNECTED', qrcode: '', pairingCode: null, number: '5511988887777' }),
    100,
  )
}

/** A session that shows a QR nobody scans, then gives up. */
function timesOut({ id }: Pairing) {
  setTimeout(
    () => fake.update(id, { status: 'qrcode', qrcode: 'QR-1', expirationTime: Date.now() + 60_000 }),
    20,
  )
  setTimeout(() => fake.update(id, { status: 'TIMEOUT', qrcode: '', retries: 3 }), 60)
}

describe('readOperatorFile', () => {
  test('reads url, token and pid', () => {
    expect(readOperatorFile(dataDir)).toEqual({ url: fake.url, token: TOKEN, pid: process.pid })
  })

  test('a missing, broken or stale file means the server is not running (exit 6)', () => {
    const empty = tempDir()
    const broken = tempDir()
    writeCredential(broken, '{not json')
    const incomplete = tempDir()
    writeCredential(incomplete, { url: fake.url })
    const stale = tempDir()
    const dead = Bun.spawnSync(['true']).pid // a pid that has exited
    writeCredential(stale, { url: fake.url, token: TOKEN, pid: dead })
    for (const dir of [empty, broken, incomplete, stale]) {
      let error: unknown
      try {
        readOperatorFile(dir)
      } catch (err) {
        error = err
      }
      expect(error).toBeInstanceOf(OperatorError)
      expect((error as OperatorError).code).toBe('ERR_NOT_RUNNING')
      expect((error as OperatorError).exitCode).toBe(EXIT.unavailable)
      expect((error as OperatorError).message).toContain(`data folder ${dir}`)
      expect((error as OperatorError).message).toContain('balcao serve')
    }
  })
})

describe('OperatorClient', () => {
  test('lists connections, sending the operator credential', async () => {
    fake.add({ id: 1, status: 'CONNECTED', number: '5511999990000', isDefault: true })
    fake.add({ id: 2 })
    const list = await OperatorClient.open(dataDir).listConnections()
    expect(list.map((c) => [c.id, c.status])).toEqual([
      [1, 'CONNECTED'],
      [2, 'DISCONNECTED'],
    ])
    expect(fake.authHeaders).toEqual([`Operator ${TOKEN}`])
  })

  test('server errors keep their code and map to exit codes', async () => {
    const client = OperatorClient.open(dataDir)
    const missing = await client.getConnection(99).catch((err) => err)
    expect(missing).toBeInstanceOf(OperatorError)
    expect(missing.code).toBe('ERR_NO_WAPP_FOUND')
    expect(missing.exitCode).toBe(EXIT.notFound)

    const wrong = new OperatorClient({ url: fake.url, token: 'wrong' }, dataDir)
    const denied = await wrong.listConnections().catch((err) => err)
    expect(denied.code).toBe('ERR_INVALID_TOKEN')
    expect(denied.exitCode).toBe(EXIT.denied)

    expect(new OperatorError('ERR_SOMETHING_NEW', 'x', 409).exitCode).toBe(EXIT.conflict)
  })

  test('a refused connection means the server is not running', async () => {
    const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const port = probe.port
    probe.stop(true)
    const client = new OperatorClient({ url: `http://127.0.0.1:${port}`, token: TOKEN }, '/srv/balcao')
    const err = await client.listConnections().catch((e) => e)
    expect(err.code).toBe('ERR_NOT_RUNNING')
    expect(err.exitCode).toBe(EXIT.unavailable)
    expect(err.message).toContain('/srv/balcao')
  })

  test('the live socket URL carries the token', () => {
    expect(new OperatorClient({ url: 'http://127.0.0.1:8080', token: 'a b' }, '.').liveUrl()).toBe(
      'ws://127.0.0.1:8080/api/ws?operator=a+b',
    )
  })

  test("sessionOfFrame keeps only this connection's session updates", () => {
    const frame = (event: string, id: number) =>
      JSON.stringify({
        event,
        data: { action: 'update', session: { id, name: 'x', status: 'qrcode', qrcode: 'Q' } },
      })
    expect(sessionOfFrame(frame('company-3-whatsappSession', 5), 5)).toMatchObject({ id: 5, qrcode: 'Q' })
    expect(sessionOfFrame(frame('company-3-whatsappSession', 6), 5)).toBeUndefined()
    expect(sessionOfFrame(frame('company-3-ticket', 5), 5)).toBeUndefined()
    expect(sessionOfFrame('{"event":"ping"}', 5)).toBeUndefined()
    expect(sessionOfFrame('not json', 5)).toBeUndefined()
  })

  test('watches over the live socket', async () => {
    fake.add({ id: 3 })
    const client = OperatorClient.open(dataDir)
    const seen: [string, string][] = []
    const watch = client.watchConnection(3, (s, mode) => seen.push([s.status, mode]))
    expect(await watch.ready).toBe('live')
    fake.update(3, { status: 'OPENING' })
    fake.update(3, { status: 'qrcode', qrcode: 'Q' })
    await Bun.sleep(50)
    watch.stop()
    expect(seen).toEqual([
      ['OPENING', 'live'],
      ['qrcode', 'live'],
    ])
  })

  test('falls back to polling when the socket cannot be opened', async () => {
    fake.add({ id: 4, status: 'qrcode', qrcode: 'Q' })
    fake.webSocket = false
    const seen: string[] = []
    const watch = OperatorClient.open(dataDir).watchConnection(
      4,
      (s, mode) => seen.push(`${s.status}/${mode}`),
      {
        pollMs: 20,
      },
    )
    expect(await watch.ready).toBe('polling')
    await Bun.sleep(70)
    watch.stop()
    expect(seen.length).toBeGreaterThanOrEqual(2)
    expect(new Set(seen)).toEqual(new Set(['qrcode/polling']))
  })

  test('falls back to polling when the live socket drops', async () => {
    fake.add({ id: 5, status: 'qrcode', qrcode: 'Q' })
    const seen: string[] = []
    const watch = OperatorClient.open(dataDir).watchConnection(
      5,
      (s, mode) => seen.push(`${s.status}/${mode}`),
      {
        pollMs: 20,
      },
    )
    expect(await watch.ready).toBe('live')
    for (const ws of fake.sockets) ws.close()
    await Bun.sleep(80)
    expect(watch.mode()).toBe('polling')
    watch.stop()
    expect(seen).toContain('qrcode/polling')
  })

  test('polling stops with an error when the connection disappears', async () => {
    fake.add({ id: 6 })
    fake.webSocket = false
    const errors: OperatorError[] = []
    const watch = OperatorClient.open(dataDir).watchConnection(6, () => {}, {
      pollMs: 10,
      onError: (e) => errors.push(e),
    })
    await watch.ready
    fake.connections.delete(6)
    await Bun.sleep(60)
    expect(errors.map((e) => e.code)).toEqual(['ERR_NO_WAPP_FOUND'])
    expect(watch.mode()).toBe('stopped')
  })
})

describe('applySnapshot', () => {
  const detail = (status: SessionSnapshot['status'], patch: Partial<OperatorConnectionDetail> = {}) =>
    ({
      id: 1,
      name: 'c',
      companyId: 1,
      companyName: 'x',
      provider: 'sandbox',
      status,
      statusReason: null,
      number: null,
      isDefault: false,
      retries: 0,
      updatedAt: '',
      qrcode: '',
      pairingCode: null,
      expirationTime: null,
      ...patch,
    }) satisfies OperatorConnectionDetail
  const snap = (status: SessionSnapshot['status'], patch = {}) => ({ ...detail(status), ...patch })

  test('CONNECTED succeeds, TIMEOUT fails', () => {
    const start = initialPairState(detail('OPENING'))
    expect(applySnapshot(start, snap('CONNECTED')).outcome).toBe('connected')
    expect(applySnapshot(start, snap('TIMEOUT')).outcome).toBe('timeout')
  })

  test('DISCONNECTED fails only after the session has started', () => {
    const stale = initialPairState(detail('DISCONNECTED'))
    expect(stale.started).toBe(false)
    expect(applySnapshot(stale, snap('DISCONNECTED')).outcome).toBeUndefined()
    const withQr = applySnapshot(stale, snap('qrcode', { qrcode: 'Q' }))
    expect(withQr.started).toBe(true)
    expect(applySnapshot(withQr, snap('DISCONNECTED')).outcome).toBe('disconnected')
  })

  test('newerThan keeps the frames that came after the answer to the pair request', () => {
    const at = (ms: number) => new Date(1_700_000_000_000 + ms).toISOString()
    const closing = snap('DISCONNECTED', { updatedAt: at(0) })
    const opening = snap('OPENING', { updatedAt: at(1) })
    const qr1 = snap('qrcode', { qrcode: 'Q1', updatedAt: at(1) })
    const qr2 = snap('qrcode', { qrcode: 'Q2', updatedAt: at(9) })
    expect(newerThan([closing, opening, qr1, qr2], qr1)).toEqual([qr2])
    expect(newerThan([closing, opening, qr1], qr1)).toEqual([])
    // The answer was read before any of these frames: keep those stamped later.
    expect(newerThan([opening, qr1, qr2], snap('DISCONNECTED', { updatedAt: at(0) }))).toEqual([
      opening,
      qr1,
      qr2,
    ])
    expect(newerThan([closing], snap('OPENING', { updatedAt: at(5) }))).toEqual([])
  })

  test('the answer to the pair request may already be the end', () => {
    expect(initialPairState(detail('CONNECTED')).outcome).toBe('connected')
    expect(initialPairState(detail('TIMEOUT')).outcome).toBe('timeout')
    expect(initialPairState(detail('DISCONNECTED')).outcome).toBeUndefined()
    expect(initialPairState(detail('qrcode', { qrcode: 'Q' }))).toMatchObject({ started: true })
  })

  test('an ended state does not change', () => {
    const ended = applySnapshot(initialPairState(detail('OPENING')), snap('CONNECTED'))
    expect(applySnapshot(ended, snap('TIMEOUT'))).toBe(ended)
  })
})

describe('followPairing', () => {
  async function follow(
    id: number,
    options: { phone?: string; pollOnly?: boolean; timeoutMs?: number } = {},
  ) {
    const states: PairState[] = []
    const final = await followPairing(OperatorClient.open(dataDir), id, {
      phone: options.phone,
      timeoutMs: options.timeoutMs ?? 5000,
      onState: (s) => states.push(s),
      watch: { pollMs: 10, pollOnly: options.pollOnly },
    })
    return { final, states }
  }
  const qrs = (states: PairState[]) => [...new Set(states.map((s) => s.session.qrcode).filter(Boolean))]

  test('qrcode → CONNECTED over the live socket', async () => {
    fake.add({ id: 10, name: 'Vendas', status: 'DISCONNECTED' })
    fake.onPair = connectsAfterTwoQrs
    const { final, states } = await follow(10)
    expect(fake.pairings).toEqual([{ id: 10 }])
    expect(final.outcome).toBe('connected')
    expect(final.session.number).toBe('5511988887777')
    expect(final.connection.name).toBe('Vendas')
    expect(states[0]!.session.status).toBe('OPENING')
    expect(qrs(states)).toEqual(['QR-1', 'QR-2'])
    expect(states.at(-1)).toBe(final)
  })

  test('qrcode → TIMEOUT', async () => {
    fake.add({ id: 11 })
    fake.onPair = timesOut
    const { final, states } = await follow(11)
    expect(final.outcome).toBe('timeout')
    expect(qrs(states)).toEqual(['QR-1'])
  })

  test('a pairing code when a phone is given', async () => {
    fake.add({ id: 12 })
    fake.onPair = connectsAfterTwoQrs
    const { final, states } = await follow(12, { phone: '5511977776666' })
    expect(fake.pairings).toEqual([{ id: 12, phone: '5511977776666' }])
    expect(states.map((s) => s.session.pairingCode)).toContain('ABCD1234')
    expect(final.outcome).toBe('connected')
  })

  test('qrcode → CONNECTED by polling when there is no socket', async () => {
    fake.add({ id: 13 })
    fake.webSocket = false
    fake.onPair = connectsAfterTwoQrs
    const { final, states } = await follow(13)
    expect(final.outcome).toBe('connected')
    expect(qrs(states).length).toBeGreaterThanOrEqual(1)
  })

  test('a poll answered before the pair request is not taken for news', async () => {
    // The connection timed out earlier; a slow pair request lets a poll see that old TIMEOUT first.
    fake.add({ id: 15, status: 'TIMEOUT' })
    fake.webSocket = false
    fake.pairDelayMs = 60
    fake.onPair = connectsAfterTwoQrs
    const { final, states } = await follow(15)
    expect(final.outcome).toBe('connected')
    expect(states[0]!.session.status).toBe('OPENING')
  })

  test('an already-paired phone connects during the pair request', async () => {
    fake.add({ id: 16, status: 'CONNECTED', number: '5511900000000' })
    fake.pairDelayMs = 20
    const original = fake.update.bind(fake)
    // The session reconnects with its saved credentials before the server answers.
    fake.update = (id, patch) => {
      original(id, patch)
      if (patch.status === 'OPENING') original(id, { status: 'CONNECTED' })
    }
    try {
      const { final, states } = await follow(16)
      expect(final.outcome).toBe('connected')
      expect(states).toEqual([final])
    } finally {
      fake.update = original
    }
  })

  test('gives up after the timeout', async () => {
    fake.add({ id: 14 })
    fake.onPair = ({ id }) => fake.update(id, { status: 'qrcode', qrcode: 'Q' })
    const { final } = await follow(14, { timeoutMs: 100 })
    expect(final.outcome).toBe('gave-up')
    expect(final.session.status).toBe('qrcode')
  })

  test('an unknown connection fails with not-found', async () => {
    const err = await follow(404).catch((e) => e)
    expect(err.code).toBe('ERR_NO_WAPP_FOUND')
    expect(err.exitCode).toBe(EXIT.notFound)
  })
})

describe('balcao connection (the command, as a child process)', () => {
  async function run(args: string[], env: Record<string, string> = {}) {
    const child = Bun.spawn([process.execPath, 'src/main.ts', 'connection', ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ])
    return { stdout, stderr, code, lines: stdout.trim().split('\n').filter(Boolean) }
  }

  test('list prints JSON when stdout is not a terminal', async () => {
    fake.add({ id: 1, status: 'CONNECTED' })
    const { code, stdout } = await run(['list', '--data', dataDir])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject([{ id: 1, status: 'CONNECTED', companyName: 'Padaria Estrela' }])
  })

  test('pair prints one JSON line per change and exits 0 once connected', async () => {
    fake.add({ id: 20 })
    fake.onPair = connectsAfterTwoQrs
    const { code, lines } = await run(['pair', '20', '--json'], { BALCAO_DATA_DIR: dataDir })
    expect(code).toBe(0)
    const events = lines.map((l) => JSON.parse(l))
    expect(events.map((e) => [e.status, e.qrcode])).toEqual([
      ['OPENING', ''],
      ['qrcode', 'QR-1'],
      ['qrcode', 'QR-2'],
      ['CONNECTED', ''],
    ])
    expect(Object.keys(events[1]).sort()).toEqual([
      'expirationTime',
      'pairingCode',
      'qrcode',
      'status',
      'statusReason',
    ])
  })

  test('pair exits 6 on TIMEOUT', async () => {
    fake.add({ id: 21 })
    fake.onPair = timesOut
    const { code, lines } = await run(['pair', '21', '--data', dataDir, '--json'])
    expect(code).toBe(EXIT.unavailable)
    expect(JSON.parse(lines.at(-1)!).status).toBe('TIMEOUT')
  })

  test('pair exits 6 after --timeout', async () => {
    fake.add({ id: 22 })
    fake.onPair = ({ id }) => fake.update(id, { status: 'qrcode', qrcode: 'Q' })
    const { code, lines, stderr } = await run(['pair', '22', '--data', dataDir, '--timeout', '0.3'])
    expect(code).toBe(EXIT.unavailable)
    expect(JSON.parse(lines.at(-1)!).status).toBe('qrcode')
    expect(JSON.parse(stderr).error).toBe('ERR_PAIR_TIMEOUT')
  })

  test('not running, unknown connection and bad arguments have their exit codes', async () => {
    // Without a server, list reads the database; a folder with none is unavailable, said on stderr.
    const nowhere = tempDir()
    const down = await run(['list', '--data', nowhere])
    expect(down.code).toBe(EXIT.unavailable)
    expect(down.stdout).toBe('')
    expect(JSON.parse(down.stderr)).toMatchObject({ error: 'ERR_NO_DATA' })
    expect(JSON.parse(down.stderr).message).toContain(`No Balcão data in ${nowhere}`)
    const paired = await run(['pair', '1', '--data', nowhere])
    expect(paired.code).toBe(EXIT.unavailable)
    expect(JSON.parse(paired.stderr)).toMatchObject({ error: 'ERR_NOT_RUNNING' })
    expect(JSON.parse(paired.stderr).message).toContain(`Balcão is not running with data folder ${nowhere}`)

    expect((await run(['pair', '999', '--data', dataDir])).code).toBe(EXIT.notFound)
    expect((await run(['pair', 'abc', '--data', dataDir])).code).toBe(EXIT.usage)
    expect((await run(['pair', '1', '--phone', '12', '--data', dataDir])).code).toBe(EXIT.usage)
  })
})
