/**
 * Contact rows and DTOs from raw SQL: every contact answer and live event is built here, from one query for the
 * contacts and one each for their extra info and tags, whatever the batch size. Numbers are unmasked here and
 * masked per reader by `maskContact` (mask.ts).
 */

import type { ContactDto, ContactExtraInfoDto, TagRef } from '../../../shared/api'
import { type Connection, sqliteOf } from '../../db/connection'
import type { ContactRow } from '../../db/schema'

/** `SELECT` list giving a ContactRow's fields under their Drizzle names (booleans still 0/1: see `toContactRow`). */
export const CONTACT_ROW_COLUMNS = `id, company_id AS companyId, uuid, name, number, number_key AS numberKey, lid,
  email, profile_pic_url AS profilePicUrl, profile_pic_checked_at AS profilePicCheckedAt, is_group AS isGroup,
  disable_bot AS disableBot, lgpd_consent AS lgpdConsent, lgpd_consent_at AS lgpdConsentAt, whatsapp_id AS whatsappId,
  created_at AS createdAt, updated_at AS updatedAt`

/** The same list for a query that names the contacts table `c`. */
export const CONTACT_ROW_COLUMNS_C = CONTACT_ROW_COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1c.$2')

export type RawContactRow = Omit<ContactRow, 'isGroup' | 'disableBot'> & {
  isGroup: number
  disableBot: number
}

export function toContactRow(raw: RawContactRow): ContactRow {
  return { ...raw, isGroup: !!raw.isGroup, disableBot: !!raw.disableBot }
}

/** The contact in this company, or undefined (another company's id is not found). */
export function contactRowInCompany(db: Connection, companyId: number, id: number): ContactRow | undefined {
  const raw = sqliteOf(db)
    .query<RawContactRow, [number, number]>(
      `SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE id = ? AND company_id = ?`,
    )
    .get(id, companyId)
  return raw ? toContactRow(raw) : undefined
}

const iso = (ms: number) => new Date(ms).toISOString()

export function toContactDto(
  row: ContactRow | RawContactRow,
  extraInfo: ContactExtraInfoDto[],
  tags: TagRef[],
): ContactDto {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    number: row.number ?? '',
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: !!row.isGroup,
    disableBot: !!row.disableBot,
    lgpdConsent: row.lgpdConsent ?? null,
    lgpdConsentAt: row.lgpdConsentAt == null ? null : iso(row.lgpdConsentAt),
    whatsappId: row.whatsappId,
    companyId: row.companyId,
    extraInfo,
    tags,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  }
}

const EXTRA_SQL = `SELECT contact_id AS contactId, id, name, value FROM contact_extra_info
 WHERE contact_id IN (SELECT value FROM json_each(?)) ORDER BY id`

const TAGS_SQL = `SELECT ct.contact_id AS contactId, g.id, g.name, g.color
  FROM contact_tags ct JOIN tags g ON g.id = ct.tag_id
 WHERE ct.contact_id IN (SELECT value FROM json_each(?))
 ORDER BY g.name, g.id`

function groupBy<T extends { contactId: number }, V>(rows: T[], pick: (row: T) => V): Map<number, V[]> {
  const by = new Map<number, V[]>()
  for (const row of rows) {
    const list = by.get(row.contactId)
    if (list) list.push(pick(row))
    else by.set(row.contactId, [pick(row)])
  }
  return by
}

/** DTOs of already loaded rows, in their order: two batched queries (extra info, tags). */
export function contactDtosOf(db: Connection, rows: (ContactRow | RawContactRow)[]): ContactDto[] {
  if (rows.length === 0) return []
  const sqlite = sqliteOf(db)
  const ids = JSON.stringify(rows.map((r) => r.id))
  const extra = groupBy(
    sqlite.query<ContactExtraInfoDto & { contactId: number }, [string]>(EXTRA_SQL).all(ids),
    (r) => ({ id: r.id, name: r.name, value: r.value }),
  )
  const tags = groupBy(sqlite.query<TagRef & { contactId: number }, [string]>(TAGS_SQL).all(ids), (r) => ({
    id: r.id,
    name: r.name,
    color: r.color,
  }))
  return rows.map((r) => toContactDto(r, extra.get(r.id) ?? [], tags.get(r.id) ?? []))
}

const BY_IDS_SQL = `SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE id IN (SELECT value FROM json_each(?))`

/**
 * Contacts as DTOs, in the order of `ids` (missing ids are left out), numbers unmasked. Works inside a
 * transaction. Callers check the company: this loads by id only.
 */
export function loadContactDtos(db: Connection, ids: number[]): ContactDto[] {
  if (ids.length === 0) return []
  const sqlite = sqliteOf(db)
  const rows = sqlite.query<RawContactRow, [string]>(BY_IDS_SQL).all(JSON.stringify(ids))
  const byId = new Map(contactDtosOf(sqlite, rows).map((c) => [c.id, c]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}
