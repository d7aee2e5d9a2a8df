/**
 * One person, one contact. WhatsApp addresses a person by phone number and, more and more, by LID; Brazilian
 * mobiles exist with and without the ninth digit. A contact keeps its number (the form WhatsApp last used), the
 * number's key (both Brazilian forms give one key, unique per company) and its LID (unique per company), so a
 * message from any of them finds the same contact.
 *
 * When a message or a mapping shows that a LID and a number seen apart are one person, their two contacts merge
 * (`mergeContacts`): the older contact is kept; tickets, messages, tags and extra info of the other move to it,
 * nothing is deleted but the emptied contact; the web hears 'delete' for the gone contact and 'update' for the
 * kept one, and a ticket update for every ticket that changed contact.
 *
 * The partial unique index allows one open-or-pending ticket per contact and connection. If both contacts have
 * one on the same connection, the one with the older last activity (updated_at; on a tie the lower id) is
 * closed first, recorded as a 'closed' ticket event by the system, and keeps its messages: the conversation
 * goes on in the other, and both stay in the kept contact's history. Tickets on different connections simply
 * move.
 *
 * Sending: `contactJid` (channels/address.ts) addresses a contact WhatsApp has moved to LID addressing by its LID.
 */

import type { Database } from 'bun:sqlite'
import { normalizeNumber, numberKey } from '../../../shared/numbers'
import type { Deps } from '../../context'
import { transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import type { ContactRow } from '../../db/schema'
import type { EventBuffer } from '../../realtime/hub'
import { loadTicketDtos } from '../tickets/dto'
import { recordTicketEvent } from '../tickets/events'
import { publishTicket } from '../tickets/live'
import { CONTACT_ROW_COLUMNS, loadContactDtos, type RawContactRow, toContactRow } from './dto'
import { publishContact, publishContactDeleted } from './live'

export type InboundWho = {
  /** The phone number (any form: digits, a JID), or null when WhatsApp gave only a LID. A group's id for a group. */
  number: string | null
  /** The LID (digits, or `<digits>@lid`), when known. */
  lid: string | null
  /** The push name (or the group's subject). */
  name: string | null
  isGroup: boolean
  /** The connection the message came through. */
  whatsappId: number
}

/** A contact's identity as WhatsApp gives it: the number as WhatsApp writes it, its key, the LID. */
type Identity = { number: string | null; key: string | null; lid: string | null }

/** A group's id as WhatsApp writes it (`120363…` or the old `<creator>-<time>`), without its `@g.us`. */
function groupId(raw: string | null): string | null {
  const id = (raw ?? '').replace(/@.*$/, '').trim()
  return /^[\d-]+$/.test(id) && /\d/.test(id) ? id : null
}

function identityOf(who: { number: string | null; lid: string | null; isGroup: boolean }): Identity {
  if (who.isGroup) {
    const id = groupId(who.number)
    return { number: id, key: id, lid: null }
  }
  const number = normalizeNumber(who.number)
  return { number, key: number ? numberKey(number) : null, lid: normalizeNumber(who.lid) }
}

const MAX_NAME = 50

/** A name fit for a contact: one line, trimmed, at most 50 characters; null when nothing is left. */
function cleanName(name: string | null | undefined): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = (name ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  if (!clean) return null
  const chars = [...clean]
  return chars.length > MAX_NAME ? chars.slice(0, MAX_NAME).join('').trim() : clean
}

/** A name nobody chose: empty, or the contact's own number or LID (what a contact is named before a push name). */
function isPlaceholderName(row: Pick<ContactRow, 'name' | 'number' | 'lid'>): boolean {
  return !row.name || row.name === row.number || row.name === row.lid
}

function rowByKey(sqlite: Database, companyId: number, key: string): ContactRow | undefined {
  const raw = sqlite
    .query<RawContactRow, [number, string]>(
      `SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE company_id = ? AND number_key = ?`,
    )
    .get(companyId, key)
  return raw ? toContactRow(raw) : undefined
}

function rowByLid(sqlite: Database, companyId: number, lid: string): ContactRow | undefined {
  const raw = sqlite
    .query<RawContactRow, [number, string]>(
      `SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE company_id = ? AND lid = ?`,
    )
    .get(companyId, lid)
  return raw ? toContactRow(raw) : undefined
}

function rowById(sqlite: Database, id: number): ContactRow {
  const raw = sqlite
    .query<RawContactRow, [number]>(`SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE id = ?`)
    .get(id)
  if (!raw) throw new Error(`contact ${id} vanished inside its transaction`)
  return toContactRow(raw)
}

function publishContactById(sqlite: Database, events: EventBuffer, id: number) {
  const [dto] = loadContactDtos(sqlite, [id])
  if (dto) publishContact(events, dto)
}

type Patch = Partial<{
  name: string
  number: string | null
  numberKey: string | null
  lid: string | null
  whatsappId: number | null
}>

const PATCH_COLUMNS: Record<keyof Patch, string> = {
  name: 'name',
  number: 'number',
  numberKey: 'number_key',
  lid: 'lid',
  whatsappId: 'whatsapp_id',
}

function applyPatch(sqlite: Database, id: number, patch: Patch, now: number) {
  const keys = Object.keys(patch) as (keyof Patch)[]
  if (keys.length === 0) return
  const sets = keys.map((k) => `${PATCH_COLUMNS[k]} = ?`).join(', ')
  sqlite
    .query(`UPDATE contacts SET ${sets}, updated_at = ? WHERE id = ?`)
    .run(...keys.map((k) => patch[k] ?? null), now, id)
}

/** What a message's identity adds to a contact already found: the other identifier, a better name, the connection. */
function patchFor(row: ContactRow, id: Identity, name: string | null, whatsappId: number | null): Patch {
  const patch: Patch = {}
  // The number as WhatsApp writes it now (a Brazilian mobile may have moved between its two forms).
  if (id.number && id.number !== row.number) {
    patch.number = id.number
    patch.numberKey = id.key
  }
  if (id.lid && id.lid !== row.lid) patch.lid = id.lid
  const next = { ...row, ...patch }
  if (name && name !== row.name && isPlaceholderName(next)) patch.name = name
  if (whatsappId != null && whatsappId !== row.whatsappId) patch.whatsappId = whatsappId
  return patch
}

function insertContact(
  sqlite: Database,
  companyId: number,
  id: Identity,
  name: string,
  isGroup: boolean,
  whatsappId: number | null,
  now: number,
): ContactRow | undefined {
  // DO NOTHING on any unique index (number key, LID): another writer got there first, and the caller finds it.
  const raw = sqlite
    .query<RawContactRow, (string | number | null)[]>(
      `INSERT INTO contacts (company_id, uuid, name, number, number_key, lid, is_group, whatsapp_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING
       RETURNING ${CONTACT_ROW_COLUMNS}`,
    )
    .get(
      companyId,
      crypto.randomUUID(),
      name,
      id.number,
      id.key,
      id.lid,
      isGroup ? 1 : 0,
      whatsappId,
      now,
      now,
    )
  return raw ? toContactRow(raw) : undefined
}

/**
 * The contact of an inbound message's sender (or group), found by number key (both Brazilian forms), then by
 * LID, created when absent; when the number and the LID belong to two contacts, they merge. Synchronous, inside
 * the caller's transaction; contact events are buffered in `events` (published after commit): 'update' when the
 * contact was created or changed, nothing when it was found as it was.
 */
export function resolveInboundContact(
  tx: Connection,
  companyId: number,
  who: InboundWho,
  now: number,
  events: EventBuffer,
): { contact: ContactRow; created: boolean } {
  const sqlite = sqliteOf(tx)
  const id = identityOf(who)
  if (!id.key && !id.lid) throw new Error('an inbound contact needs a number or a LID')
  const name = cleanName(who.name)
  for (let attempt = 0; attempt < 2; attempt++) {
    const byNumber = id.key ? rowByKey(sqlite, companyId, id.key) : undefined
    const byLid = id.lid ? rowByLid(sqlite, companyId, id.lid) : undefined
    if (byNumber && byLid && byNumber.id !== byLid.id) {
      const kept = mergeContacts(
        sqlite,
        companyId,
        { byNumber, byLid, identity: id, whatsappId: who.whatsappId },
        now,
        events,
      )
      return { contact: kept, created: false }
    }
    const found = byNumber ?? byLid
    if (found) {
      const patch = patchFor(found, id, name, who.whatsappId)
      if (Object.keys(patch).length === 0) return { contact: found, created: false }
      applyPatch(sqlite, found.id, patch, now)
      publishContactById(sqlite, events, found.id)
      return { contact: rowById(sqlite, found.id), created: false }
    }
    const created = insertContact(
      sqlite,
      companyId,
      id,
      name ?? id.number ?? id.lid ?? '',
      who.isGroup,
      who.whatsappId,
      now,
    )
    if (created) {
      publishContactById(sqlite, events, created.id)
      return { contact: created, created: true }
    }
    // Lost a race with another writer: what it inserted is found on the next pass.
  }
  throw new Error('could not find or create the inbound contact')
}

type MergeInput = {
  /** The contact found by the number's key. */
  byNumber: ContactRow
  /** The contact found by the LID. */
  byLid: ContactRow
  /** The merged identity: the number (as WhatsApp writes it), its key and the LID. */
  identity: Identity
  /** The connection the news came through, or null (a mapping). */
  whatsappId: number | null
}

type ActivePair = {
  goneId: number
  goneUpdated: number
  keptId: number
  keptUpdated: number
}

type TicketPlaceRow = {
  id: number
  status: 'open' | 'pending' | 'closed'
  userId: number | null
  queueId: number | null
  whatsappId: number | null
}

/**
 * Merges two contacts of one person into the older one (see the rule at the top of this file). Synchronous,
 * inside the caller's transaction; answers the kept contact as it is afterwards.
 */
export function mergeContacts(
  tx: Connection,
  companyId: number,
  input: MergeInput,
  now: number,
  events: EventBuffer,
): ContactRow {
  const sqlite = sqliteOf(tx)
  const [kept, gone] =
    input.byNumber.id < input.byLid.id ? [input.byNumber, input.byLid] : [input.byLid, input.byNumber]

  // 1. Two active tickets on one connection cannot both belong to one contact: close the older one first.
  const pairs = sqlite
    .query<ActivePair, [number, number, number]>(
      `SELECT g.id AS goneId, g.updated_at AS goneUpdated, k.id AS keptId, k.updated_at AS keptUpdated
         FROM tickets g JOIN tickets k
           ON k.company_id = g.company_id AND k.contact_id = ? AND k.whatsapp_id = g.whatsapp_id
          AND k.status IN ('open', 'pending')
        WHERE g.company_id = ? AND g.contact_id = ? AND g.status IN ('open', 'pending')`,
    )
    .all(kept.id, companyId, gone.id)
  const closedKept: number[] = []
  for (const pair of pairs) {
    const goneOlder =
      pair.goneUpdated < pair.keptUpdated ||
      (pair.goneUpdated === pair.keptUpdated && pair.goneId < pair.keptId)
    closeTicketForMerge(sqlite, companyId, goneOlder ? pair.goneId : pair.keptId, now)
    if (!goneOlder) closedKept.push(pair.keptId)
  }

  // 2. Everything of the gone contact moves to the kept one.
  const movedTickets = sqlite
    .query<{ id: number }, [number, number]>('SELECT id FROM tickets WHERE company_id = ? AND contact_id = ?')
    .all(companyId, gone.id)
    .map((t) => t.id)
  sqlite
    .query('UPDATE tickets SET contact_id = ? WHERE company_id = ? AND contact_id = ?')
    .run(kept.id, companyId, gone.id)
  sqlite
    .query('UPDATE messages SET contact_id = ? WHERE company_id = ? AND contact_id = ?')
    .run(kept.id, companyId, gone.id)
  sqlite
    .query(
      'INSERT OR IGNORE INTO contact_tags (contact_id, tag_id) SELECT ?, tag_id FROM contact_tags WHERE contact_id = ?',
    )
    .run(kept.id, gone.id)
  // Extra info the kept contact already has (same name and value) is not repeated.
  sqlite
    .query(
      `UPDATE contact_extra_info SET contact_id = ?1
        WHERE contact_id = ?2 AND NOT EXISTS (SELECT 1 FROM contact_extra_info k
              WHERE k.contact_id = ?1 AND k.name = contact_extra_info.name AND k.value = contact_extra_info.value)`,
    )
    .run(kept.id, gone.id)

  // 3. The gone contact goes (freeing its number key and LID), then the kept one takes both identifiers.
  sqlite.query('DELETE FROM contacts WHERE id = ?').run(gone.id)
  const name = isPlaceholderName(kept) && !isPlaceholderName(gone) ? gone.name : kept.name
  const picture =
    (gone.profilePicCheckedAt ?? 0) > (kept.profilePicCheckedAt ?? 0) && gone.profilePicUrl
      ? { url: gone.profilePicUrl, checkedAt: gone.profilePicCheckedAt }
      : {
          url: kept.profilePicUrl || gone.profilePicUrl,
          checkedAt: kept.profilePicCheckedAt ?? gone.profilePicCheckedAt,
        }
  const identity = input.identity
  sqlite
    .query(
      `UPDATE contacts SET name = ?, number = ?, number_key = ?, lid = ?, email = ?, profile_pic_url = ?,
              profile_pic_checked_at = ?, disable_bot = ?, whatsapp_id = ?, updated_at = ?
        WHERE id = ?`,
    )
    .run(
      name,
      identity.number ?? input.byNumber.number,
      identity.key ?? input.byNumber.numberKey,
      identity.lid ?? input.byLid.lid,
      kept.email || gone.email,
      picture.url,
      picture.checkedAt,
      kept.disableBot || gone.disableBot ? 1 : 0,
      input.whatsappId ?? kept.whatsappId ?? gone.whatsappId,
      now,
      kept.id,
    )

  // 4. Live: the gone contact leaves the lists, the kept one updates, and so does every ticket that changed.
  publishContactDeleted(events, companyId, gone.id)
  publishContactById(sqlite, events, kept.id)
  // (A kept ticket closed in step 1 did not move, but changed.)
  for (const ticket of loadTicketDtos(sqlite, [...movedTickets, ...closedKept])) publishTicket(events, ticket)
  return rowById(sqlite, kept.id)
}

function closeTicketForMerge(sqlite: Database, companyId: number, ticketId: number, now: number) {
  const t = sqlite
    .query<TicketPlaceRow, [number, number]>(
      `SELECT id, status, user_id AS userId, queue_id AS queueId, whatsapp_id AS whatsappId
         FROM tickets WHERE id = ? AND company_id = ?`,
    )
    .get(ticketId, companyId)
  if (!t) return
  sqlite
    .query(`UPDATE tickets SET status = 'closed', closed_at = ?, updated_at = ? WHERE id = ?`)
    .run(now, now, ticketId)
  recordTicketEvent(sqlite, {
    companyId,
    ticketId,
    type: 'closed',
    actorUserId: null,
    from: { status: t.status, userId: t.userId, queueId: t.queueId, whatsappId: t.whatsappId },
    to: { status: 'closed', userId: t.userId, queueId: t.queueId, whatsappId: t.whatsappId },
    at: now,
  })
}

/**
 * A LID-to-number mapping from the channel (history sync, `lid-mapping.update`, a contact update with its
 * phone number): the contact known by one gains the other; two contacts, one by each, merge. Creates no
 * contact: a mapping alone is not a conversation. Groups are left alone.
 */
export function applyLidMapping(deps: Deps, companyId: number, mapping: { lid: string; number: string }) {
  const id = identityOf({ number: mapping.number, lid: mapping.lid, isGroup: false })
  if (!id.key || !id.lid) return
  transact(deps, (sqlite, events) => {
    const now = deps.clock.now()
    const byNumber = rowByKey(sqlite, companyId, id.key!)
    const byLid = rowByLid(sqlite, companyId, id.lid!)
    if (byNumber?.isGroup || byLid?.isGroup) return
    if (byNumber && byLid) {
      if (byNumber.id !== byLid.id)
        mergeContacts(sqlite, companyId, { byNumber, byLid, identity: id, whatsappId: null }, now, events)
      return
    }
    const found = byNumber ?? byLid
    if (!found) return
    // Known by number: it gains the LID. Known by LID: it gains the number (its form from the mapping).
    const patch = patchFor(found, byNumber ? { number: null, key: null, lid: id.lid } : id, null, null)
    if (Object.keys(patch).length === 0) return
    applyPatch(sqlite, found.id, patch, now)
    publishContactById(sqlite, events, found.id)
  })
}
