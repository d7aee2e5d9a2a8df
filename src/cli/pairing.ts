/**
 * Following a `connection pair` run without drawing it: the states a pairing goes through, how each update
 * moves it on, and the loop that asks the server and listens. The command prints it; the Ink screen draws it.
 */
import { EXIT } from './exit-codes'
import {
  type OperatorClient,
  type OperatorConnectionDetail,
  OperatorError,
  type SessionSnapshot,
  snapshotOf,
  type WatchOptions,
} from './operator-client'

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
    statusReason: session.statusReason,
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
