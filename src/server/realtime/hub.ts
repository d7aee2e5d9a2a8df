import { LIVE_CLOSE, type LiveEventName, type LiveFrame, type LivePayload } from '../../shared/live'
import { fullRoom, isFullRoom } from './rooms'

/** What the hub needs of a socket: Bun's ServerWebSocket fits. */
export interface LiveSocket {
  send(data: string): unknown
  subscribe(topic: string): void
  unsubscribe(topic: string): void
  close(code?: number, reason?: string): void
}

/** What the hub needs of a server: Bun's `Server` fits. */
export interface Publisher {
  publish(topic: string, data: string): unknown
}

/**
 * A published event as taps see it (tests, logs): loosely typed, since a tap sees every event. `unmasked` is
 * present when the publisher gave a different payload for the rooms' `#full` flavour (numbers in full).
 */
export type LiveEvent = { room: string; event: string; data: unknown; unmasked?: unknown }

type Member = {
  socket: LiveSocket
  companyId: number
  userId: number
  sessionId: string
  rooms: Set<string>
  /** Subscribed to the `#full` flavour of its rooms (the user sees numbers in full). */
  full: boolean
}

/** How many live sockets one user may hold (tabs, devices). */
export const MAX_SOCKETS_PER_USER = 10

/**
 * The live hub: rooms over Bun's native pub/sub. Services publish through it after their transaction
 * commits; sockets are subscribed only to the rooms their user may see.
 */
export class Hub {
  private publisher: Publisher | null = null
  private readonly members = new Map<LiveSocket, Member>()
  /** Sockets per user, kept beside `members` so opening and closing never scan every socket. */
  private readonly byUser = new Map<number, Set<LiveSocket>>()
  private readonly taps = new Set<(event: LiveEvent) => void>()

  constructor(readonly maxSocketsPerUser = MAX_SOCKETS_PER_USER) {}

  attach(publisher: Publisher) {
    this.publisher = publisher
  }

  /**
   * Sends an event to a room. The payload's type follows from the event name (`src/shared/live.ts`).
   * `data` goes to the room and `unmasked ?? data` to its `#full` flavour, where the users who see phone
   * numbers in full listen: publishers of events that carry numbers pass the masked payload as `data` and
   * the full one as `unmasked`; every other publisher passes one payload that both flavours receive.
   */
  publish<E extends LiveEventName>(room: string, event: E, data: LivePayload<E>, unmasked?: LivePayload<E>) {
    const text = JSON.stringify({ event, data } satisfies LiveFrame<E>)
    if (this.publisher) {
      this.publisher.publish(room, text)
      this.publisher.publish(
        fullRoom(room),
        unmasked === undefined ? text : JSON.stringify({ event, data: unmasked } satisfies LiveFrame<E>),
      )
    }
    const seen: LiveEvent = unmasked === undefined ? { room, event, data } : { room, event, data, unmasked }
    for (const tap of this.taps) {
      // Publishing happens after a commit: an observer's failure must not turn a done change into a 500.
      try {
        tap(seen)
      } catch {}
    }
  }

  /** Observe every published event (tests, logs). Returns the function that stops it. */
  tap(listener: (event: LiveEvent) => void) {
    this.taps.add(listener)
    return () => this.taps.delete(listener)
  }

  join(
    socket: LiveSocket,
    who: { companyId: number; userId: number; sessionId: string },
    roomNames: string[],
  ) {
    const member: Member = { socket, ...who, rooms: new Set(), full: false }
    this.members.set(socket, member)
    let sockets = this.byUser.get(who.userId)
    if (!sockets) {
      sockets = new Set()
      this.byUser.set(who.userId, sockets)
    }
    sockets.add(socket)
    this.setRooms(member, roomNames)
  }

  leave(socket: LiveSocket) {
    const member = this.members.get(socket)
    if (!member) return undefined
    this.members.delete(socket)
    const sockets = this.byUser.get(member.userId)
    sockets?.delete(socket)
    if (sockets?.size === 0) this.byUser.delete(member.userId)
    return member
  }

  member(socket: LiveSocket) {
    return this.members.get(socket)
  }

  /** Adds a room (a ticket's, on joinChatBox), in the flavour the socket's user gets (masked or `#full`). */
  addRoom(socket: LiveSocket, room: string) {
    const member = this.members.get(socket)
    if (!member) return
    const flavour = member.full ? fullRoom(room) : room
    if (member.rooms.has(flavour)) return
    member.rooms.add(flavour)
    socket.subscribe(flavour)
  }

  removeRoom(socket: LiveSocket, room: string) {
    const member = this.members.get(socket)
    if (!member) return
    const flavour = member.full ? fullRoom(room) : room
    if (!member.rooms.delete(flavour)) return
    socket.unsubscribe(flavour)
  }

  /** After a user's profile or queues change, move their open sockets to the rooms they may see now. */
  resubscribeUser(userId: number, roomNames: string[]) {
    for (const socket of this.byUser.get(userId) ?? []) {
      const member = this.members.get(socket)
      if (member) this.setRooms(member, roomNames)
    }
  }

  /** Ends every socket of a user (deleted, or every session ended). */
  disconnectUser(userId: number, reason = 'signed out') {
    for (const socket of [...(this.byUser.get(userId) ?? [])]) socket.close(LIVE_CLOSE.sessionEnded, reason)
  }

  /** Ends the sockets of one browser session (signed out, or signed in elsewhere). */
  disconnectSession(sessionId: string, reason = 'session ended') {
    for (const member of [...this.members.values()])
      if (member.sessionId === sessionId) member.socket.close(LIVE_CLOSE.sessionEnded, reason)
  }

  /** Ends every socket of a company (deactivated, expired or deleted); other companies keep theirs. */
  disconnectCompany(companyId: number, reason = 'company unavailable') {
    for (const member of [...this.members.values()])
      if (member.companyId === companyId) member.socket.close(LIVE_CLOSE.companyUnavailable, reason)
  }

  closeAll(reason: string) {
    for (const member of [...this.members.values()]) member.socket.close(LIVE_CLOSE.shutdown, reason)
  }

  socketsOf(userId: number) {
    return this.byUser.get(userId)?.size ?? 0
  }

  /** Whether one more socket of this user may open (see `maxSocketsPerUser`). */
  hasRoomFor(userId: number) {
    return this.socketsOf(userId) < this.maxSocketsPerUser
  }

  sendToAll(frame: LiveFrame) {
    const text = JSON.stringify(frame)
    for (const member of this.members.values()) member.socket.send(text)
  }

  get size() {
    return this.members.size
  }

  /**
   * Rooms come from `roomsOfUser`, already in the user's flavour: all `#full` for a user who sees numbers in
   * full. Rooms added later (`addRoom`) follow the same flavour.
   */
  private setRooms(member: Member, roomNames: string[]) {
    const wanted = new Set(roomNames)
    member.full = roomNames.some(isFullRoom)
    for (const room of member.rooms) if (!wanted.has(room)) member.socket.unsubscribe(room)
    for (const room of wanted) if (!member.rooms.has(room)) member.socket.subscribe(room)
    member.rooms = wanted
  }
}

/** Events produced inside a transaction, published only once it has committed. */
export class EventBuffer {
  /** Each pending event as its own publish call, so the payload keeps the type checked at `publish`. */
  private readonly pending: ((hub: Hub) => void)[] = []
  private readonly after: (() => void)[] = []

  /** Same contract as `Hub.publish` (masked `data`, optional `unmasked`); the event goes out at `flush`, after commit. */
  publish<E extends LiveEventName>(room: string, event: E, data: LivePayload<E>, unmasked?: LivePayload<E>) {
    this.pending.push((hub) => hub.publish(room, event, data, unmasked))
  }

  /** Work to do after commit that is not an event, such as moving sockets between rooms. */
  afterCommit(fn: () => void) {
    this.after.push(fn)
  }

  flush(hub: Hub) {
    for (const send of this.pending.splice(0)) send(hub)
    for (const fn of this.after.splice(0)) fn()
  }
}
