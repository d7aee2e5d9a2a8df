/**
 * Message text search: the feeder of `messages_fts` (migrations/0004_inbox_search.sql).
 *
 * The index is contentless, with the ticket id packed into the rowid (`ticket_id << 32 | message_id`), so a hit
 * names its ticket without a join. New messages are not indexed in their own transaction (the FTS insert is half
 * the cost of a one-message transaction): `kick()` after a commit schedules a batch a few ms later, which indexes
 * every message past `search_state.messages_indexed_upto` (in id order, a few hundred at a time) and moves that
 * mark in the same transaction; at boot `start()` catches up on whatever the last run left. Nothing is lost: the
 * mark only moves with the rows it covers.
 *
 * Messages change after they were indexed (an edit, a deletion, a move to another ticket): their writers call
 * `reindexMessage` inside the transaction that changes them; a message past the mark needs nothing, the batch
 * reads its current state.
 *
 * What is indexed: the body of messages not deleted, not empty, and not a contact card (vCard text is noise).
 * Private notes are indexed (attendants search their own notes).
 */
import type { Database } from 'bun:sqlite'
import type { Clock, TimerHandle } from '../../clock'
import type { Jobs } from '../../jobs/registry'
import type { Logger } from '../../logger'

/** Which messages the index holds. */
const INDEXABLE = `is_deleted = 0 AND body <> '' AND media_type NOT IN ('contactMessage', 'vcard')`

export type SearchIndexerOptions = {
  /** How long after a kick the batch runs (lets a burst of commits share one batch). Default 5 ms. */
  delayMs?: number
  /** Messages per batch (one transaction). Default 500. */
  batchSize?: number
}

type IndexerDeps = { sqlite: Database; clock: Clock; log: Logger; jobs: Jobs }

export class SearchIndexer {
  private timer: TimerHandle | undefined
  private stopped = false
  private readonly delayMs: number
  private readonly batchSize: number

  constructor(
    private readonly deps: IndexerDeps,
    options: SearchIndexerOptions = {},
  ) {
    this.delayMs = options.delayMs ?? 5
    this.batchSize = options.batchSize ?? 500
  }

  /** Boot: catches up from the mark (in batches, yielding between them), when anything waits. */
  start() {
    this.stopped = false
    if (this.behind()) this.schedule(0)
  }

  stop() {
    this.stopped = true
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  /** Messages were committed: index them in a few ms (one batch for every kick until then). */
  kick() {
    this.schedule(this.delayMs)
  }

  /** How far the index is: messages up to this id are in it (or were skipped as not indexable). */
  indexedUpTo(): number {
    return indexedUpTo(this.deps.sqlite)
  }

  /** Whether messages wait to be indexed. */
  behind(): boolean {
    const max = this.deps.sqlite.query<{ id: number | null }, []>('SELECT max(id) AS id FROM messages').get()
    return (max?.id ?? 0) > this.indexedUpTo()
  }

  /** Indexes the next batch now; returns how many messages it covered (0: caught up). */
  runBatch(): number {
    const { sqlite } = this.deps
    return sqlite.transaction(() => {
      const from = indexedUpTo(sqlite)
      const last = sqlite
        .query<{ upto: number | null; n: number }, [number, number]>(
          'SELECT max(id) AS upto, count(*) AS n FROM (SELECT id FROM messages WHERE id > ? ORDER BY id LIMIT ?)',
        )
        .get(from, this.batchSize)
      if (!last?.upto) return 0
      sqlite
        .query(
          `INSERT INTO messages_fts(rowid, body)
           SELECT (ticket_id << 32) | id, body FROM messages WHERE id > ? AND id <= ? AND ${INDEXABLE}`,
        )
        .run(from, last.upto)
      sqlite.query('UPDATE search_state SET messages_indexed_upto = ? WHERE id = 1').run(last.upto)
      return last.n
    })()
  }

  /** Runs batches until caught up (tests, the bench). */
  drain() {
    while (this.runBatch() > 0) {}
  }

  private schedule(ms: number) {
    if (this.stopped || this.timer !== undefined) return
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined
      let covered = 0
      try {
        covered = this.runBatch()
      } catch (err) {
        this.deps.log.error('search: indexing failed', { error: (err as Error).message })
        return
      }
      // a full batch means more wait: go on at once, letting other work in between
      if (covered >= this.batchSize) this.schedule(0)
    }, ms)
  }
}

function indexedUpTo(sqlite: Database): number {
  return (
    sqlite
      .query<{ upto: number }, []>('SELECT messages_indexed_upto AS upto FROM search_state WHERE id = 1')
      .get()?.upto ?? 0
  )
}

/**
 * A message changed after it may have been indexed (edited, deleted, moved to another ticket): brings its
 * index entry up to date. Call inside the transaction that changed it; `previousTicketId` when it moved.
 */
export function reindexMessage(sqlite: Database, messageId: number, previousTicketId?: number) {
  if (messageId > indexedUpTo(sqlite)) return
  const row = sqlite
    .query<{ ticketId: number; body: string; indexable: number }, [number]>(
      `SELECT ticket_id AS ticketId, body, (${INDEXABLE}) AS indexable FROM messages WHERE id = ?`,
    )
    .get(messageId)
  const remove = sqlite.query('DELETE FROM messages_fts WHERE rowid = (? << 32) | ?')
  if (previousTicketId !== undefined) remove.run(previousTicketId, messageId)
  if (!row) return
  remove.run(row.ticketId, messageId)
  if (row.indexable)
    sqlite
      .query('INSERT INTO messages_fts(rowid, body) VALUES ((? << 32) | ?, ?)')
      .run(row.ticketId, messageId, row.body)
}

/** Forgets every indexed message of a ticket (the ticket is being deleted). */
export function unindexTicket(sqlite: Database, ticketId: number) {
  sqlite
    .query('DELETE FROM messages_fts WHERE rowid BETWEEN (? << 32) AND (? << 32) | 4294967295')
    .run(ticketId, ticketId)
}

/** The ticket and message ids of an FTS rowid. */
export function splitRowid(rowid: number | bigint): { ticketId: number; messageId: number } {
  const big = BigInt(rowid)
  return { ticketId: Number(big >> 32n), messageId: Number(big & 0xffffffffn) }
}

/** The indexer of a database (one per server): the inbound pipeline starts it; writers kick it. */
export function searchIndexerOf(deps: IndexerDeps): SearchIndexer {
  return deps.jobs.use('search', () => new SearchIndexer(deps))
}

/** After committing new messages (outbound, notes, anything not inbound): they become searchable shortly. */
export function kickSearchIndex(deps: IndexerDeps) {
  searchIndexerOf(deps).kick()
}
