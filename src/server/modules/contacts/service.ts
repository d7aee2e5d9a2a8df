/**
 * Contacts: create, read, update, delete, find-or-create. Every user of the company may read and edit contacts;
 * deleting needs contacts-page:deleteContact (admins). Numbers are masked in every answer for a reader whose
 * isTricked is not 'enabled' (mask.ts); live events carry both flavours (live.ts). The list is in search.ts,
 * the inbound side (WhatsApp's numbers and LIDs, merges) in resolve.ts.
 */

import type { Database } from 'bun:sqlite'
import type { ContactDto } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { normalizeNumber, numberKey } from '../../../shared/numbers'
import type { ContactInput, FindOrCreateContactInput } from '../../../shared/schemas/contacts'
import { maskContact, maskNumber, numberVisibility } from '../../access/mask'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import type { Connection } from '../../db/connection'
import type { ContactRow } from '../../db/schema'
import { publishTicketDeleted } from '../tickets/live'
import {
  CONTACT_ROW_COLUMNS,
  contactDtosOf,
  contactRowInCompany,
  type RawContactRow,
  toContactRow,
} from './dto'
import { publishContact, publishContactDeleted } from './live'
import { refreshProfilePicture, removeStoredPicture } from './picture'

/** The one way to load a contact: another company's id is simply not found. */
export function getContactRowInCompany(db: Connection, companyId: number, contactId: number): ContactRow {
  const row = contactRowInCompany(db, companyId, contactId)
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found')
  return row
}

function dtoOf(db: Connection, row: ContactRow): ContactDto {
  return contactDtosOf(db, [row])[0]!
}

export function getContact(ctx: Ctx, contactId: number): ContactDto {
  const row = getContactRowInCompany(ctx.sqlite, ctx.actor.companyId, contactId)
  return maskContact(dtoOf(ctx.sqlite, row), numberVisibility(ctx))
}

type NumberChange = { number: string | null; numberKey: string | null } | 'unchanged'

/**
 * What the typed number means. Empty: no number. The masked number the reader was shown, sent back as it was:
 * keep the number. Anything else with asterisks is refused; otherwise its digits, keyed (a group keeps its id).
 */
function numberChange(typed: string | null | undefined, current: ContactRow | null): NumberChange {
  if (typed === undefined) return 'unchanged'
  if (typed === null || typed === '') return { number: null, numberKey: null }
  if (typed.includes('*')) {
    if (current?.number && typed.replace(/[\s().+-]/g, '') === maskNumber(current.number, 'disabled'))
      return 'unchanged'
    throw fieldError('number', 'A number with asterisks is a masked number: type the whole number')
  }
  const digits = normalizeNumber(typed)
  if (!digits || digits.length < 8) throw fieldError('number', 'A phone number has at least 8 digits')
  if (current?.isGroup) return { number: current.number, numberKey: current.numberKey }
  return { number: digits, numberKey: numberKey(digits) }
}

function assertNumberFree(sqlite: Database, companyId: number, key: string | null, exceptId?: number) {
  if (!key) return
  const other = sqlite
    .query<{ id: number }, [number, string]>(
      'SELECT id FROM contacts WHERE company_id = ? AND number_key = ?',
    )
    .get(companyId, key)
  if (other && other.id !== exceptId)
    throw fieldError('number', 'Another contact already has this number', 'ERR_DUPLICATED_CONTACT')
}

function assertTagsInCompany(sqlite: Database, companyId: number, tagIds: number[]): number[] {
  const unique = [...new Set(tagIds)]
  if (unique.length === 0) return unique
  const found = sqlite
    .query<{ n: number }, [number, string]>(
      'SELECT count(*) AS n FROM tags WHERE company_id = ? AND id IN (SELECT value FROM json_each(?))',
    )
    .get(companyId, JSON.stringify(unique))
  if (found?.n !== unique.length) throw fieldError('tagIds', 'Unknown tag')
  return unique
}

function assertConnectionInCompany(
  sqlite: Database,
  companyId: number,
  whatsappId: number | null | undefined,
) {
  if (whatsappId == null) return
  const found = sqlite
    .query<{ id: number }, [number, number]>('SELECT id FROM whatsapps WHERE id = ? AND company_id = ?')
    .get(whatsappId, companyId)
  if (!found) throw fieldError('whatsappId', 'Unknown connection')
}

/** The whole extra-info list: items with an id of this contact are updated, others added, the rest removed. */
function replaceExtraInfo(
  sqlite: Database,
  contactId: number,
  items: NonNullable<ContactInput['extraInfo']>,
) {
  const existing = new Set(
    sqlite
      .query<{ id: number }, [number]>('SELECT id FROM contact_extra_info WHERE contact_id = ?')
      .all(contactId)
      .map((r) => r.id),
  )
  const kept = new Set<number>()
  for (const item of items) {
    if (item.id != null && existing.has(item.id) && !kept.has(item.id)) {
      kept.add(item.id)
      sqlite
        .query('UPDATE contact_extra_info SET name = ?, value = ? WHERE id = ?')
        .run(item.name, item.value ?? '', item.id)
    } else {
      const row = sqlite
        .query<{ id: number }, [number, string, string]>(
          'INSERT INTO contact_extra_info (contact_id, name, value) VALUES (?, ?, ?) RETURNING id',
        )
        .get(contactId, item.name, item.value ?? '')
      if (row) kept.add(row.id)
    }
  }
  for (const id of existing)
    if (!kept.has(id)) sqlite.query('DELETE FROM contact_extra_info WHERE id = ?').run(id)
}

function replaceTags(sqlite: Database, contactId: number, tagIds: number[]) {
  sqlite.query('DELETE FROM contact_tags WHERE contact_id = ?').run(contactId)
  for (const tagId of tagIds)
    sqlite.query('INSERT INTO contact_tags (contact_id, tag_id) VALUES (?, ?)').run(contactId, tagId)
}

/** A unique index refused the write: two requests raced for one number. */
function isUniqueViolation(err: unknown) {
  return (
    err instanceof Error &&
    /UNIQUE constraint failed: contacts\.(company_id, contacts\.)?number_key/.test(err.message)
  )
}

function duplicated() {
  return fieldError('number', 'Another contact already has this number', 'ERR_DUPLICATED_CONTACT')
}

/** After commit: ask WhatsApp for the picture of a contact that has a number, without holding the answer. */
function fetchPictureLater(ctx: Ctx, contactId: number) {
  refreshProfilePicture(ctx, contactId).catch((err: Error) =>
    ctx.log.warn('profile picture refresh failed', { contactId, error: err.message }),
  )
}

export function createContact(ctx: Ctx, input: ContactInput): ContactDto {
  const { companyId } = ctx.actor
  const change = numberChange(input.number, null)
  const number = change === 'unchanged' ? { number: null, numberKey: null } : change
  let dto: ContactDto
  try {
    dto = transact(ctx, (sqlite, events) => {
      assertNumberFree(sqlite, companyId, number.numberKey)
      assertConnectionInCompany(sqlite, companyId, input.whatsappId)
      const tagIds = assertTagsInCompany(sqlite, companyId, input.tagIds ?? [])
      const now = ctx.clock.now()
      const raw = sqlite
        .query<RawContactRow, (string | number | null)[]>(
          `INSERT INTO contacts (company_id, uuid, name, number, number_key, email, disable_bot, whatsapp_id,
                                 created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${CONTACT_ROW_COLUMNS}`,
        )
        .get(
          companyId,
          crypto.randomUUID(),
          input.name,
          number.number,
          number.numberKey,
          input.email ?? '',
          input.disableBot ? 1 : 0,
          input.whatsappId ?? null,
          now,
          now,
        )!
      if (input.extraInfo?.length) replaceExtraInfo(sqlite, raw.id, input.extraInfo)
      if (tagIds.length) replaceTags(sqlite, raw.id, tagIds)
      const full = dtoOf(sqlite, toContactRow(raw))
      publishContact(events, full)
      return full
    })
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated()
    throw err
  }
  if (dto.number) fetchPictureLater(ctx, dto.id)
  return maskContact(dto, numberVisibility(ctx))
}

export function updateContact(ctx: Ctx, contactId: number, input: ContactInput): ContactDto {
  const { companyId } = ctx.actor
  try {
    const dto = transact(ctx, (sqlite, events) => {
      const current = getContactRowInCompany(sqlite, companyId, contactId)
      const change = numberChange(input.number, current)
      if (change !== 'unchanged') assertNumberFree(sqlite, companyId, change.numberKey, contactId)
      assertConnectionInCompany(sqlite, companyId, input.whatsappId)
      const tagIds = input.tagIds ? assertTagsInCompany(sqlite, companyId, input.tagIds) : null
      const number =
        change === 'unchanged' ? { number: current.number, numberKey: current.numberKey } : change
      sqlite
        .query(
          `UPDATE contacts SET name = ?, number = ?, number_key = ?, email = ?, disable_bot = ?, whatsapp_id = ?,
                  updated_at = ? WHERE id = ?`,
        )
        .run(
          input.name,
          number.number,
          number.numberKey,
          input.email === undefined ? current.email : (input.email ?? ''),
          (input.disableBot ?? current.disableBot) ? 1 : 0,
          input.whatsappId === undefined ? current.whatsappId : input.whatsappId,
          ctx.clock.now(),
          contactId,
        )
      if (input.extraInfo) replaceExtraInfo(sqlite, contactId, input.extraInfo)
      if (tagIds) replaceTags(sqlite, contactId, tagIds)
      const full = dtoOf(sqlite, getContactRowInCompany(sqlite, companyId, contactId))
      publishContact(events, full)
      return full
    })
    return maskContact(dto, numberVisibility(ctx))
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated()
    throw err
  }
}

type TicketPlaceRow = { id: number; companyId: number; queueId: number | null; userId: number | null }

/** Deletes the contact with its tickets and their messages (the database cascades); all of it leaves the lists live. */
export function deleteContact(ctx: Ctx, contactId: number) {
  const { companyId } = ctx.actor
  const picture = transact(ctx, (sqlite, events) => {
    const contact = getContactRowInCompany(sqlite, companyId, contactId)
    const tickets = sqlite
      .query<TicketPlaceRow, [number, number]>(
        `SELECT id, company_id AS companyId, queue_id AS queueId, user_id AS userId
           FROM tickets WHERE company_id = ? AND contact_id = ?`,
      )
      .all(companyId, contactId)
    sqlite.query('DELETE FROM contacts WHERE id = ?').run(contactId)
    for (const ticket of tickets) publishTicketDeleted(events, ticket)
    publishContactDeleted(events, companyId, contactId)
    return contact.profilePicUrl
  })
  removeStoredPicture(ctx, companyId, picture)
}

/**
 * `POST /contacts/findOrCreate`: the contact with this number (either Brazilian form), or a new one with these
 * fields. `created` says which (the route answers 201 or 200).
 */
export function findOrCreateContact(
  ctx: Ctx,
  input: FindOrCreateContactInput,
): { contact: ContactDto; created: boolean } {
  const change = numberChange(input.number, null)
  if (change === 'unchanged' || !change.numberKey) throw fieldError('number', 'A number is required')
  const existing = ctx.sqlite
    .query<RawContactRow, [number, string]>(
      `SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE company_id = ? AND number_key = ?`,
    )
    .get(ctx.actor.companyId, change.numberKey)
  if (existing)
    return {
      contact: maskContact(dtoOf(ctx.sqlite, toContactRow(existing)), numberVisibility(ctx)),
      created: false,
    }
  return {
    contact: createContact(ctx, { name: input.name, number: input.number, email: input.email }),
    created: true,
  }
}
