import type { LiveFrame } from '../../shared/api'

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

export type LiveEvent = { room: string; event: string; data: unknown }

type Member = { socket: LiveSocket; companyId: number; userId: number; sessionId: string; rooms: Set<string> }

/**
 * The live hub: rooms over Bun's native pub/sub. Services publish through it after their transaction
 * commits; sockets are subscribed only to the rooms their user may see.
 */
export class Hub {
  private publisher: Publisher | null = null
  private readonly members = new Map<LiveSocket, Member>()
  private readonly taps = new Set<(event: LiveEvent) => void>()

  attach(publisher: Publisher) {
    this.publisher = publisher
  }

  publish(room: string, event: string, data: unknown) {
    const frame: LiveFrame = { event, data }
    this.publisher?.publish(room, JSON.stringify(frame))
    for (const tap of this.taps) tap({ room, event, data })
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
    const member: Member = { socket, ...who, rooms: new Set() }
    this.members.set(socket, member)
    this.setRooms(member, roomNames)
  }

  leave(socket: LiveSocket) {
    const member = this.members.get(socket)
    this.members.delete(socket)
    return member
  }

  member(socket: LiveSocket) {
    return this.members.get(socket)
  }

  addRoom(socket: LiveSocket, room: string) {
    const member = this.members.get(socket)
    if (!member || member.rooms.has(room)) return
    member.rooms.add(room)
    socket.subscribe(room)
  }

  removeRoom(socket: LiveSocket, room: string) {
    const member = this.members.get(socket)
    if (!member?.rooms.delete(room)) return
    socket.unsubscribe(room)
  }

  /** After a user's profile or queues change, move their open sockets to the rooms they may see now. */
  resubscribeUser(userId: number, roomNames: string[]) {
    for (const member of this.members.values()) if (member.userId === userId) this.setRooms(member, roomNames)
  }

  disconnectUser(userId: number, reason = 'signed out') {
    for (const member of [...this.members.values()])
      if (member.userId === userId) member.socket.close(4001, reason)
  }

  /** Ends the sockets of one browser session (signed out, or signed in elsewhere). */
  disconnectSession(sessionId: string, reason = 'session ended') {
    for (const member of [...this.members.values()])
      if (member.sessionId === sessionId) member.socket.close(4001, reason)
  }

  closeAll(reason: string) {
    for (const member of [...this.members.values()]) member.socket.close(1001, reason)
  }

  socketsOf(userId: number) {
    return [...this.members.values()].filter((m) => m.userId === userId).length
  }

  sendToAll(frame: LiveFrame) {
    const text = JSON.stringify(frame)
    for (const member of this.members.values()) member.socket.send(text)
  }

  get size() {
    return this.members.size
  }

  private setRooms(member: Member, roomNames: string[]) {
    const wanted = new Set(roomNames)
    for (const room of member.rooms) if (!wanted.has(room)) member.socket.unsubscribe(room)
    for (const room of wanted) if (!member.rooms.has(room)) member.socket.subscribe(room)
    member.rooms = wanted
  }
}

/** Events produced inside a transaction, published only once it has committed. */
export class EventBuffer {
  private readonly pending: LiveEvent[] = []
  private readonly after: (() => void)[] = []

  publish(room: string, event: string, data: unknown) {
    this.pending.push({ room, event, data })
  }

  /** Work to do after commit that is not an event, such as moving sockets between rooms. */
  afterCommit(fn: () => void) {
    this.after.push(fn)
  }

  flush(hub: Hub) {
    for (const e of this.pending.splice(0)) hub.publish(e.room, e.event, e.data)
    for (const fn of this.after.splice(0)) fn()
  }
}
