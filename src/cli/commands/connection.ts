import type { Command } from 'commander'
import { loadConfig } from '../../server/config'
import { AppError } from '../../shared/errors'
import { EXIT } from '../exit-codes'
import {
  OperatorClient,
  type OperatorConnectionDetail,
  OperatorError,
  type SessionSnapshot,
  snapshotOf,
  type WatchOptions,
} from '../operator-client'
import { fail, wantsJson } from '../output'

/** How a `connection pair` run ends. */
export type PairOutcome = 'connected' | 'timeout' | 'disconnected' | 'gave-up' | 'cancelled'

export type PairState = {
  connection: OperatorConnectionDetail
  session: SessionSnapshot
  /** The session has been seen opening, showing a QR or a pairing code. */
  started: boolean
  outcome?: PairOutcome
}

const STARTING = new Set(['OPENING', 'qrcode', 'PAIRING'])

/**
 * The state the pair request answered with. The server answers once the new session has started, so this is
 * current: an already-paired phone may be CONNECTED at once (success), a TIMEOUT is final. A DISCONNECTED
 * answer is not taken as failure: the session may still be opening.
 */
export function initialPairState(connection: OperatorConnectionDetail): PairState {
  const session = snapshotOf(connection)
  const started = STARTING.has(session.status) || !!session.qrcode || !!session.pairingCode
  const outcome =
    session.status === 'CONNECTED' ? 'connected' : session.status === 'TIMEOUT' ? 'timeout' : undefined
  return { connection, session, started, ...(outcome ? { outcome } : {}) }
}

/**
 * One session update: CONNECTED ends well; TIMEOUT ends badly; DISCONNECTED ends badly only once the session
 * had started (the answer to the pair request may still carry the state from before).
 */
export function applySnapshot(state: PairState, session: SessionSnapshot): PairState {
  if (state.outcome) return state
  const started = state.started || STARTING.has(session.status) || !!session.qrcode || !!session.pairingCode
  const outcome =
    session.status === 'CONNECTED'
      ? 'connected'
      : session.status === 'TIMEOUT'
        ? 'timeout'
        : session.status === 'DISCONNECTED' && started
          ? 'disconnected'
          : undefined
  return { ...state, session, started, ...(outcome ? { outcome } : {}) }
}

/** What `--json` prints, one line per change. */
export function pairLine(session: SessionSnapshot) {
  return {
    status: session.status,
    qrcode: session.qrcode,
    pairingCode: session.pairingCode,
    expirationTime: session.expirationTime,
  }
}

export function exitCodeOfOutcome(outcome: PairOutcome) {
  if (outcome === 'connected') return EXIT.ok
  if (outcome === 'cancelled') return 130
  return EXIT.unavailable
}

export type FollowOptions = {
  phone?: string
  timeoutMs: number
  /** Called with the first state (after the pair request), then on every update, the last one with an outcome. */
  onState: (state: PairState) => void
  signal?: AbortSignal
  watch?: WatchOptions
}

/**
 * `connection pair`, without the screen: opens the live feed first (so no update is lost), asks the server to
 * (re)start the session, then follows it until it connects, fails, the time runs out or `signal` aborts.
 */
export async function followPairing(client: OperatorClient, id: number, options: FollowOptions) {
  let state: PairState | undefined
  const early: SessionSnapshot[] = []
  let finish: (state: PairState) => void = () => {}
  let failWith: (err: unknown) => void = () => {}
  const done = new Promise<PairState>((resolve, reject) => {
    finish = resolve
    failWith = reject
  })
  done.catch(() => {}) // awaited below; this only keeps an early failure from counting as unhandled

  const end = (next: PairState) => {
    state = next
    options.onState(next)
    finish(next)
  }
  const onSnapshot = (session: SessionSnapshot, mode: 'live' | 'polling') => {
    if (!state) {
      // Before the pair request has answered, only live frames are news: a poll would show the old state.
      if (mode === 'live') early.push(session)
      return
    }
    if (state.outcome) return
    const next = applySnapshot(state, session)
    if (next.outcome) return end(next)
    state = next
    options.onState(next)
  }

  const watch = client.watchConnection(id, onSnapshot, {
    ...options.watch,
    onError: (err) => failWith(err),
  })
  const timer = setTimeout(
    () => state && !state.outcome && end({ ...state, outcome: 'gave-up' }),
    options.timeoutMs,
  )
  const onAbort = () => {
    if (!state) failWith(new OperatorError('ERR_CANCELLED', 'Cancelled', 499, 130))
    else if (!state.outcome) end({ ...state, outcome: 'cancelled' })
  }
  options.signal?.addEventListener('abort', onAbort)
  try {
    if (options.signal?.aborted) onAbort()
    // Until the pair request has answered, `done` can only fail (Ctrl-C, or the watch gave up).
    const untilFailure = done as Promise<never>
    await Promise.race([watch.ready, untilFailure])
    const connection = await Promise.race([client.pairConnection(id, options.phone), untilFailure])
    const initial = initialPairState(connection)
    if (initial.outcome) end(initial)
    else {
      state = initial
      options.onState(initial)
      for (const session of newerThan(early.splice(0), initial.session)) onSnapshot(session, 'live')
    }
    return await done
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
    watch.stop()
  }
}

function sameSession(a: SessionSnapshot, b: SessionSnapshot) {
  return JSON.stringify(pairLine(a)) === JSON.stringify(pairLine(b))
}

/**
 * Of the live frames that arrived while the pair request was under way, those that came after its answer:
 * the ones after the last frame equal to the answer, or else those stamped later. The others (the old session
 * closing, OPENING) would draw the screen back.
 */
export function newerThan(frames: SessionSnapshot[], answer: SessionSnapshot) {
  const last = frames.findLastIndex((f) => sameSession(f, answer))
  if (last >= 0) return frames.slice(last + 1)
  return frames.filter((f) => f.updatedAt && answer.updatedAt && f.updatedAt > answer.updatedAt)
}

type CommonOptions = { data?: string; json?: boolean }
type PairOptions = CommonOptions & { phone?: string; timeout: string }

/** Like `fail`, for the errors of the operator channel too (ERR_NOT_RUNNING exits with 6). */
function failOperator(options: CommonOptions, err: unknown): never {
  if (!(err instanceof OperatorError)) fail(options, err)
  if (wantsJson(options))
    process.stdout.write(`${JSON.stringify({ error: err.code, message: err.message })}\n`)
  else process.stderr.write(`✖ ${err.message} (${err.code})\n`)
  process.exit(err.exitCode)
}

function dataDirOf(options: CommonOptions) {
  return loadConfig({ data: options.data }).dataDir
}

export function parseConnectionId(value: string) {
  const id = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) {
    throw new AppError('ERR_VALIDATION', `Invalid connection id: ${value} (see \`balcao connection list\`)`)
  }
  return id
}

/** Digits only, country code first (5511999990000); spaces, dashes, brackets and a leading + are dropped. */
export function parsePhone(value: string | undefined) {
  if (value === undefined) return undefined
  const digits = value.replace(/[\s()+-]/g, '')
  if (!/^\d{8,15}$/.test(digits)) {
    throw new AppError(
      'ERR_VALIDATION',
      `Invalid phone number: ${value} (digits with country code: 5511999990000)`,
    )
  }
  return digits
}

function parseTimeout(value: string) {
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new AppError('ERR_VALIDATION', `Invalid --timeout: ${value}`)
  return seconds * 1000
}

async function listAction(options: CommonOptions) {
  try {
    const connections = await OperatorClient.open(dataDirOf(options)).listConnections()
    if (wantsJson(options)) {
      process.stdout.write(`${JSON.stringify(connections)}\n`)
      return
    }
    const { renderConnectionList } = await import('../ui/connection-list')
    await renderConnectionList(connections)
  } catch (err) {
    failOperator(options, err)
  }
}

async function pairAction(idArg: string, options: PairOptions) {
  let final: PairState
  try {
    const id = parseConnectionId(idArg)
    const phone = parsePhone(options.phone)
    const timeoutMs = parseTimeout(options.timeout)
    const client = OperatorClient.open(dataDirOf(options))
    const abort = new AbortController()
    const onSignal = () => abort.abort()
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    try {
      if (wantsJson(options)) {
        let last = ''
        final = await followPairing(client, id, {
          phone,
          timeoutMs,
          signal: abort.signal,
          onState: (state) => {
            const line = JSON.stringify(pairLine(state.session))
            if (line !== last) process.stdout.write(`${line}\n`)
            last = line
          },
        })
        if (final.outcome === 'gave-up') {
          const message = `Not connected after ${options.timeout} s; gave up`
          process.stdout.write(`${JSON.stringify({ error: 'ERR_PAIR_TIMEOUT', message })}\n`)
        }
      } else {
        const { mountPairScreen } = await import('../ui/connection-pair')
        const screen = mountPairScreen({ id, phone, timeoutSeconds: Number(options.timeout) })
        let failed = true
        try {
          final = await followPairing(client, id, {
            phone,
            timeoutMs,
            signal: abort.signal,
            onState: (state) => screen.update(state),
          })
          failed = false
        } finally {
          await screen.close(failed)
        }
      }
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  } catch (err) {
    failOperator(options, err)
  }
  process.exit(exitCodeOfOutcome(final.outcome ?? 'gave-up'))
}

export function registerConnection(program: Command) {
  const connection = program
    .command('connection')
    .description('the WhatsApp connections of the running server (needs `balcao serve` on this data folder)')
  connection
    .command('list')
    .description("every company's connections with their live status")
    .option('-d, --data <dir>', 'data folder of the running server (env BALCAO_DATA_DIR, default ./data)')
    .option('--json', 'print the result as JSON')
    .action(listAction)
  connection
    .command('pair')
    .description('link a connection to a phone: shows the QR (or a pairing code) and waits until it connects')
    .argument('<id>', 'the connection id (see `balcao connection list`)')
    .option(
      '--phone <number>',
      'pair with a code instead of a QR; the number with country code (5511999990000)',
    )
    .option('--timeout <seconds>', 'give up after this many seconds', '300')
    .option('-d, --data <dir>', 'data folder of the running server (env BALCAO_DATA_DIR, default ./data)')
    .option('--json', 'print one JSON line per status or QR change')
    .addHelpText(
      'after',
      '\nExit codes: 0 connected, 2 bad arguments, 3 no such connection, 4 denied,\n' +
        '6 Balcão not running, or the session timed out / disconnected, 130 interrupted (Ctrl-C).',
    )
    .action(pairAction)
}
