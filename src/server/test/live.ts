/**
 * For tests only: a real Bun server on 127.0.0.1 around the harness app, and real WebSocket clients, so the
 * live socket is exercised over the real protocol.
 */
import type { Server } from 'bun'
import type { LiveFrame } from '../../shared/live'
import type { Logger } from '../logger'
import { setOnline } from '../modules/auth/service'
import { roomsOfUser } from '../modules/users/service'
import type { FrameLimits } from '../realtime/rate-limit'
import { liveSocketHandler, type SocketData, type TicketAccess } from '../realtime/socket'
import type { Harness } from './harness'

export type LiveServerOptions = {
  ticketAccess?: TicketAccess
  log?: Logger
  limits?: FrameLimits
  /** Replaces the real rooms lookup (to make it fail, say). */
  roomsOfUser?: (userId: number) => string[]
}

/** Wires the socket handler the way serve.ts does. */
export function listenLive(h: Harness, options: LiveServerOptions = {}): Server<SocketData> {
  const server = Bun.serve<SocketData>({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req, srv) => h.app.fetch(req, { server: srv }),
    websocket: liveSocketHandler(
      { ...h.deps, log: options.log ?? h.deps.log },
      {
        roomsOfUser: options.roomsOfUser ?? ((userId) => roomsOfUser(h.deps.db, userId)),
        setOnline: (userId, online) => setOnline(h.deps, userId, online),
        ticketAccess: options.ticketAccess,
      },
      options.limits,
    ),
  })
  h.deps.hub.attach(server)
  return server
}

export type LiveClient = {
  ws: WebSocket
  frames: LiveFrame[]
  /** Rejects when the server refuses the socket. */
  opened: Promise<void>
  closed: Promise<{ code: number; reason: string }>
  /** Resolves with the first frame (already received or to come) that matches. */
  next(match: (frame: LiveFrame) => boolean): Promise<LiveFrame>
}

export function connectLive(server: Server<SocketData>, token: string): LiveClient {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/ws?token=${token}`)
  const frames: LiveFrame[] = []
  const waiters: { match: (f: LiveFrame) => boolean; resolve: (f: LiveFrame) => void }[] = []
  ws.onmessage = (e) => {
    const frame = JSON.parse(String(e.data)) as LiveFrame
    frames.push(frame)
    for (const w of [...waiters])
      if (w.match(frame)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(frame)
      }
  }
  const opened = new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve())
    ws.addEventListener('error', () => reject(new Error('socket refused')))
  })
  // A refused socket rejects `opened`; tests that expect it must not also fail on an unhandled rejection.
  opened.catch(() => {})
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.addEventListener('close', (e) => resolve({ code: e.code, reason: e.reason }))
  })
  const next = (match: (f: LiveFrame) => boolean) =>
    new Promise<LiveFrame>((resolve) => {
      const seen = frames.find(match)
      if (seen) resolve(seen)
      else waiters.push({ match, resolve })
    })
  return { ws, frames, opened, closed, next }
}

/** Waits for server-side effects of socket events (joins, leaves) that the client cannot observe. */
export async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 400 && !check(); i++) await Bun.sleep(5)
  if (!check()) throw new Error(`timed out waiting for ${what}`)
}

/** Rows written since the database was opened: counts every UPDATE, even one that rewrites the same value. */
export function rowsWritten(h: Harness): number {
  return (h.deps.sqlite.query('SELECT total_changes() AS n').get() as { n: number }).n
}

/** A ticket access check that grants `allowed` and lets a test wait until a given ticket has been asked about. */
export function ticketAccessProbe(allowed: (ticketId: number) => boolean) {
  const asked: number[] = []
  const waiters = new Map<number, () => void>()
  const access: TicketAccess = (_actor, ticketId) => {
    asked.push(ticketId)
    waiters.get(ticketId)?.()
    waiters.delete(ticketId)
    return allowed(ticketId)
  }
  /** Resolves once the server has handled a joinChatBox for `ticketId`: every earlier frame of that socket too. */
  const askedAbout = (ticketId: number) =>
    asked.includes(ticketId)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.set(ticketId, resolve))
  return { access, asked, askedAbout }
}
