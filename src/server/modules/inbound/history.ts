/**
 * History import: WhatsApp's history sync (after pairing, and the recent messages after a long absence) into
 * tickets, per the connection's import settings:
 *
 * - `importOldMessages` (YYYY-MM-DD): import messages from that day on (00:00 UTC); empty: import nothing;
 * - `importRecentMessages` (YYYY-MM-DD): up to the end of that day (UTC); empty: up to now;
 * - `importOldMessagesGroups`: group conversations too (without it, groups are skipped);
 * - `closedTicketsPostImported`: when the import ends, the tickets it opened are closed (otherwise they wait
 *   as pending tickets).
 *
 * Imported messages go through the same store as live ones (one transaction per slice of 200), so a message
 * already held is skipped: the same history arriving twice makes nothing twice. They are read (no unread
 * counts), tickets opened for them take the conversation's own times and `imported = 1` (until a live message
 * arrives in them). While chunks arrive the connection shows 'importing' with the sync's progress; the import
 * ends when WhatsApp says it is complete (100 %) or 60 s after the last chunk.
 *
 * The status shows 'importing' once per sync, not once per chunk (issue 20, defect 14): WhatsApp sends a fresh
 * link an INITIAL_BOOTSTRAP chunk, then RECENT ones up to 100 %, and Baileys says "complete" for the bootstrap
 * the moment it arrives (before its chunk) and for RECENT before its last chunk is downloaded. So a completion
 * with no import under way shows nothing, the bootstrap's completion ends the import only after a few quiet
 * seconds (IMPORT_SETTLE_MS: a RECENT chunk keeps it going), and a chunk of a sync that already completed is
 * stored without opening the import again.
 */

import type { HistoryChunk, InboundMessage } from '../../channels/types'
import type { TimerHandle } from '../../clock'
import { type Deps, transact } from '../../context'
import { loadTicketDtos } from '../tickets/dto'
import { recordTicketEvent } from '../tickets/events'
import { publishTicket } from '../tickets/live'
import type { ConnectionRef } from './store'

/** Without a chunk for this long, the import is over. */
export const IMPORT_IDLE_MS = 60_000
/** After the INITIAL_BOOTSTRAP says it is complete, this long without a RECENT chunk ends the import. */
export const IMPORT_SETTLE_MS = 5_000
/** Messages per transaction. */
const SLICE = 200

export type ImportSettings = {
  from: number | null
  until: number
  groups: boolean
  closeAfter: boolean
}

type ImportState = { chunks: number; progress: number; timer: TimerHandle | undefined }
/** The sync an import ended with, and when: its late chunks belong to it. */
type Completed = { syncType: string | undefined; at: number }

/** Stores one slice of history in one transaction; returns the tickets it changed. */
export type StoreSlice = (conn: ConnectionRef, messages: InboundMessage[]) => Set<number>

const DAY_MS = 24 * 60 * 60 * 1000

/** A connection's import settings; `from` null means no import. */
export function importSettingsOf(deps: Pick<Deps, 'sqlite' | 'clock'>, connectionId: number): ImportSettings {
  const row = deps.sqlite
    .query<{ from: string | null; until: string | null; groups: number; close: number }, [number]>(
      `SELECT import_old_messages AS "from", import_recent_messages AS until,
              import_old_messages_groups AS groups, closed_tickets_post_imported AS close
         FROM whatsapps WHERE id = ?`,
    )
    .get(connectionId)
  const day = (s: string | null | undefined) => {
    if (!s || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return null
    const ms = Date.parse(`${s}T00:00:00Z`)
    return Number.isFinite(ms) ? ms : null
  }
  const untilDay = day(row?.until)
  return {
    from: day(row?.from),
    until: untilDay === null ? Number.POSITIVE_INFINITY : untilDay + DAY_MS,
    groups: !!row?.groups,
    closeAfter: !!row?.close,
  }
}

export class HistoryImporter {
  private readonly imports = new Map<number, ImportState>()
  private readonly finishing = new Set<Promise<void>>()
  private readonly completed = new Map<number, Completed>()

  constructor(
    private readonly deps: Deps,
    private readonly storeSlice: StoreSlice,
  ) {}

  /** Whether an import of this connection is under way. */
  importing(connectionId: number) {
    return this.imports.has(connectionId)
  }

  async chunk(conn: ConnectionRef, chunk: HistoryChunk) {
    const settings = importSettingsOf(this.deps, conn.id)
    const from = settings.from
    if (from === null) return
    const importing = this.imports.has(conn.id)
    // a completion (Baileys's status) with no import under way: nothing to show
    if (!importing && !chunk.messages.length) return
    const wanted = chunk.messages.filter(
      (m) => m.timestamp >= from && m.timestamp < settings.until && (settings.groups || !m.isGroup),
    )
    const ended = this.completed.get(conn.id)
    if (
      !importing &&
      ended &&
      ended.syncType === chunk.syncType &&
      this.deps.clock.now() - ended.at < IMPORT_IDLE_MS
    ) {
      // the last chunk of a sync WhatsApp already called complete: stored quietly, as part of that import
      await this.store(conn, wanted)
      if (settings.closeAfter) this.closeImported(conn)
      return
    }
    const state = this.begin(conn, chunk)
    await this.store(conn, wanted)
    if (!chunk.complete) this.armIdle(conn, state, IMPORT_IDLE_MS)
    // the bootstrap's completion is not the sync's when RECENT chunks follow it: a few quiet seconds first
    else if (chunk.syncType === 'INITIAL_BOOTSTRAP')
      this.armIdle(conn, state, IMPORT_SETTLE_MS, { syncType: chunk.syncType })
    else await this.finish(conn, { syncType: chunk.syncType })
  }

  private async store(conn: ConnectionRef, wanted: InboundMessage[]) {
    for (let i = 0; i < wanted.length; i += SLICE) {
      const changed = this.storeSlice(conn, wanted.slice(i, i + SLICE))
      if (changed.size) this.publishTickets([...changed])
      // let live traffic and requests in between slices
      if (i + SLICE < wanted.length) await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }

  /** Ends every import (shutdown). */
  stop() {
    for (const state of this.imports.values())
      if (state.timer !== undefined) this.deps.clock.clearTimeout(state.timer)
    this.imports.clear()
    this.completed.clear()
  }

  async idle() {
    while (this.finishing.size) await Promise.all([...this.finishing])
  }

  private begin(conn: ConnectionRef, chunk: HistoryChunk): ImportState {
    let state = this.imports.get(conn.id)
    if (!state) {
      state = { chunks: 0, progress: 0, timer: undefined }
      this.imports.set(conn.id, state)
    }
    state.chunks++
    // WhatsApp's own figure when it gives one; otherwise creep towards 95 % chunk by chunk
    state.progress = Math.max(state.progress, chunk.progress ?? Math.min(95, state.chunks * 5))
    this.deps.channels.reportImport(conn.id, state.progress)
    return state
  }

  private armIdle(
    conn: ConnectionRef,
    state: ImportState,
    ms: number,
    completed?: { syncType: string | undefined },
  ) {
    if (state.timer !== undefined) this.deps.clock.clearTimeout(state.timer)
    state.timer = this.deps.clock.setTimeout(() => {
      state.timer = undefined
      const done = this.finish(conn, completed).finally(() => this.finishing.delete(done))
      this.finishing.add(done)
    }, ms)
  }

  /** The import is over: its tickets close when the connection says so, and the connection is CONNECTED again. */
  /** `completed`: WhatsApp said this sync is complete (not the idle timer). */
  private async finish(conn: ConnectionRef, completed?: { syncType: string | undefined }) {
    const state = this.imports.get(conn.id)
    if (state?.timer !== undefined) this.deps.clock.clearTimeout(state.timer)
    this.imports.delete(conn.id)
    if (completed) this.completed.set(conn.id, { ...completed, at: this.deps.clock.now() })
    else this.completed.delete(conn.id)
    const settings = importSettingsOf(this.deps, conn.id)
    if (settings.closeAfter) this.closeImported(conn)
    this.deps.channels.reportImport(conn.id, null)
  }

  /** Closes the pending tickets the import opened (and that no live message has reached since). */
  private closeImported(conn: ConnectionRef) {
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      const rows = sqlite
        .query<{ id: number; queueId: number | null }, [number, number]>(
          `SELECT id, queue_id AS queueId FROM tickets
            WHERE company_id = ? AND whatsapp_id = ? AND imported = 1 AND status = 'pending' AND user_id IS NULL`,
        )
        .all(conn.companyId, conn.id)
      if (!rows.length) return
      const close = sqlite.query(`UPDATE tickets SET status = 'closed', closed_at = ? WHERE id = ?`)
      for (const t of rows) {
        close.run(now, t.id)
        const place = { userId: null, queueId: t.queueId, whatsappId: conn.id }
        recordTicketEvent(sqlite, {
          companyId: conn.companyId,
          ticketId: t.id,
          type: 'closed',
          actorUserId: null,
          from: { status: 'pending', ...place },
          to: { status: 'closed', ...place },
          at: now,
        })
      }
      for (const ticket of loadTicketDtos(
        sqlite,
        rows.map((r) => r.id),
      ))
        publishTicket(events, ticket)
    })
  }

  private publishTickets(ids: number[]) {
    transact(this.deps, (tx, events) => {
      for (const ticket of loadTicketDtos(tx, ids)) publishTicket(events, ticket)
    })
  }
}
