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
/** Messages per transaction. */
const SLICE = 200

export type ImportSettings = {
  from: number | null
  until: number
  groups: boolean
  closeAfter: boolean
}

type ImportState = { chunks: number; progress: number; timer: TimerHandle | undefined }

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
    const state = this.begin(conn, chunk)
    const wanted = chunk.messages.filter(
      (m) => m.timestamp >= from && m.timestamp < settings.until && (settings.groups || !m.isGroup),
    )
    for (let i = 0; i < wanted.length; i += SLICE) {
      const changed = this.storeSlice(conn, wanted.slice(i, i + SLICE))
      if (changed.size) this.publishTickets([...changed])
      // let live traffic and requests in between slices
      if (i + SLICE < wanted.length) await new Promise<void>((resolve) => setImmediate(resolve))
    }
    if (chunk.complete) await this.finish(conn)
    else this.armIdle(conn, state)
  }

  /** Ends every import (shutdown). */
  stop() {
    for (const state of this.imports.values())
      if (state.timer !== undefined) this.deps.clock.clearTimeout(state.timer)
    this.imports.clear()
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

  private armIdle(conn: ConnectionRef, state: ImportState) {
    if (state.timer !== undefined) this.deps.clock.clearTimeout(state.timer)
    state.timer = this.deps.clock.setTimeout(() => {
      state.timer = undefined
      const done = this.finish(conn).finally(() => this.finishing.delete(done))
      this.finishing.add(done)
    }, IMPORT_IDLE_MS)
  }

  /** The import is over: its tickets close when the connection says so, and the connection is CONNECTED again. */
  private async finish(conn: ConnectionRef) {
    const state = this.imports.get(conn.id)
    if (state?.timer !== undefined) this.deps.clock.clearTimeout(state.timer)
    this.imports.delete(conn.id)
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
