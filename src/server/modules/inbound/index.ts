/**
 * The inbound pipeline: the consumer of every session's domain events (`deps.channels.onEvent`).
 *
 * - message: one synchronous transaction per message (store.ts: contact, ticket, message, ticket counters),
 *   then, after commit, the live events (the ticket, and `appMessage` create) and the side work: media
 *   download (media.ts), search index (search/indexer.ts), profile picture (pictures.ts). Messages WhatsApp
 *   replays after a reconnect (`offline`) take the same path, with their original times;
 * - reaction, edit, delete: applied to their target by wid (targets.ts), or kept until it arrives;
 * - ack: the messages area's `applyAck` (forward only);
 * - health: a stored message someone sent is the connection's last received one (channels/health.ts), written
 *   once per transaction;
 * - contact, lidMapping: the contacts area's `applyLidMapping`; a changed picture is asked again;
 * - history: imported per the connection's settings (history.ts).
 *
 * Sessions hand events over one at a time, each awaited, so a connection's events are applied in order.
 * `startInbound` wires it (serve.ts at boot, the test harness): it registers the sink, catches the search index
 * up, resumes media downloads and drops stale pending actions.
 */

import type { Database } from 'bun:sqlite'
import { recordHealth } from '../../channels/health'
import type { ChannelEvent, ChannelEventOf, InboundMessage } from '../../channels/types'
import type { Deps } from '../../context'
import type { EventBuffer } from '../../realtime/hub'
import { applyLidMapping } from '../contacts/resolve'
import { applyAck } from '../messages/acks'
import { loadMessageDtos } from '../messages/dto'
import { publishMessageUpdates } from '../messages/live'
import { doorOf } from '../outbound/door'
import { type SearchIndexer, searchIndexerOf } from '../search/indexer'
import { loadTicketDtos } from '../tickets/dto'
import { publishMessage, publishTicket } from '../tickets/live'
import { HistoryImporter } from './history'
import { lidDigits } from './jids'
import { MediaDownloader } from './media'
import { PictureRefresher } from './pictures'
import {
  type ConnectionRef,
  groupsAllowed,
  type Origin,
  type Skipped,
  type StoredMessage,
  storeInboundMessage,
} from './store'
import { applyTargetAction, loadPendingCount, type PendingStore, type Touched } from './targets'
import { fastTransact } from './tx'

export type InboundStats = {
  stored: number
  duplicate: number
  group: number
  undecryptable: number
  empty: number
  pending: number
}

/** Told of each live (or replayed) message after it committed: the chatbot. Must not throw. */
export type StoredListener = (conn: ConnectionRef, event: InboundMessage, stored: StoredMessage) => void

export class Inbound {
  readonly indexer: SearchIndexer
  readonly media: MediaDownloader
  readonly pictures: PictureRefresher
  readonly history: HistoryImporter
  readonly stats: InboundStats = { stored: 0, duplicate: 0, group: 0, undecryptable: 0, empty: 0, pending: 0 }
  private pending: PendingStore = { count: 0 }
  private unsubscribe: (() => void) | undefined
  /** Message events marked by `defer`: held until `flush` stores them in one transaction. */
  private readonly deferrable = new WeakSet<object>()
  /** Held messages, per connection, in arrival order. */
  private readonly held = new Map<number, { conn: ConnectionRef; events: InboundMessage[] }>()
  private safetyFlush: ReturnType<typeof setTimeout> | undefined
  private readonly listeners: StoredListener[] = []

  constructor(private readonly deps: Deps) {
    this.indexer = searchIndexerOf(deps)
    this.media = new MediaDownloader(deps)
    this.pictures = new PictureRefresher(deps)
    this.history = new HistoryImporter(deps, (conn, messages) => this.storeSlice(conn, messages))
  }

  start() {
    this.pending = loadPendingCount(this.deps.sqlite, this.deps.clock.now())
    this.unsubscribe = this.deps.channels.onEvent((conn, event) => this.handle(conn, event))
    this.indexer.start()
    this.media.resume()
    return this
  }

  stop() {
    this.unsubscribe?.()
    this.unsubscribe = undefined
    for (const id of [...this.held.keys()]) this.flush(id)
    if (this.safetyFlush) clearTimeout(this.safetyFlush)
    this.safetyFlush = undefined
    this.indexer.stop()
    this.media.stop()
    this.history.stop()
  }

  /** Registers a listener of stored live messages (not history); returns its removal. */
  onStored(listener: StoredListener): () => void {
    this.listeners.push(listener)
    return () => {
      const i = this.listeners.indexOf(listener)
      if (i >= 0) this.listeners.splice(i, 1)
    }
  }

  /** Resolves when the side work started so far is done (tests): downloads, pictures, import endings. */
  async idle() {
    await this.media.idle()
    await this.pictures.idle()
    await this.history.idle()
  }

  /**
   * Marks a session's message event (before it is emitted) to be held rather than stored at once: the sandbox's
   * batch inject marks its messages, then calls `flush`, which stores them all in one transaction before the
   * request is answered. Any other event of the connection flushes the held messages first (order is kept).
   */
  defer(event: ChannelEvent) {
    if (event.t === 'message') this.deferrable.add(event)
  }

  /**
   * Stores the connection's held messages in one transaction, then publishes and starts their side work; should
   * it fail, each message goes in its own transaction (one bad message costs only itself, logged). Returns how
   * many messages could not be stored.
   */
  flush(connectionId: number): number {
    const held = this.held.get(connectionId)
    if (!held) return 0
    this.held.delete(connectionId)
    if (!this.held.size && this.safetyFlush) {
      clearTimeout(this.safetyFlush)
      this.safetyFlush = undefined
    }
    const { conn, events: list } = held
    let results: [InboundMessage, StoredMessage | Skipped][]
    try {
      results = this.guarded(() =>
        fastTransact(this.deps, (tx, events) => {
          const now = this.deps.clock.now()
          const out: [InboundMessage, StoredMessage | Skipped][] = []
          for (const event of list) {
            const origin: Origin = event.offline ? 'offline' : 'live'
            out.push([
              event,
              storeInboundMessage(this.deps, tx, events, conn, event, origin, now, this.pending),
            ])
          }
          this.publishBatch(
            tx,
            events,
            out.map(([, r]) => r).filter((r) => typeof r !== 'string'),
          )
          noteReceived(tx, conn.id, out, now)
          return out
        }),
      )
    } catch {
      let failed = 0
      for (const event of list) {
        try {
          this.message(conn, event)
        } catch (err) {
          failed++
          this.deps.log.error('inbound: message not stored', {
            connectionId: conn.id,
            wid: event.ref.id,
            error: (err as Error).message,
          })
        }
      }
      return failed
    }
    for (const [event, result] of results) {
      if (typeof result === 'string') {
        this.stats[result]++
        continue
      }
      this.stats.stored++
      this.afterCommit(conn, event, result, false)
    }
    return 0
  }

  /** The sink: one domain event of a session. */
  handle(conn: ConnectionRef, event: ChannelEvent): void | Promise<void> {
    if (this.deferrable.has(event)) {
      this.deferrable.delete(event)
      this.hold(conn, event as InboundMessage)
      return
    }
    if (this.held.size) this.flush(conn.id)
    switch (event.t) {
      case 'message':
        return this.message(conn, event)
      case 'history':
        return this.history.chunk(conn, event)
      case 'reaction':
        return this.target(conn, {
          kind: 'reaction',
          target: event.target,
          from: event.from,
          fromMe: event.fromMe,
          emoji: event.emoji,
          at: event.timestamp,
        })
      case 'edit':
        return this.target(conn, { kind: 'edit', target: event.ref, body: event.body, at: event.timestamp })
      case 'delete':
        return this.target(conn, { kind: 'delete', target: event.ref })
      case 'ack':
        applyAck(this.deps, conn.companyId, event.ref.id, event.ack, conn.id)
        return
      case 'restriction':
        doorOf(this.deps, conn.id).whatsappRestriction(event)
        return
      case 'lidMapping':
        applyLidMapping(this.deps, conn.companyId, { lid: event.lid, number: event.pn })
        return
      case 'contact':
        return this.contact(conn, event)
      default:
        return
    }
  }

  private hold(conn: ConnectionRef, event: InboundMessage) {
    let held = this.held.get(conn.id)
    if (!held) {
      held = { conn, events: [] }
      this.held.set(conn.id, held)
    }
    held.events.push(event)
    // whoever marked them flushes them; should it never come to that, they are not left behind
    this.safetyFlush ??= setTimeout(() => {
      this.safetyFlush = undefined
      for (const id of [...this.held.keys()]) this.flush(id)
    }, 1_000)
  }

  /** A live (or replayed) message: stored in its own transaction, published, side work started. */
  message(conn: ConnectionRef, event: InboundMessage) {
    const origin: Origin = event.offline ? 'offline' : 'live'
    const stored = this.guarded(() =>
      fastTransact(this.deps, (tx, events) => {
        const now = this.deps.clock.now()
        const result = storeInboundMessage(this.deps, tx, events, conn, event, origin, now, this.pending)
        if (typeof result === 'string') return result
        noteReceived(tx, conn.id, [[event, result]], now)
        this.publishStored(tx, events, result)
        return result
      }),
    )
    if (typeof stored === 'string') {
      this.stats[stored]++
      return
    }
    this.stats.stored++
    this.afterCommit(conn, event, stored, false)
  }

  /**
   * A slice of history in one transaction (history.ts); returns the tickets it changed. Should the slice fail,
   * its messages go one transaction each, so one bad message costs only itself (logged).
   */
  private storeSlice(conn: ConnectionRef, messages: InboundMessage[]): Set<number> {
    const tickets = new Set<number>()
    const store = (list: InboundMessage[]) => {
      const results: [InboundMessage, StoredMessage | Skipped][] = []
      fastTransact(this.deps, (tx, events) => {
        const now = this.deps.clock.now()
        for (const event of list)
          results.push([
            event,
            storeInboundMessage(this.deps, tx, events, conn, event, 'history', now, this.pending),
          ])
      })
      for (const [event, result] of results) {
        if (typeof result === 'string') {
          this.stats[result]++
          continue
        }
        tickets.add(result.ticketId)
        for (const t of result.touched) tickets.add(t.ticketId)
        this.stats.stored++
        this.afterCommit(conn, event, result, true)
      }
    }
    try {
      this.guarded(() => store(messages))
    } catch {
      for (const event of messages) {
        try {
          this.guarded(() => store([event]))
        } catch (err) {
          this.deps.log.error('inbound: history message not imported', {
            connectionId: conn.id,
            wid: event.ref.id,
            error: (err as Error).message,
          })
        }
      }
    }
    return tickets
  }

  /** Runs a write; when it fails (rolled back), the pending count is read again (it may have moved inside). */
  private guarded<T>(write: () => T): T {
    try {
      return write()
    } catch (err) {
      this.pending = loadPendingCount(this.deps.sqlite, this.deps.clock.now())
      throw err
    }
  }

  /** The ticket and the new message to the rooms allowed to see them; messages changed by pending actions. */
  private publishStored(tx: Database, events: EventBuffer, stored: StoredMessage) {
    const [ticket] = loadTicketDtos(tx, [stored.ticketId])
    if (!ticket) return
    publishTicket(events, ticket)
    if (stored.replaced) {
      this.publishTouched(tx, events, [{ ticketId: stored.ticketId, messageId: stored.messageId }])
      return
    }
    const [message] = loadMessageDtos(this.deps, [stored.messageId])
    if (message) publishMessage(events, ticket, message, 'create')
    this.publishTouched(tx, events, stored.touched)
  }

  /**
   * The live events of messages stored together: each ticket's update once (its state after all of them, loaded
   * once), then each message's create with it; messages changed by pending actions.
   */
  private publishBatch(tx: Database, events: EventBuffer, stored: StoredMessage[]) {
    if (!stored.length) return
    const tickets = new Map(
      loadTicketDtos(tx, [...new Set(stored.map((s) => s.ticketId))]).map((t) => [t.id, t]),
    )
    const messages = new Map(
      loadMessageDtos(
        this.deps,
        stored.map((s) => s.messageId),
      ).map((m) => [m.id, m]),
    )
    const published = new Set<number>()
    const touched: Touched[] = []
    for (const s of stored) {
      const ticket = tickets.get(s.ticketId)
      if (!ticket) continue
      if (!published.has(ticket.id)) {
        published.add(ticket.id)
        publishTicket(events, ticket)
      }
      if (s.replaced) {
        touched.push({ ticketId: s.ticketId, messageId: s.messageId })
        continue
      }
      const message = messages.get(s.messageId)
      if (message) publishMessage(events, ticket, message, 'create')
      touched.push(...s.touched)
    }
    this.publishTouched(tx, events, touched)
  }

  private publishTouched(tx: Database, events: EventBuffer, touched: Touched[]) {
    const byTicket = new Map<number, number[]>()
    for (const t of touched) byTicket.set(t.ticketId, [...(byTicket.get(t.ticketId) ?? []), t.messageId])
    for (const [ticketId, ids] of byTicket) publishMessageUpdates(this.deps, tx, events, ticketId, ids)
  }

  private afterCommit(conn: ConnectionRef, event: InboundMessage, stored: StoredMessage, imported: boolean) {
    this.indexer.kick()
    if (stored.hasMedia) this.media.enqueue(stored.messageId, imported ? undefined : event.media?.download)
    if (!imported) {
      if (!stored.replaced)
        this.pictures.maybeRefresh(stored.contactId, conn.id, stored.contactCreated, stored.pictureCheckedAt)
      // a placeholder is not something to answer (the chatbot hears the message when it arrives)
      if (event.undecryptable || event.unsupported) return
      for (const listener of this.listeners) listener(conn, event, stored)
    }
  }

  private target(conn: ConnectionRef, action: Parameters<typeof applyTargetAction>[3]) {
    // a group whose messages are not taken: its reactions, edits and deletions have nothing to wait for
    if (action.target.chatJid.endsWith('@g.us') && !groupsAllowed(this.deps.sqlite, conn.companyId, conn.id))
      return
    const now = this.deps.clock.now()
    this.guarded(() =>
      fastTransact(this.deps, (tx, events) => {
        const result = applyTargetAction(this.deps, conn.companyId, conn.id, action, now, this.pending)
        if (result === 'pending') {
          this.stats.pending++
          this.deps.log.info('inbound: target not stored yet, kept for later', {
            connectionId: conn.id,
            kind: action.kind,
            wid: action.target.id,
          })
          return
        }
        if (result) this.publishTouched(tx, events, [result])
      }),
    )
  }

  private contact(conn: ConnectionRef, event: ChannelEventOf<'contact'>) {
    const { pn, lid } = event.contact
    if (pn && lid) applyLidMapping(this.deps, conn.companyId, { lid, number: pn })
    if (!event.pictureChanged) return
    const found = this.deps.sqlite
      .query<{ id: number }, [number, string | null, string | null]>(
        'SELECT id FROM contacts WHERE company_id = ? AND (lid = ? OR number = ?) LIMIT 1',
      )
      .get(conn.companyId, lidDigits(lid), pn ?? null)
    if (found) this.pictures.maybeRefresh(found.id, conn.id, true)
  }
}

/**
 * The connection's last received message (its health) is now when the batch stored a message someone sent it
 * (not one written on the phone): one statement per batch, in the batch's transaction.
 */
function noteReceived(
  tx: Database,
  connectionId: number,
  results: [InboundMessage, StoredMessage | Skipped][],
  now: number,
) {
  if (results.some(([event, result]) => typeof result !== 'string' && !event.ref.fromMe))
    recordHealth(tx, connectionId, { lastReceivedAt: now })
}

/** Starts the inbound pipeline on these deps (once per registry): the jobs' catalogue, the benchmark. */
export function startInbound(deps: Deps): Inbound {
  return deps.jobs.use('inbound', () => new Inbound(deps).start())
}

/** Stops the pipeline (serve's shutdown, after the sessions): held messages are stored first. */
export function stopInbound(deps: Pick<Deps, 'jobs'>) {
  inboundOf(deps)?.stop()
  deps.jobs.drop('inbound')
}

/** The running pipeline of these deps (or a ctx made of them): the media retry route. */
export function inboundOf(deps: Pick<Deps, 'jobs'>): Inbound | undefined {
  return deps.jobs.peek<Inbound>('inbound')
}
