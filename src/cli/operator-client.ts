import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ConnectionStatus, ConnectionStatusReason } from '../shared/connection-status'
import { AppError, isErrorCode } from '../shared/errors'
import { EXIT, exitCodeOf } from './exit-codes'

/**
 * The CLI's side of the operator channel: commands that need the RUNNING server (its WhatsApp sessions live in
 * its memory) reach it over HTTP with the local credential the server writes to `<data>/operator.json`.
 */

/** `<data>/operator.json`, written by `balcao serve` at start-up (mode 600). */
export type OperatorCredential = { url: string; token: string; pid?: number }

export type OperatorConnection = {
  id: number
  name: string
  companyId: number
  companyName: string
  provider: 'beta' | 'sandbox'
  status: ConnectionStatus
  /** Why it is not connected (no_network, logged_out, ...); null when nothing went wrong. */
  statusReason: ConnectionStatusReason | null
  number: string | null
  isDefault: boolean
  retries: number
  updatedAt: string
}

export type OperatorConnectionDetail = OperatorConnection & {
  /** '' when there is none. */
  qrcode: string
  pairingCode: string | null
  /** Epoch ms when the QR or the pairing code expires. */
  expirationTime: number | null
}

/** What a live `company-{id}-whatsappSession` frame says about one connection. */
export type SessionSnapshot = Pick<
  OperatorConnectionDetail,
  | 'id'
  | 'name'
  | 'status'
  | 'statusReason'
  | 'qrcode'
  | 'pairingCode'
  | 'expirationTime'
  | 'retries'
  | 'number'
> & { updatedAt?: string }

/** A failure talking to the server, with the exit code the CLI ends with. */
export class OperatorError extends Error {
  readonly exitCode: number
  constructor(
    readonly code: string,
    message: string,
    /** The HTTP status; 503 when the server could not be reached at all. */
    readonly status: number,
    exitCode?: number,
    /** The fields a validation error names, as the server answered them. */
    readonly fields?: { field: string; message: string }[],
  ) {
    super(message)
    this.name = 'OperatorError'
    // Codes of the catalogue map exactly as `fail` maps them; unknown codes by their status, with the same rules.
    this.exitCode =
      exitCode ??
      exitCodeOf(
        isErrorCode(code) ? new AppError(code) : Object.assign(new AppError('ERR_INTERNAL'), { status }),
      )
  }
}

/** The server is not there: no credential file, a dead pid, or a refused connection. Exit code 6. */
export function notRunning(dataDir: string) {
  return new OperatorError(
    'ERR_NOT_RUNNING',
    `Balcão is not running with data folder ${dataDir}; start it with \`balcao serve\``,
    503,
  )
}

function processIsGone(pid: number) {
  try {
    process.kill(pid, 0)
    return false
  } catch (err) {
    // EPERM means it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** Reads and checks `<dataDir>/operator.json`; throws `ERR_NOT_RUNNING` when the server is clearly not up. */
export function readOperatorFile(dataDir: string): OperatorCredential {
  const path = join(dataDir, 'operator.json')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EACCES') {
      throw new OperatorError(
        'ERR_NO_PERMISSION',
        `Cannot read ${path}: run as the user that runs Balcão`,
        403,
      )
    }
    throw notRunning(dataDir)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw notRunning(dataDir)
  }
  const { url, token, pid } = (parsed ?? {}) as Partial<Record<keyof OperatorCredential, unknown>>
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || typeof token !== 'string' || token === '') {
    throw notRunning(dataDir)
  }
  if (typeof pid === 'number' && Number.isInteger(pid) && pid > 0 && processIsGone(pid))
    throw notRunning(dataDir)
  return { url: url.replace(/\/+$/, ''), token, ...(typeof pid === 'number' ? { pid } : {}) }
}

export type WatchMode = 'live' | 'polling'

export type WatchOptions = {
  /** Polling period when the live socket is not available (default 1 s). */
  pollMs?: number
  /** How long the socket may take to open before polling takes over (default 3 s). */
  openTimeoutMs?: number
  /** A socket silent for this long (the server pings every 18 s) is given up for polling (default 45 s). */
  silenceMs?: number
  /** Consecutive failed polls tolerated while the server is unreachable (default 10). */
  maxPollFailures?: number
  /** Skip the socket and poll from the start. */
  pollOnly?: boolean
  /** A failure that ends the watch (connection deleted, server gone, credential refused). */
  onError?: (err: OperatorError) => void
}

export type ConnectionWatch = {
  /** Resolves once updates flow: the socket opened, or polling took over. */
  ready: Promise<WatchMode>
  mode: () => WatchMode | 'connecting' | 'stopped'
  stop: () => void
}

type LiveFrame = { event?: unknown; data?: { action?: unknown; session?: Partial<SessionSnapshot> } }

/** Picks a connection's session fields out of a live frame; undefined for anything else. */
export function sessionOfFrame(text: string, id: number): SessionSnapshot | undefined {
  let frame: LiveFrame
  try {
    frame = JSON.parse(text) as LiveFrame
  } catch {
    return undefined
  }
  // JSON.parse also answers null, numbers and arrays.
  if (!frame || typeof frame !== 'object') return undefined
  if (typeof frame.event !== 'string' || !/^company-\d+-whatsappSession$/.test(frame.event)) return undefined
  const session = frame.data?.session
  if (frame.data?.action !== 'update' || !session || session.id !== id) return undefined
  return snapshotOf(session as SessionSnapshot)
}

export function snapshotOf(c: SessionSnapshot): SessionSnapshot {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    statusReason: c.statusReason ?? null,
    qrcode: c.qrcode ?? '',
    pairingCode: c.pairingCode ?? null,
    expirationTime: c.expirationTime ?? null,
    retries: c.retries ?? 0,
    number: c.number ?? null,
    ...(typeof c.updatedAt === 'string' ? { updatedAt: c.updatedAt } : {}),
  }
}

/** The running server's operator API, as the CLI uses it. */
export class OperatorClient {
  constructor(
    readonly credential: OperatorCredential,
    /** Only for messages: which data folder the credential came from. */
    readonly dataDir: string,
  ) {}

  /** A client for the server that runs with `dataDir`; throws `ERR_NOT_RUNNING` when there is none. */
  static open(dataDir: string) {
    return new OperatorClient(readOperatorFile(dataDir), dataDir)
  }

  private async request<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    timeoutMs = 15_000,
  ): Promise<T> {
    let res: Response
    try {
      res = await fetch(`${this.credential.url}${path}`, {
        method,
        headers: {
          Authorization: `Operator ${this.credential.token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (err) {
      // A request that got no answer in time may have done its work: it is not "not running" (which lets a
      // command run again on the database), but a failure of its own.
      if ((err as Error)?.name === 'TimeoutError') {
        throw new OperatorError(
          'ERR_SERVER_TIMEOUT',
          `The server on ${this.dataDir} did not answer within ${Math.round(timeoutMs / 1000)} s`,
          504,
          EXIT.unavailable,
        )
      }
      throw Object.assign(notRunning(this.dataDir), { cause: err })
    }
    const text = await res.text()
    let parsed: unknown
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    if (!res.ok) {
      const err = (parsed ?? {}) as { error?: unknown; message?: unknown; fields?: unknown }
      const code = typeof err.error === 'string' ? err.error : `HTTP_${res.status}`
      const message =
        typeof err.message === 'string' && err.message !== ''
          ? err.message
          : res.status === 401
            ? 'The server refused the operator credential; restart `balcao serve`'
            : `The server answered ${res.status} ${res.statusText}`
      const fields = Array.isArray(err.fields)
        ? (err.fields as { field: string; message: string }[])
        : undefined
      throw new OperatorError(code, message, res.status, undefined, fields)
    }
    return parsed as T
  }

  /** Runs one operator command (`company.create`, …) on the server: its JSON result. */
  command<T>(name: string, input: Record<string, unknown>) {
    return this.request<T>('POST', `/api/operator/commands/${encodeURIComponent(name)}`, input, 120_000)
  }

  listConnections() {
    return this.request<OperatorConnection[]>('GET', '/api/operator/connections')
  }

  getConnection(id: number) {
    return this.request<OperatorConnectionDetail>('GET', `/api/operator/connections/${id}`)
  }

  /** (Re)starts the session: a QR follows, or a pairing code when `phone` is given. */
  pairConnection(id: number, phone?: string) {
    return this.request<OperatorConnectionDetail>(
      'POST',
      `/api/operator/connections/${id}/pair`,
      phone ? { phone } : {},
    )
  }

  /** `ws://host/api/ws?operator=<token>` */
  liveUrl() {
    const url = new URL('/api/ws', this.credential.url)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    url.searchParams.set('operator', this.credential.token)
    return url.toString()
  }

  /**
   * Follows one connection's session: live frames from the server's socket, or a GET every second when the
   * socket cannot be opened or goes quiet. Snapshots may repeat; the caller decides what changed.
   */
  watchConnection(
    id: number,
    onSnapshot: (snapshot: SessionSnapshot, mode: WatchMode) => void,
    options: WatchOptions = {},
  ): ConnectionWatch {
    const pollMs = options.pollMs ?? 1000
    const silenceMs = options.silenceMs ?? 45_000
    const maxPollFailures = options.maxPollFailures ?? 10
    let mode: WatchMode | 'connecting' | 'stopped' = 'connecting'
    let socket: WebSocket | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let resolveReady: (mode: WatchMode) => void = () => {}
    const ready = new Promise<WatchMode>((resolve) => {
      resolveReady = resolve
    })

    const stop = () => {
      mode = 'stopped'
      clearTimeout(timer)
      if (socket) {
        socket.onclose = socket.onerror = socket.onmessage = socket.onopen = null
        socket.close()
        socket = undefined
      }
    }

    const startPolling = () => {
      if (mode === 'stopped' || mode === 'polling') return
      if (socket) {
        socket.onclose = socket.onerror = socket.onmessage = socket.onopen = null
        socket.close()
        socket = undefined
      }
      clearTimeout(timer)
      mode = 'polling'
      resolveReady('polling')
      let failures = 0
      const tick = async () => {
        if (mode !== 'polling') return
        try {
          const detail = await this.getConnection(id)
          failures = 0
          if (mode === 'polling') onSnapshot(snapshotOf(detail), 'polling')
        } catch (err) {
          const e = err instanceof OperatorError ? err : new OperatorError('ERR_INTERNAL', String(err), 500)
          failures++
          if (e.exitCode !== EXIT.unavailable || failures >= maxPollFailures) {
            stop()
            options.onError?.(e)
            return
          }
        }
        if (mode === 'polling') timer = setTimeout(tick, pollMs)
      }
      timer = setTimeout(tick, pollMs)
    }

    const armSilence = () => {
      clearTimeout(timer)
      timer = setTimeout(startPolling, silenceMs)
    }

    if (options.pollOnly) {
      startPolling()
    } else {
      try {
        socket = new WebSocket(this.liveUrl())
      } catch {
        startPolling()
      }
      if (socket) {
        timer = setTimeout(startPolling, options.openTimeoutMs ?? 3000)
        socket.onopen = () => {
          mode = 'live'
          armSilence()
          resolveReady('live')
        }
        socket.onmessage = (event) => {
          if (mode !== 'live') return
          armSilence()
          const snapshot = sessionOfFrame(String(event.data), id)
          if (snapshot) onSnapshot(snapshot, 'live')
        }
        socket.onerror = socket.onclose = () => startPolling()
      }
    }
    return { ready, mode: () => mode, stop }
  }
}
