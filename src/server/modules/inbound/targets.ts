/**
 * Reactions, edits, deletions and quotes attach to the message they refer to, found by its provider id (wid)
 * wherever it is in the history; they never become messages of their own.
 *
 * - a reaction upserts `message_reactions` (one per sender; an empty emoji removes it; an older reaction
 *   arriving after a newer one changes nothing);
 * - an edit appends the previous body to `oldMessages` (with the edit's time) and sets the new body and
 *   `isEdited`; only the author's edit counts (our edits of our messages, the customer's of theirs), and an
 *   edit repeating the current body (our own edit echoing back) changes nothing;
 * - a deletion for everyone sets `isDeleted` (the body is kept, shown as deleted; search forgets it);
 * - a quote sets the quoting message's `quotedMsgId`.
 *
 * When the target is not stored (yet) — WhatsApp delivers a reaction before the message during an offline
 * replay, or the message comes later with a history sync — the action waits in `inbound_pending` and is applied
 * when a message with that wid arrives (in arrival order). Pending actions older than 30 days are dropped at
 * boot: by then the target is not coming.
 */
import type { Database } from 'bun:sqlite'
import type { ContactRef, MsgRef } from '../../channels/types'
import type { Deps } from '../../context'
import type { PendingKind } from '../../db/schema/inbound'
import { appendOldMessage } from '../messages/dto'
import { reindexMessage } from '../search/indexer'
import { lidDigits } from './jids'

/** Pending actions kept this long at most. */
export const PENDING_TTL_MS = 30 * 24 * 60 * 60 * 1000

/** How many actions wait: with none (the usual case), arriving messages skip the lookup. */
export type PendingStore = { count: number; inserts?: number }

export type ReactionPayload = { sender: string; senderName: string | null; emoji: string; at: number }
export type EditPayload = { body: string; at: number; fromMe: boolean }
export type DeletePayload = { fromMe: boolean }
export type QuotePayload = { messageId: number }

type Target = {
  id: number
  ticketId: number
  contactId: number | null
  body: string
  fromMe: number
  isDeleted: number
  oldMessages: string | null
  participant: string | null
  isGroup: number
}

export type Touched = { ticketId: number; messageId: number }

/** Drops expired actions and counts the rest: at boot, and every 500 new ones while running. */
export function loadPendingCount(sqlite: Database, now: number): PendingStore {
  sqlite.query('DELETE FROM inbound_pending WHERE created_at < ?').run(now - PENDING_TTL_MS)
  const row = sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM inbound_pending').get()
  return { count: row?.n ?? 0 }
}

export function rememberPending(
  sqlite: Database,
  pending: PendingStore,
  companyId: number,
  whatsappId: number,
  targetWid: string,
  kind: PendingKind,
  payload: ReactionPayload | EditPayload | DeletePayload | QuotePayload,
  now: number,
) {
  sqlite
    .query(
      `INSERT INTO inbound_pending (company_id, whatsapp_id, target_wid, kind, payload, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(companyId, whatsappId, targetWid, kind, JSON.stringify(payload), now)
  pending.count++
  pending.inserts = (pending.inserts ?? 0) + 1
  if (pending.inserts % 500 === 0) pending.count = loadPendingCount(sqlite, now).count
}

function targetByWid(sqlite: Database, companyId: number, wid: string): Target | undefined {
  return (
    sqlite
      .query<Target, [number, string]>(
        `SELECT m.id, m.ticket_id AS ticketId, m.contact_id AS contactId, m.body, m.from_me AS fromMe,
                m.is_deleted AS isDeleted, m.old_messages AS oldMessages, m.participant, t.is_group AS isGroup
           FROM messages m JOIN tickets t ON t.id = m.ticket_id
          WHERE m.company_id = ? AND m.wid = ?`,
      )
      .get(companyId, wid) ?? undefined
  )
}

function targetById(sqlite: Database, id: number): Target | undefined {
  return (
    sqlite
      .query<Target, [number]>(
        `SELECT m.id, m.ticket_id AS ticketId, m.contact_id AS contactId, m.body, m.from_me AS fromMe,
                m.is_deleted AS isDeleted, m.old_messages AS oldMessages, m.participant, t.is_group AS isGroup
           FROM messages m JOIN tickets t ON t.id = m.ticket_id
          WHERE m.id = ?`,
      )
      .get(id) ?? undefined
  )
}

/** Who reacted, as the reactions table keys them: 'me' for us, else their LID (stable), number or JID. */
export function reactionSender(from: ContactRef, fromMe: boolean): string {
  if (fromMe) return 'me'
  return from.lid ?? (from.pn ? `${from.pn}@s.whatsapp.net` : from.jid)
}

/** The reactor's name: the contact's in a 1:1 chat, the last name the participant wrote under in a group. */
function reactorName(sqlite: Database, target: Target, from: ContactRef): string | null {
  if (!target.isGroup) {
    if (target.contactId == null) return null
    return (
      sqlite.query<{ name: string }, [number]>('SELECT name FROM contacts WHERE id = ?').get(target.contactId)
        ?.name ?? null
    )
  }
  const jids = [from.jid, from.lid, from.pn ? `${from.pn}@s.whatsapp.net` : undefined].filter(
    (j): j is string => !!j,
  )
  for (const jid of jids) {
    const row = sqlite
      .query<{ name: string | null }, [number, string]>(
        `SELECT participant_name AS name FROM messages WHERE ticket_id = ? AND participant = ?
          ORDER BY id DESC LIMIT 1`,
      )
      .get(target.ticketId, jid)
    if (row?.name) return row.name
  }
  return from.pn ?? lidDigits(from.lid) ?? null
}

// ---------------------------------------------------------------------------------------------------------
// applying to a stored target

function applyReaction(sqlite: Database, companyId: number, target: Target, p: ReactionPayload): boolean {
  if (!p.emoji) {
    const res = sqlite
      .query('DELETE FROM message_reactions WHERE message_id = ? AND sender = ? AND created_at <= ?')
      .run(target.id, p.sender, p.at)
    return res.changes > 0
  }
  const res = sqlite
    .query(
      `INSERT INTO message_reactions (company_id, message_id, sender, sender_name, emoji, created_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (message_id, sender) DO UPDATE
          SET emoji = excluded.emoji, sender_name = coalesce(excluded.sender_name, sender_name),
              created_at = excluded.created_at
        WHERE excluded.created_at >= message_reactions.created_at AND excluded.emoji <> message_reactions.emoji`,
    )
    .run(companyId, target.id, p.sender, p.senderName, p.emoji, p.at)
  return res.changes > 0
}

function applyEdit(sqlite: Database, target: Target, p: EditPayload, now: number): boolean {
  if (!!target.fromMe !== p.fromMe) return false
  if (target.isDeleted || target.body === p.body) return false
  sqlite
    .query('UPDATE messages SET body = ?, is_edited = 1, old_messages = ?, updated_at = ? WHERE id = ?')
    .run(p.body, appendOldMessage(target.oldMessages, target.body, p.at), now, target.id)
  reindexMessage(sqlite, target.id)
  // the list shows the edited text when it was the ticket's last message
  const last = sqlite
    .query<{ id: number }, [number]>(
      'SELECT id FROM messages WHERE ticket_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    )
    .get(target.ticketId)
  if (last?.id === target.id)
    sqlite.query('UPDATE tickets SET last_message = ? WHERE id = ?').run(p.body, target.ticketId)
  return true
}

function applyDelete(sqlite: Database, target: Target, p: DeletePayload, now: number): boolean {
  if (!!target.fromMe !== p.fromMe || target.isDeleted) return false
  sqlite.query('UPDATE messages SET is_deleted = 1, updated_at = ? WHERE id = ?').run(now, target.id)
  reindexMessage(sqlite, target.id)
  return true
}

// ---------------------------------------------------------------------------------------------------------
// events from the channel

export type TargetAction =
  | { kind: 'reaction'; target: MsgRef; from: ContactRef; fromMe: boolean; emoji: string; at: number }
  | { kind: 'edit'; target: MsgRef; body: string; at: number }
  | { kind: 'delete'; target: MsgRef }

/**
 * Applies a reaction, edit or deletion to its target inside the caller's transaction. Returns the target
 * (to publish) when something changed, 'pending' when the target is not stored yet, undefined otherwise.
 */
export function applyTargetAction(
  deps: Pick<Deps, 'sqlite'>,
  companyId: number,
  whatsappId: number,
  action: TargetAction,
  now: number,
  pending: PendingStore,
): Touched | 'pending' | undefined {
  const { sqlite } = deps
  const target = targetByWid(sqlite, companyId, action.target.id)
  let payload: ReactionPayload | EditPayload | DeletePayload
  switch (action.kind) {
    case 'reaction': {
      const sender = reactionSender(action.from, action.fromMe)
      const senderName = action.fromMe ? null : target ? reactorName(sqlite, target, action.from) : null
      payload = { sender, senderName, emoji: action.emoji, at: action.at }
      if (!target) break
      return applyReaction(sqlite, companyId, target, payload)
        ? { ticketId: target.ticketId, messageId: target.id }
        : undefined
    }
    case 'edit':
      payload = { body: action.body, at: action.at, fromMe: action.target.fromMe }
      if (!target) break
      return applyEdit(sqlite, target, payload, now)
        ? { ticketId: target.ticketId, messageId: target.id }
        : undefined
    case 'delete':
      payload = { fromMe: action.target.fromMe }
      if (!target) break
      return applyDelete(sqlite, target, payload, now)
        ? { ticketId: target.ticketId, messageId: target.id }
        : undefined
  }
  rememberPending(sqlite, pending, companyId, whatsappId, action.target.id, action.kind, payload, now)
  return 'pending'
}

type PendingRow = { id: number; kind: PendingKind; payload: string; createdAt: number }

/**
 * A message just arrived: applies what waited for it, in arrival order, and forgets it. Returns the messages
 * that changed besides the new one (quoting messages now pointing at it).
 */
export function applyPendingFor(
  deps: Pick<Deps, 'sqlite'>,
  pending: PendingStore,
  companyId: number,
  wid: string,
  messageId: number,
): Touched[] {
  const { sqlite } = deps
  const rows = sqlite
    .query<PendingRow, [number, string]>(
      `SELECT id, kind, payload, created_at AS createdAt FROM inbound_pending
        WHERE company_id = ? AND target_wid = ? ORDER BY id`,
    )
    .all(companyId, wid)
  if (!rows.length) return []
  const touched: Touched[] = []
  for (const row of rows) {
    const target = targetById(sqlite, messageId)
    if (!target) break
    let payload: unknown
    try {
      payload = JSON.parse(row.payload)
    } catch {
      continue
    }
    switch (row.kind) {
      case 'reaction': {
        const p = payload as ReactionPayload
        if (!p.senderName && p.sender !== 'me') {
          const ref: ContactRef = { jid: p.sender }
          if (p.sender.endsWith('@lid')) ref.lid = p.sender
          p.senderName = reactorName(sqlite, target, ref)
        }
        applyReaction(sqlite, companyId, target, p)
        break
      }
      case 'edit':
        applyEdit(sqlite, target, payload as EditPayload, row.createdAt)
        break
      case 'delete':
        applyDelete(sqlite, target, payload as DeletePayload, row.createdAt)
        break
      case 'quote': {
        const quoting = (payload as QuotePayload).messageId
        const res = sqlite
          .query(
            'UPDATE messages SET quoted_msg_id = ? WHERE id = ? AND company_id = ? AND quoted_msg_id IS NULL',
          )
          .run(messageId, quoting, companyId)
        const row2 = sqlite
          .query<{ ticketId: number }, [number]>('SELECT ticket_id AS ticketId FROM messages WHERE id = ?')
          .get(quoting)
        if (res.changes > 0 && row2) touched.push({ ticketId: row2.ticketId, messageId: quoting })
        break
      }
    }
  }
  const res = sqlite
    .query('DELETE FROM inbound_pending WHERE company_id = ? AND target_wid = ?')
    .run(companyId, wid)
  pending.count = Math.max(0, pending.count - res.changes)
  return touched
}
