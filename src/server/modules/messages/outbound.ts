/**
 * Outbound messages: written first, sent afterwards.
 *
 * `queueOutboundMessage` writes the row (ack 0, sendState 'queued') and publishes it in one transaction; then
 * the `OutboundSender` hands it to the connection's session and records the outcome:
 *
 * - queued -> sending: claimed with a conditional UPDATE, so one row is handed to WhatsApp at most once
 *   however many kicks, retries or boots race for it;
 * - sending -> sent: the provider's id (wid) is stored, ack becomes 1 when WhatsApp's server acknowledged it
 *   (a send it never acknowledged stays 0; acks then only move forward);
 * - sending -> failed: `sendError` holds `CODE: detail` (the code translates, the detail explains); the
 *   user retries with `POST /api/messages/{id}/retry`, which puts it back to queued;
 * - a connection that is not connected is waited for a while (30 s for a new message, 2 minutes after a
 *   boot), then the message fails with ERR_WAPP_NOT_INITIALIZED;
 * - at boot, rows still 'sending' were interrupted while WhatsApp had them: they may or may not have reached
 *   the customer, so they are never resent blindly but marked failed (ERR_SEND_INTERRUPTED) for a person to
 *   retry; rows still 'queued' had not been handed over and are sent.
 *
 * Sends go through the connection's door (outbound/door.ts): one at a time in the order they were queued, in
 * line with every other sender of the connection, each claimed inside its turn.
 */

import type { SQLQueryBindings } from 'bun:sqlite'
import type { MessageDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { ContactRef, MsgRef, OutboundContent } from '../../channels/types'
import type { TimerHandle } from '../../clock'
import { type Ctx, type Deps, transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import { stmt } from '../../db/statements'
import { mediaFilePath } from '../../media/store'
import type { EventBuffer } from '../../realtime/hub'
import { doorOf, type Hand, type Turn } from '../outbound/door'
import { kickSearchIndex } from '../search/indexer'
import { loadTicketDtos } from '../tickets/dto'
import { publishTicket } from '../tickets/live'
import { loadMessageDtos } from './dto'
import { publishMessageUpdates } from './live'
import { chatRefOf, msgRefOf, rawOf, readProviderData } from './refs'

/** A file already in the company's media folder, to send with a message. */
export type StoredMedia = {
  path: string
  size: number
  mime: string
  name: string
  mediaType: 'image' | 'audio' | 'video' | 'application' | 'sticker'
  /** A voice note (Ogg/Opus). */
  ptt: boolean
}

export type OutboundInput = {
  ticketId: number
  /** Trimmed text; with media it is the first file's caption. */
  body: string
  media?: StoredMedia[]
  quotedMsgId?: number | null
  /** A private note: kept on the ticket, never sent. */
  isPrivate?: boolean
  /** The id of the message this one forwards. */
  forwardOf?: number
}

export type OutboundTicket = {
  id: number
  companyId: number
  contactId: number
  whatsappId: number | null
  status: string
}

type TicketWithPlace = OutboundTicket & { queueId: number | null; userId: number | null }

/** The ticket an outbound message goes on, within the actor's company (404 otherwise). */
export function outboundTicket(
  deps: Pick<Deps, 'sqlite'>,
  companyId: number,
  ticketId: number,
): TicketWithPlace {
  const ticket = deps.sqlite
    .query<TicketWithPlace, [number, number]>(
      `SELECT id, company_id AS companyId, contact_id AS contactId, whatsapp_id AS whatsappId, status,
              queue_id AS queueId, user_id AS userId
         FROM tickets WHERE id = ? AND company_id = ?`,
    )
    .get(ticketId, companyId)
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found')
  return ticket
}

/** An outbound row (from me, read, not acknowledged yet); the columns not named take the table's defaults. */
const INSERT_OUTBOUND = `INSERT INTO messages (company_id, ticket_id, contact_id, user_id, is_private, send_state,
    provider_data, created_at, updated_at, quoted_msg_id, body, media_type, media_state, media_path, media_name,
    media_mime, media_size, ptt, from_me, read, ack)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, 0) RETURNING id`

/**
 * Writes outbound messages on a ticket inside the caller's transaction: one row per file (the text is the
 * first file's caption) or one text row; private notes are written with no send state and never sent. Updates
 * the ticket's last message (not for notes) and publishes the messages and the ticket after commit. Returns
 * the new rows' ids; hand the non-private ones to `outboundSender(deps).kick(ids)` after commit.
 */
export function writeOutboundMessages(
  ctx: Ctx,
  tx: Connection,
  events: EventBuffer,
  ticket: OutboundTicket,
  input: Omit<OutboundInput, 'ticketId'>,
): number[] {
  const now = ctx.clock.now()
  const isPrivate = !!input.isPrivate
  const media = input.media ?? []
  if (!input.body && !media.length)
    throw fieldError('body', 'must not be empty: write a message or attach a file')
  const sqlite = sqliteOf(tx)
  if (input.quotedMsgId != null) {
    const quoted = stmt<{ ticketId: number; contactId: number | null }, [number, number]>(
      sqlite,
      'SELECT ticket_id AS ticketId, contact_id AS contactId FROM messages WHERE id = ? AND company_id = ?',
    ).get(input.quotedMsgId, ticket.companyId)
    if (!quoted || (quoted.ticketId !== ticket.id && quoted.contactId !== ticket.contactId))
      throw fieldError('quotedMsg', 'must be a message of this conversation')
  }
  const userId = ctx.actor.kind === 'user' ? ctx.actor.userId : null
  const quotedMsgId = input.quotedMsgId ?? null
  const common = [
    ticket.companyId,
    ticket.id,
    ticket.contactId,
    userId,
    Number(isPrivate),
    isPrivate ? null : 'queued',
    input.forwardOf ? JSON.stringify({ forwardOf: input.forwardOf }) : null,
    now,
    now,
  ]
  const insert = stmt<{ id: number }, SQLQueryBindings[]>(sqlite, INSERT_OUTBOUND)
  const write = (body: string, quoted: number | null, m?: StoredMedia) =>
    insert.get(
      ...common,
      quoted,
      body,
      m?.mediaType ?? 'chat',
      m ? 'stored' : 'none',
      m?.path ?? null,
      m?.name ?? null,
      m?.mime ?? null,
      m?.size ?? null,
      Number(m?.ptt ?? false),
    )!.id
  const ids = media.length
    ? // Each file is its own WhatsApp message: only the first quotes.
      media.map((m, i) => write(i === 0 ? input.body : '', i === 0 ? quotedMsgId : null, m))
    : [write(input.body, quotedMsgId)]
  publishMessageUpdates(ctx, tx, events, ticket.id, ids, 'create')
  if (!isPrivate) {
    const last = media.length ? input.body || media[media.length - 1]!.name : input.body
    stmt<unknown, [string, number, number]>(
      sqlite,
      'UPDATE tickets SET last_message = ?, updated_at = ? WHERE id = ?',
    ).run(last.slice(0, 255), now, ticket.id)
    const dto = loadTicketDtos(tx, [ticket.id])[0]
    if (dto) publishTicket(events, dto)
  }
  return ids
}

/**
 * Writes an outbound message (or a note) on a ticket of the actor's company and hands it to the sender.
 * Callers check what the route needs first (access, an open ticket). Returns the rows as the API shows them.
 */
export function queueOutboundMessage(ctx: Ctx, input: OutboundInput): MessageDto[] {
  const ticket = outboundTicket(ctx, ctx.actor.companyId, input.ticketId)
  const ids = transact(ctx, (tx, events) => writeOutboundMessages(ctx, tx, events, ticket, input))
  afterOutboundCommit(ctx, ids, !!input.isPrivate)
  return loadMessageDtos(ctx, ids)
}

/**
 * After outbound rows commit: they become searchable shortly, and (not for notes) go to the sender. Returns the
 * sender's promise (resolved once each was sent, failed or waits for its connection).
 */
export function afterOutboundCommit(ctx: Deps, ids: number[], isPrivate = false): Promise<void> {
  kickSearchIndex(ctx)
  return isPrivate ? Promise.resolve() : outboundSender(ctx).kick(ids)
}

type SendRow = {
  id: number
  companyId: number
  ticketId: number
  body: string
  mediaType: string
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  ptt: number
  quotedMsgId: number | null
  sendState: string | null
  isDeleted: number
  isPrivate: number
  providerData: string | null
  createdAt: number
  whatsappId: number | null
  number: string | null
  lid: string | null
  isGroup: number
}

type RefRow = {
  wid: string | null
  remoteJid: string | null
  fromMe: number
  participant: string | null
  providerData: string | null
  body: string
  mediaType: string
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  ptt: number
}

const MEDIA_KIND: Record<string, Exclude<OutboundContent['kind'], 'text' | 'location' | 'contacts'>> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  application: 'document',
  sticker: 'sticker',
}

export type OutboundSenderOptions = {
  /** How long a new message waits for its connection to be connected before it fails. */
  connectGraceMs: number
  /** The same after a boot, while sessions reconnect. */
  bootGraceMs: number
  /** How often a waiting message looks again. */
  pollMs: number
}

const DEFAULTS: OutboundSenderOptions = { connectGraceMs: 30_000, bootGraceMs: 120_000, pollMs: 2_000 }

/** Hands queued outbound messages to their connection's session and records what happened. */
export class OutboundSender {
  private readonly waiting = new Map<number, TimerHandle>()
  /** Each message on its way to (or at) its connection's door, until its turn is over. */
  private readonly inFlight = new Set<Promise<void>>()
  /** Set by `stop`: nothing more is claimed or waited for (queued rows stay queued for the next boot). */
  private stopped = false
  private readonly options: OutboundSenderOptions

  constructor(
    private readonly deps: Deps,
    options: Partial<OutboundSenderOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options }
  }

  /**
   * Sends these queued messages, each after what its connection already has in line. Resolves when each has
   * been sent, has failed, or waits for its connection.
   */
  kick(ids: number[], graceMs = this.options.connectGraceMs): Promise<void> {
    const until = this.deps.clock.now() + graceMs
    return Promise.all(ids.map((id) => this.enqueue(id, until))).then(() => undefined)
  }

  /** Boot: interrupted sends become failed (never resent blindly); queued ones are sent. */
  resume(): Promise<void> {
    this.stopped = false
    const now = this.deps.clock.now()
    this.deps.sqlite
      .query(
        `UPDATE messages SET send_state = 'failed', updated_at = ?,
                send_error = 'ERR_SEND_INTERRUPTED: the server stopped while WhatsApp had this message; it may not have been delivered. Retry to send it again.'
          WHERE send_state = 'sending'`,
      )
      .run(now)
    const queued = this.deps.sqlite
      .query<{ id: number }, []>(`SELECT id FROM messages WHERE send_state = 'queued' ORDER BY id`)
      .all()
    return this.kick(
      queued.map((r) => r.id),
      this.options.bootGraceMs,
    )
  }

  /**
   * Stops waiting timers and claims nothing more (shutdown, tests); resolves once every send under way is over,
   * so its row ends sent, failed, or back in the queue for the next boot, never left 'sending'.
   */
  async stop(): Promise<void> {
    this.stopped = true
    for (const handle of this.waiting.values()) this.deps.clock.clearTimeout(handle)
    this.waiting.clear()
    await Promise.all(this.inFlight)
  }

  private enqueue(id: number, until: number): Promise<void> {
    if (this.stopped) return Promise.resolve()
    const connection =
      this.deps.sqlite
        .query<{ whatsappId: number | null }, [number]>(
          'SELECT t.whatsapp_id AS whatsappId FROM messages m JOIN tickets t ON t.id = m.ticket_id WHERE m.id = ?',
        )
        .get(id)?.whatsappId ?? 0
    // A message of a ticket without a connection has no door: it fails at once.
    const attempt = connection
      ? doorOf(this.deps, connection).turn('conversation', (turn) => this.attempt(turn, id, until))
      : this.attempt(null, id, until)
    const settled = attempt
      .catch((err: Error) =>
        this.deps.log.error('outbound send failed unexpectedly', { messageId: id, error: err.message }),
      )
      .finally(() => this.inFlight.delete(settled))
    this.inFlight.add(settled)
    return settled
  }

  private load(id: number) {
    return this.deps.sqlite
      .query<SendRow, [number]>(
        `SELECT m.id, m.company_id AS companyId, m.ticket_id AS ticketId, m.body, m.media_type AS mediaType,
                m.media_path AS mediaPath, m.media_name AS mediaName, m.media_mime AS mediaMime, m.ptt,
                m.quoted_msg_id AS quotedMsgId, m.send_state AS sendState, m.is_deleted AS isDeleted,
                m.is_private AS isPrivate, m.provider_data AS providerData, m.created_at AS createdAt,
                t.whatsapp_id AS whatsappId, c.number, c.lid, c.is_group AS isGroup
           FROM messages m JOIN tickets t ON t.id = m.ticket_id LEFT JOIN contacts c ON c.id = t.contact_id
          WHERE m.id = ?`,
      )
      .get(id)
  }

  private refRow(companyId: number, id: number) {
    return this.deps.sqlite
      .query<RefRow, [number, number]>(
        `SELECT wid, remote_jid AS remoteJid, from_me AS fromMe, participant, provider_data AS providerData,
                body, media_type AS mediaType, media_path AS mediaPath, media_name AS mediaName,
                media_mime AS mediaMime, ptt
           FROM messages WHERE id = ? AND company_id = ?`,
      )
      .get(id, companyId)
  }

  private async attempt(turn: Turn | null, id: number, until: number): Promise<void> {
    this.waiting.delete(id)
    // Stopped while it waited in line: it stays queued, and the next boot sends it.
    if (this.stopped) return
    const row = this.load(id)
    if (row?.sendState !== 'queued' || row.isDeleted || row.isPrivate) return
    if (!turn?.connected) {
      if (row.whatsappId != null && this.deps.clock.now() < until) {
        // Not connected yet (a reconnect, a boot): look again shortly, without holding the line.
        if (!this.waiting.has(id)) {
          const handle = this.deps.clock.setTimeout(() => void this.enqueue(id, until), this.options.pollMs)
          this.waiting.set(id, handle)
        }
        return
      }
      this.fail(row, new AppError('ERR_WAPP_NOT_INITIALIZED', 'the connection is not connected'), true)
      return
    }
    const to = chatRefOf({ number: row.number, lid: row.lid, isGroup: row.isGroup })
    if (!to) {
      this.fail(row, new AppError('ERR_WAPP_INVALID_CONTACT', 'the contact has no WhatsApp address'), true)
      return
    }
    const hand = turn.claim(() => this.claim(id))
    if (!hand) return
    let ref: MsgRef
    try {
      ref = await this.send(hand, row, to)
    } catch (err) {
      // The session went away between the check and the send: nothing left, so it may wait and go again.
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED' && this.unclaim(id, until))
        return
      this.fail(row, err)
      return
    }
    this.sent(row, ref, hand)
  }

  /** queued -> sending, only if still queued (and not deleted): whoever wins sends; everyone else stops. */
  private claim(id: number) {
    const result = this.deps.sqlite
      .query(
        `UPDATE messages SET send_state = 'sending', send_attempts = send_attempts + 1, updated_at = ?
          WHERE id = ? AND send_state = 'queued' AND is_deleted = 0`,
      )
      .run(this.deps.clock.now(), id)
    return result.changes === 1
  }

  /** sending -> queued again, for a send refused before anything left (not connected), while time remains. */
  private unclaim(id: number, until: number) {
    if (this.deps.clock.now() >= until) return false
    this.deps.sqlite
      .query(`UPDATE messages SET send_state = 'queued' WHERE id = ? AND send_state = 'sending'`)
      .run(id)
    // Stopping: back in the queue, where the next boot finds it.
    if (this.stopped) return true
    const handle = this.deps.clock.setTimeout(() => void this.enqueue(id, until), this.options.pollMs)
    this.waiting.set(id, handle)
    return true
  }

  private async send(hand: Hand, row: SendRow, to: ContactRef): Promise<MsgRef> {
    const forwardOf = readProviderData(row.providerData).forwardOf
    if (typeof forwardOf === 'number') {
      const source = this.refRow(row.companyId, forwardOf)
      const raw = rawOf(source?.providerData)
      const sourceRef = source && msgRefOf(source, null)
      // The channel's forward needs the original message; without it, the content is sent as a copy.
      if (source && sourceRef && raw) return hand.forward(to, sourceRef, raw)
    }
    const options: { quoted?: MsgRef } = {}
    if (row.quotedMsgId != null) {
      const quoted = this.refRow(row.companyId, row.quotedMsgId)
      const quotedRef = quoted && msgRefOf(quoted, to.jid)
      if (quotedRef) options.quoted = quotedRef
    }
    return hand.send(to, this.content(row), options)
  }

  private content(row: SendRow): OutboundContent {
    const kind = MEDIA_KIND[row.mediaType]
    if (!kind || !row.mediaPath) return { kind: 'text', body: row.body }
    const path = mediaFilePath(this.deps, row.companyId, row.mediaPath)
    if (!path) throw new AppError('ERR_SENDING_WAPP_MSG', 'the stored file is missing')
    const voice = kind === 'audio' && !!row.ptt
    const content: OutboundContent = {
      kind,
      path,
      mimetype: voice ? 'audio/ogg; codecs=opus' : (row.mediaMime ?? 'application/octet-stream'),
    }
    if (row.mediaName) content.fileName = row.mediaName
    if (row.body && kind !== 'audio' && kind !== 'sticker') content.caption = row.body
    if (voice) content.ptt = true
    return content
  }

  private sent(row: SendRow, ref: MsgRef, hand: Hand) {
    // ack 1 is WhatsApp's server having the message; a send it did not acknowledge stays 0 until receipts.
    const serverAck = ref.serverAck === false ? 0 : 1
    const deleted = transact(this.deps, (sqlite, events) => {
      try {
        sqlite
          .query(
            `UPDATE messages SET wid = ?, remote_jid = ?, participant = COALESCE(participant, ?),
                    send_state = 'sent', send_error = NULL, ack = MAX(ack, ?), updated_at = ?
              WHERE id = ?`,
          )
          .run(ref.id, ref.chatJid, ref.participant ?? null, serverAck, this.deps.clock.now(), row.id)
      } catch (err) {
        // The provider's id is already on another row (its echo stored by the inbound path): keep ours sent.
        this.deps.log.warn('outbound message id already stored', { messageId: row.id, wid: ref.id })
        sqlite
          .query(`UPDATE messages SET send_state = 'sent', send_error = NULL, ack = MAX(ack, ?) WHERE id = ?`)
          .run(serverAck, row.id)
        void err
      }
      publishMessageUpdates(this.deps, sqlite, events, row.ticketId, [row.id])
      return !!sqlite
        .query<{ d: number }, [number]>('SELECT is_deleted AS d FROM messages WHERE id = ?')
        .get(row.id)?.d
    })
    // Deleted for everyone while WhatsApp had it: take it back now that it has an id.
    if (deleted)
      void hand
        .deleteForEveryone(ref)
        .catch((err: Error) =>
          this.deps.log.warn('revoking a message deleted while sending failed', { error: err.message }),
        )
  }

  private fail(row: SendRow, err: unknown, fromQueued = false) {
    const code = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG'
    const detail = (err as Error)?.message && (err as Error).message !== code ? (err as Error).message : ''
    const reason = (detail ? `${code}: ${detail}` : code).slice(0, 500)
    transact(this.deps, (sqlite, events) => {
      const result = sqlite
        .query(
          `UPDATE messages SET send_state = 'failed', send_error = ?, updated_at = ?
            WHERE id = ? AND send_state = ?`,
        )
        .run(reason, this.deps.clock.now(), row.id, fromQueued ? 'queued' : 'sending')
      if (result.changes) publishMessageUpdates(this.deps, sqlite, events, row.ticketId, [row.id])
    })
  }
}

/** The server's one sender (per jobs registry): every outbound path and the boot share it. */
export function outboundSender(deps: Deps, options?: Partial<OutboundSenderOptions>): OutboundSender {
  return deps.jobs.use('outbound', () => {
    // A Ctx is Deps plus an actor: keep the deps only.
    const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
    return new OutboundSender(plain as Deps, options)
  })
}
