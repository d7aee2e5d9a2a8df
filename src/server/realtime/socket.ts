import type { ServerWebSocket, WebSocketHandler } from 'bun'
import type { Actor, Deps } from '../context'
import { setOnline } from '../modules/auth/service'
import { roomsOfUser } from '../modules/users/service'
import { rooms } from './rooms'

/** A signed-in user's socket, or the terminal operator's (sessions of every company). */
export type SocketData = { actor: Actor; operator?: false } | { operator: true }

/** Decides whether a user may follow a ticket's room; the inbox area provides it. */
export type TicketAccess = (actor: Actor, ticketId: number) => boolean

type ClientFrame = { event?: unknown; data?: unknown }

/**
 * Bun's WebSocket handler for /api/ws. The upgrade (in app.ts) has already authenticated the token;
 * here a socket joins the rooms its user may see and handles the client's few frames.
 */
export function liveSocketHandler(
  deps: Deps,
  ticketAccess: TicketAccess = () => false,
): WebSocketHandler<SocketData> {
  return {
    open(ws) {
      if (ws.data.operator) {
        deps.hub.join(ws, { companyId: 0, userId: 0, sessionId: 'operator' }, [rooms.operator])
        return
      }
      const { actor } = ws.data
      deps.hub.join(ws, actor, roomsOfUser(deps.db, actor.userId))
      if (deps.hub.socketsOf(actor.userId) === 1) setOnline(deps, actor.userId, true)
    },
    message(ws, message) {
      if (ws.data.operator) return
      let frame: ClientFrame
      try {
        frame = JSON.parse(String(message)) as ClientFrame
      } catch {
        return
      }
      handleFrame(deps, ws, frame, ticketAccess)
    },
    close(ws) {
      const member = deps.hub.leave(ws)
      if (member && !ws.data.operator && deps.hub.socketsOf(member.userId) === 0)
        setOnline(deps, member.userId, false)
    },
    idleTimeout: 60,
    sendPings: true,
  }
}

function handleFrame(
  deps: Deps,
  ws: ServerWebSocket<SocketData>,
  frame: ClientFrame,
  ticketAccess: TicketAccess,
) {
  if (ws.data.operator) return
  const { actor } = ws.data
  switch (frame.event) {
    case 'userStatus':
      setOnline(deps, actor.userId, true)
      return
    case 'joinChatBox':
    case 'leaveChatBox': {
      const ticketId = Number(frame.data)
      if (!Number.isSafeInteger(ticketId) || ticketId < 1) return
      const room = rooms.ticket(actor.companyId, ticketId)
      if (frame.event === 'leaveChatBox') deps.hub.removeRoom(ws, room)
      else if (ticketAccess(actor, ticketId)) deps.hub.addRoom(ws, room)
      return
    }
  }
}

/** Live sockets are pinged every 18 s with a frame the client can watch for liveness. */
export const PING_INTERVAL_MS = 18_000
