import type { ServerWebSocket, WebSocketHandler } from 'bun'
import { type ClientFrame, LIVE_CLOSE } from '../../shared/live'
import type { UserActor } from '../context'
import type { Logger } from '../logger'
import { MAX_FRAME_BYTES, parseClientFrame } from './frames'
import type { Hub } from './hub'
import { FRAME_LIMITS, FrameLimiter, type FrameLimits } from './rate-limit'
import { rooms } from './rooms'

/** A signed-in user's socket, or the terminal operator's (sessions of every company). */
export type SocketData = { actor: UserActor; operator?: false } | { operator: true }

/** Decides whether a user may follow a ticket's room; the inbox area provides it. */
export type TicketAccess = (actor: UserActor, ticketId: number) => boolean

/** What the socket needs from the areas. Handed in, so that realtime/ depends on no module. */
export type LiveServices = {
  /** The rooms the user may see now: company, own user, admins, queues. */
  roomsOfUser: (userId: number) => string[]
  /** Records the user's online flag; expected to write and publish only when the flag changes. */
  setOnline: (userId: number, online: boolean) => void
  /** Without it, no ticket room can be joined. */
  ticketAccess?: TicketAccess
}

export type LiveSocketDeps = { hub: Hub; clock: { now(): number }; log: Logger }

type Ws = ServerWebSocket<SocketData>

/**
 * Bun's WebSocket handler for /api/ws. The upgrade (in app.ts) has already authenticated the token and
 * checked the user's socket count; here a socket joins the rooms its user may see and handles the client's
 * few frames.
 *
 * Every handler is guarded: Bun treats a throw in one as an uncaught exception, which ends the process, so
 * a failure is logged and at worst costs that one socket.
 */
export function liveSocketHandler(
  deps: LiveSocketDeps,
  services: LiveServices,
  limits: FrameLimits = FRAME_LIMITS,
): WebSocketHandler<SocketData> {
  const { hub, log } = deps
  /** Present from a user socket's admission until it closes or is closed for flooding. */
  const limiters = new WeakMap<Ws, FrameLimiter>()

  const guard =
    <A extends unknown[]>(name: string, fn: (ws: Ws, ...rest: A) => void, onError?: (ws: Ws) => void) =>
    (ws: Ws, ...rest: A) => {
      try {
        fn(ws, ...rest)
      } catch (err) {
        logFailure(log, name, ws, err)
        try {
          onError?.(ws)
        } catch {}
      }
    }

  return {
    open: guard(
      'open',
      (ws) => {
        if (ws.data.operator) {
          hub.join(ws, { companyId: 0, userId: 0, sessionId: 'operator' }, [rooms.operator])
          return
        }
        const { userId, companyId, sessionId } = ws.data.actor
        // The upgrade refuses past the cap already; two upgrades racing for the last place end here.
        if (!hub.hasRoomFor(userId)) {
          ws.close(LIVE_CLOSE.tooManySockets, 'too many live connections')
          return
        }
        hub.join(ws, { companyId, userId, sessionId }, services.roomsOfUser(userId))
        limiters.set(ws, new FrameLimiter(deps.clock, limits))
        if (hub.socketsOf(userId) === 1) services.setOnline(userId, true)
      },
      // A socket that could not join its rooms would stay open and silent; closing it makes the client retry.
      (ws) => ws.close(LIVE_CLOSE.internalError, 'live socket failed to open'),
    ),
    message: guard('message', (ws, message: string | Buffer) => {
      if (ws.data.operator) return
      const limiter = limiters.get(ws)
      if (!limiter) return
      const verdict = limiter.take()
      if (verdict === 'drop') return
      if (verdict === 'close') {
        limiters.delete(ws)
        log.warn('live socket closed for flooding', { userId: ws.data.actor.userId })
        ws.close(LIVE_CLOSE.policyViolation, 'too many frames')
        return
      }
      const frame = parseClientFrame(message)
      if (frame) handleFrame(hub, services, ws, ws.data.actor, frame)
    }),
    close: guard('close', (ws) => {
      limiters.delete(ws)
      const member = hub.leave(ws)
      if (member && !ws.data.operator && hub.socketsOf(member.userId) === 0)
        services.setOnline(member.userId, false)
    }),
    // The guards catch everything; this is the last line should Bun call a handler we did not wrap.
    error(err, ws) {
      logFailure(log, 'error', ws, err)
    },
    maxPayloadLength: MAX_FRAME_BYTES,
    idleTimeout: 60,
    sendPings: true,
  }
}

function handleFrame(hub: Hub, services: LiveServices, ws: Ws, actor: UserActor, frame: ClientFrame) {
  switch (frame.event) {
    case 'userStatus':
      services.setOnline(actor.userId, true)
      return
    case 'joinChatBox':
      if (services.ticketAccess?.(actor, frame.data))
        hub.addRoom(ws, rooms.ticket(actor.companyId, frame.data))
      return
    case 'leaveChatBox':
      hub.removeRoom(ws, rooms.ticket(actor.companyId, frame.data))
      return
  }
}

function logFailure(log: Logger, handler: string, ws: Ws, err: unknown) {
  try {
    log.error('live socket handler failed', {
      handler,
      userId: ws.data.operator ? 'operator' : ws.data.actor.userId,
      error: err instanceof Error ? err.message : String(err),
    })
  } catch {}
}

/** Live sockets are pinged every 18 s with a frame the client can watch for liveness. */
export const PING_INTERVAL_MS = 18_000
