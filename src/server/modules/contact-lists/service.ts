/**
 * Contact lists and their items (spec 2): admin only, gated by the plan's useCampaigns (PLAN_GATED_PATHS). Every
 * query filters by the actor's company; another company's id is not found. Item numbers are stored as their
 * number key (digits, one form per Brazilian mobile), unique per list, and masked for a reader whose isTricked
 * is not 'enabled', in answers and in live events (the `#full` room gets them whole).
 */

import type { Database } from 'bun:sqlite'
import type { Paged } from '../../../shared/api'
import type { ContactListDto, ContactListItemDto } from '../../../shared/contact-lists'
import { AppError, fieldError } from '../../../shared/errors'
import { normalizeNumber, numberKey } from '../../../shared/numbers'
import type {
  ContactListInput,
  ContactListItemInput,
  ListContactListItemsQuery,
  ListContactListsQuery,
} from '../../../shared/schemas/contact-lists'
import { maskNumber, numberVisibility } from '../../access/mask'
import { isoString } from '../../clock'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import { pageCount, pageOf, pageWindow } from '../../db/paging'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
import { validityChecker } from './checker'
import { publishItem, type RawItem, toItemDto } from './live'

export const LISTS_PAGE_SIZE = 20
export const ITEMS_PAGE_SIZE = 40

type RawList = {
  id: number
  name: string
  companyId: number
  contactsCount: number
  createdAt: number
  updatedAt: number
}

const LIST_COLUMNS = `l.id, l.name, l.company_id AS companyId, l.created_at AS createdAt, l.updated_at AS updatedAt,
  (SELECT count(*) FROM contact_list_items i WHERE i.contact_list_id = l.id) AS contactsCount`
const ITEM_COLUMNS = `i.id, i.name, i.number, i.email, i.is_whatsapp_valid AS isWhatsappValid, i.company_id AS companyId,
  i.contact_list_id AS contactListId, i.created_at AS createdAt, i.updated_at AS updatedAt`

const toListDto = (r: RawList): ContactListDto => ({
  id: r.id,
  name: r.name,
  companyId: r.companyId,
  contactsCount: r.contactsCount,
  createdAt: isoString(r.createdAt),
  updatedAt: isoString(r.updatedAt),
})

/** The one way to load a list: another company's id is simply not found. */
export function contactListInCompany(sqlite: Database, companyId: number, id: number): ContactListDto {
  const row = sqlite
    .query<RawList, [number, number]>(
      `SELECT ${LIST_COLUMNS} FROM contact_lists l WHERE l.id = ? AND l.company_id = ?`,
    )
    .get(id, companyId)
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_FOUND', 'Contact list not found')
  return toListDto(row)
}

function itemInCompany(sqlite: Database, companyId: number, id: number): RawItem {
  const row = sqlite
    .query<RawItem, [number, number]>(
      `SELECT ${ITEM_COLUMNS} FROM contact_list_items i WHERE i.id = ? AND i.company_id = ?`,
    )
    .get(id, companyId)
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND', 'Contact list item not found')
  return row
}

export function publishList(events: EventBuffer, list: ContactListDto, action: 'create' | 'update') {
  events.publish(rooms.admins(list.companyId), channel(list.companyId, 'ContactList'), {
    action,
    record: list,
  })
}

const LISTS_WHERE = 'l.company_id = $companyId AND ($term IS NULL OR instr(lower(l.name), lower($term)) > 0)'

/** `GET /contact-lists/`: 20 a page by name, each with its contactsCount. */
export function listContactLists(ctx: Ctx, query: ListContactListsQuery): Paged<'records', ContactListDto> {
  const at = pageWindow(query.pageNumber, LISTS_PAGE_SIZE)
  const params = { companyId: ctx.actor.companyId, term: query.searchParam?.trim() || null }
  const rows = ctx.sqlite
    .query<RawList, [typeof params & { limit: number; offset: number }]>(
      `SELECT ${LIST_COLUMNS} FROM contact_lists l WHERE ${LISTS_WHERE} ORDER BY l.name, l.id LIMIT $limit OFFSET $offset`,
    )
    .all({ ...params, limit: at.limit, offset: at.offset })
  const page = pageOf(rows, at)
  return {
    records: page.rows.map(toListDto),
    count: pageCount(
      page,
      () =>
        ctx.sqlite
          .query<{ n: number }, [typeof params]>(
            `SELECT count(*) AS n FROM contact_lists l WHERE ${LISTS_WHERE}`,
          )
          .get(params)?.n ?? 0,
    ),
    hasMore: page.hasMore,
  }
}

/** `GET /contact-lists/list`: every list of the company by name (the campaign dialog's selector). */
export function listAllContactLists(ctx: Ctx): ContactListDto[] {
  return ctx.sqlite
    .query<RawList, [number]>(
      `SELECT ${LIST_COLUMNS} FROM contact_lists l WHERE l.company_id = ? ORDER BY l.name, l.id`,
    )
    .all(ctx.actor.companyId)
    .map(toListDto)
}

export function getContactList(ctx: Ctx, id: number): ContactListDto {
  return contactListInCompany(ctx.sqlite, ctx.actor.companyId, id)
}

export function createContactList(ctx: Ctx, input: ContactListInput): ContactListDto {
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const { id } = sqlite
      .query<{ id: number }, [number, string, number, number]>(
        'INSERT INTO contact_lists (company_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id',
      )
      .get(companyId, input.name, now, now)!
    const list = contactListInCompany(sqlite, companyId, id)
    publishList(events, list, 'create')
    return list
  })
}

export function updateContactList(ctx: Ctx, id: number, input: ContactListInput): ContactListDto {
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite, events) => {
    contactListInCompany(sqlite, companyId, id)
    sqlite
      .query('UPDATE contact_lists SET name = ?, updated_at = ? WHERE id = ?')
      .run(input.name, ctx.clock.now(), id)
    const list = contactListInCompany(sqlite, companyId, id)
    publishList(events, list, 'update')
    return list
  })
}

/** Deletes the list with its items and its imports (the database cascades). */
export function deleteContactList(ctx: Ctx, id: number) {
  const { companyId } = ctx.actor
  transact(ctx, (sqlite, events) => {
    contactListInCompany(sqlite, companyId, id)
    sqlite.query('DELETE FROM contact_lists WHERE id = ?').run(id)
    events.publish(rooms.admins(companyId), channel(companyId, 'ContactList'), { action: 'delete', id })
  })
}

const ITEMS_WHERE = `i.contact_list_id = $listId AND ($term IS NULL OR instr(lower(i.name), lower($term)) > 0
  OR instr(i.number, $digits) > 0 OR instr(i.email, lower($term)) > 0)`

/** `GET /contact-list-items`: 40 a page by name, searched by name, number digits or email. */
export function listContactListItems(
  ctx: Ctx,
  query: ListContactListItemsQuery,
): Paged<'contacts', ContactListItemDto> {
  const { companyId } = ctx.actor
  contactListInCompany(ctx.sqlite, companyId, query.contactListId)
  const at = pageWindow(query.pageNumber, ITEMS_PAGE_SIZE)
  const term = query.searchParam?.trim() || null
  const digits = term ? normalizeNumber(term) : null
  const params = {
    listId: query.contactListId,
    term,
    digits: digits && digits.length >= 3 ? digits : '\u0000',
  }
  const rows = ctx.sqlite
    .query<RawItem, [typeof params & { limit: number; offset: number }]>(
      `SELECT ${ITEM_COLUMNS} FROM contact_list_items i WHERE ${ITEMS_WHERE} ORDER BY i.name, i.id LIMIT $limit OFFSET $offset`,
    )
    .all({ ...params, limit: at.limit, offset: at.offset })
  const page = pageOf(rows, at)
  const visibility = numberVisibility(ctx)
  // Items still unknown (no connection was up when they were added) are checked again when someone looks.
  if (page.rows.some((r) => r.isWhatsappValid == null)) validityChecker(ctx).kick(companyId)
  return {
    contacts: page.rows.map((r) => toItemDto(r, visibility)),
    count: pageCount(
      page,
      () =>
        ctx.sqlite
          .query<{ n: number }, [typeof params]>(
            `SELECT count(*) AS n FROM contact_list_items i WHERE ${ITEMS_WHERE}`,
          )
          .get(params)?.n ?? 0,
    ),
    hasMore: page.hasMore,
  }
}

export function getContactListItem(ctx: Ctx, id: number): ContactListItemDto {
  return toItemDto(itemInCompany(ctx.sqlite, ctx.actor.companyId, id), numberVisibility(ctx))
}

/** The typed number's key; the masked number the reader was shown, sent back as it was, keeps the number. */
function numberOf(typed: string, current: RawItem | null): string {
  if (typed.includes('*')) {
    if (current && typed.replace(/[\s().+-]/g, '') === maskNumber(current.number, 'disabled'))
      return current.number
    throw fieldError('number', 'A number with asterisks is a masked number: type the whole number')
  }
  const digits = normalizeNumber(typed)
  if (!digits || digits.length < 8) throw fieldError('number', 'A phone number has at least 8 digits')
  return numberKey(digits)
}

function assertNumberFree(sqlite: Database, listId: number, number: string, exceptId?: number) {
  const other = sqlite
    .query<{ id: number }, [number, string]>(
      'SELECT id FROM contact_list_items WHERE contact_list_id = ? AND number = ?',
    )
    .get(listId, number)
  if (other && other.id !== exceptId)
    throw fieldError('number', 'This list already has this number', 'ERR_DUPLICATED_CONTACT_LIST_ITEM')
}

export function createContactListItem(ctx: Ctx, input: ContactListItemInput): ContactListItemDto {
  const { companyId } = ctx.actor
  if (input.contactListId == null) throw fieldError('contactListId', 'Required')
  const listId = input.contactListId
  const number = numberOf(input.number, null)
  const item = transact(ctx, (sqlite, events) => {
    // A list of another company is a field error here: the path names no list.
    const list = sqlite
      .query<{ id: number }, [number, number]>('SELECT id FROM contact_lists WHERE id = ? AND company_id = ?')
      .get(listId, companyId)
    if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND', 'Contact list not found')
    assertNumberFree(sqlite, listId, number)
    const now = ctx.clock.now()
    const { id } = sqlite
      .query<{ id: number }, [number, number, string, string, string, number, number]>(
        `INSERT INTO contact_list_items (company_id, contact_list_id, name, number, email, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(companyId, listId, input.name, number, input.email ?? '', now, now)!
    const row = itemInCompany(sqlite, companyId, id)
    publishItem(events, row, 'create')
    publishList(events, contactListInCompany(sqlite, companyId, listId), 'update')
    return row
  })
  validityChecker(ctx).kick(companyId)
  return toItemDto(item, numberVisibility(ctx))
}

/** A PUT edits name, number and email; the list stays (an item does not move between lists). */
export function updateContactListItem(ctx: Ctx, id: number, input: ContactListItemInput): ContactListItemDto {
  const { companyId } = ctx.actor
  const item = transact(ctx, (sqlite, events) => {
    const current = itemInCompany(sqlite, companyId, id)
    const number = numberOf(input.number, current)
    assertNumberFree(sqlite, current.contactListId, number, id)
    const valid = number === current.number ? current.isWhatsappValid : null
    sqlite
      .query(
        'UPDATE contact_list_items SET name = ?, number = ?, email = ?, is_whatsapp_valid = ?, updated_at = ? WHERE id = ?',
      )
      .run(input.name, number, input.email ?? current.email, valid, ctx.clock.now(), id)
    const row = itemInCompany(sqlite, companyId, id)
    publishItem(events, row, 'update')
    return row
  })
  if (item.isWhatsappValid == null) validityChecker(ctx).kick(companyId)
  return toItemDto(item, numberVisibility(ctx))
}

export function deleteContactListItem(ctx: Ctx, id: number) {
  const { companyId } = ctx.actor
  transact(ctx, (sqlite, events) => {
    const item = itemInCompany(sqlite, companyId, id)
    sqlite.query('DELETE FROM contact_list_items WHERE id = ?').run(id)
    events.publish(rooms.admins(companyId), channel(companyId, 'ContactListItem'), {
      action: 'delete',
      id,
      contactListId: item.contactListId,
    })
    publishList(events, contactListInCompany(sqlite, companyId, item.contactListId), 'update')
  })
}
