/**
 * The live socket at /api/ws. Frames are `{ event, data }` JSON; `src/shared/live.ts` maps every event name
 * to its payload, so a handler's `data` is typed by the name alone:
 *   const off = subscribe(liveChannel(companyId, 'user'), (data) => ...)   // or `company-${companyId}-user`
 *   const offR = onReconnect(() => refetch())   // the socket came back after a drop: re-fetch what you show
 *   sendLive('joinChatBox', ticketId)
 * The socket reconnects with exponential backoff and fetches a fresh token first when the current one is
 * about to expire.
 */
import { signal } from '@preact/signals-react'
import {
  type ClientEventName,
  type ClientEvents,
  LIVE_CLOSE,
  type LiveEventName,
  type LivePayload,
} from '../../shared/live'
import { tokenExpiresSoon } from '../lib/jwt'
import { getToken, refreshToken } from './client'

export { liveChannel } from '../../shared/live'

type Handler = (data: unknown) => void

const handlers = new Map<string, Set<Handler>>()
const reconnectHandlers = new Set<() => void>()
const sessionEndHandlers = new Set<(end: SessionEnd) => void>()

/** Why the server closed the socket for good: `code` is LIVE_CLOSE.sessionEnded or companyUnavailable. */
export type SessionEnd = { code: number; reason: string }

/** Whether the socket is open right now. */
export const liveConnected = signal(false)
/** True after a drop, until the socket is back (the top bar shows 'Reconnecting'). */
export const liveReconnecting = signal(false)

let socket: WebSocket | null = null
let wanted = false
let everOpened = false
let attempts = 0
let retryTimer: ReturnType<typeof setTimeout> | null = null
let statusTimer: ReturnType<typeof setInterval> | null = null

export const USER_STATUS_INTERVAL = 5 * 60_000
const MAX_BACKOFF = 30_000

/** Calls `handler` with the `data` of every frame named `event`. Returns the function that stops it. */
export function subscribe<E extends LiveEventName>(
  event: E,
  handler: (data: LivePayload<E>) => void,
): () => void
/**
 * @deprecated For call sites that still name their own payload type (`subscribe<MyEvent>(...)`): drop the type
 * argument and the local type, and the payload comes from `src/shared/live.ts`.
 */
export function subscribe<T>(event: string, handler: (data: T) => void): () => void
export function subscribe(event: string, handler: Handler): () => void {
  let set = handlers.get(event)
  if (!set) {
    set = new Set()
    handlers.set(event, set)
  }
  set.add(handler)
  return () => {
    set.delete(handler)
    if (set.size === 0) handlers.delete(event)
  }
}

export function onReconnect(handler: () => void): () => void {
  reconnectHandlers.add(handler)
  return () => reconnectHandlers.delete(handler)
}

/**
 * The server ended this session (signed out, signed in elsewhere, password changed, user deleted, company
 * closed): the socket does not reconnect, and the handler signs the user out.
 */
export function onSessionEnd(handler: (end: SessionEnd) => void): () => void {
  sessionEndHandlers.add(handler)
  return () => sessionEndHandlers.delete(handler)
}

/** Delivers a frame to the subscribers of its event (exported for tests). */
export function dispatch(raw: string): void {
  let frame: { event?: unknown; data?: unknown }
  try {
    frame = JSON.parse(raw)
  } catch {
    return
  }
  if (typeof frame?.event !== 'string') return
  const set = handlers.get(frame.event)
  if (!set) return
  for (const h of [...set]) {
    try {
      h(frame.data)
    } catch (err) {
      console.error('live handler failed', frame.event, err)
    }
  }
}

/** Sends a client frame when the socket is open (dropped otherwise: the server forgets rooms on reconnect anyway). */
export function sendLive<E extends ClientEventName>(
  event: E,
  ...data: ClientEvents[E] extends undefined ? [] : [data: ClientEvents[E]]
): void {
  if (socket?.readyState === WebSocket.OPEN)
    socket.send(JSON.stringify(data.length === 0 ? { event } : { event, data: data[0] }))
}

function scheduleRetry() {
  if (!wanted || retryTimer) return
  const delay = Math.min(MAX_BACKOFF, 1000 * 2 ** attempts) + Math.floor(Math.random() * 500)
  attempts++
  retryTimer = setTimeout(() => {
    retryTimer = null
    void connect()
  }, delay)
}

async function connect() {
  if (!wanted || socket) return
  let token = getToken()
  if (!token || tokenExpiresSoon(token)) {
    try {
      token = (await refreshToken()).token
    } catch {
      scheduleRetry()
      return
    }
  }
  if (!wanted || socket) return
  const proto = location.protocol === 'https:' ? 'wss' : 'ws'
  const ws = new WebSocket(`${proto}://${location.host}/api/ws?token=${encodeURIComponent(token)}`)
  socket = ws
  ws.onopen = () => {
    attempts = 0
    liveConnected.value = true
    liveReconnecting.value = false
    const reconnected = everOpened
    everOpened = true
    if (statusTimer) clearInterval(statusTimer)
    statusTimer = setInterval(() => sendLive('userStatus'), USER_STATUS_INTERVAL)
    sendLive('userStatus')
    if (reconnected) for (const h of [...reconnectHandlers]) h()
  }
  ws.onmessage = (e) => {
    if (typeof e.data === 'string') dispatch(e.data)
  }
  ws.onclose = (e?: CloseEvent) => {
    if (socket === ws) socket = null
    liveConnected.value = false
    if (statusTimer) clearInterval(statusTimer)
    statusTimer = null
    const code = e?.code
    if (code === LIVE_CLOSE.sessionEnded || code === LIVE_CLOSE.companyUnavailable) {
      // Reconnecting cannot help: the session is over.
      wanted = false
      liveReconnecting.value = false
      const end = { code, reason: e?.reason ?? '' }
      for (const h of [...sessionEndHandlers]) h(end)
      return
    }
    if (everOpened && wanted) liveReconnecting.value = true
    scheduleRetry()
  }
  ws.onerror = () => {
    // onclose follows and schedules the retry.
  }
}

/** Opens the socket (after sign-in). */
export function startLive(): void {
  if (wanted) return
  wanted = true
  attempts = 0
  void connect()
}

/** Closes the socket (sign-out). */
export function stopLive(): void {
  wanted = false
  everOpened = false
  if (retryTimer) clearTimeout(retryTimer)
  retryTimer = null
  if (statusTimer) clearInterval(statusTimer)
  statusTimer = null
  const ws = socket
  socket = null
  liveConnected.value = false
  liveReconnecting.value = false
  if (ws) {
    ws.onclose = null
    ws.close()
  }
}
