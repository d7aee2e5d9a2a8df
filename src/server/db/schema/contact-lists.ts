import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { users } from './users'

/** A named list of people a campaign sends to (spec 2: Contact list). */
export const contactLists = sqliteTable(
  'contact_lists',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [index('contact_lists_company_name').on(t.companyId, t.name)],
)

/**
 * One person of a list. `number` is the number key (digits; both forms of a Brazilian mobile give the long one),
 * unique per list, so an import can never add a number twice. `is_whatsapp_valid` is null until the background
 * check asked WhatsApp (the grey icon), then 1 or 0.
 */
export const contactListItems = sqliteTable(
  'contact_list_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactListId: integer('contact_list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    number: text('number').notNull(),
    email: text('email').notNull().default(''),
    isWhatsappValid: integer('is_whatsapp_valid', { mode: 'boolean' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contact_list_items_list_number').on(t.contactListId, t.number),
    index('contact_list_items_list_name').on(t.contactListId, t.name),
    index('contact_list_items_unchecked').on(t.companyId, t.isWhatsappValid),
  ],
)

/**
 * A spreadsheet import (into a contact list, or into the company's contacts), durable: the parsed rows wait in
 * `rows` (JSON) and `processed` says how many were applied, each chunk committed with its progress, so a restart
 * continues where it stopped and no row is applied twice. `rejected` is the report (JSON: row, field, reason).
 */
export const spreadsheetImports = sqliteTable(
  'spreadsheet_imports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** 'contactList' or 'contacts'. */
    target: text('target').notNull(),
    contactListId: integer('contact_list_id').references(() => contactLists.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull().default(''),
    /** 'pending' | 'running' | 'done' | 'failed'. */
    state: text('state').notNull(),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    rejectedCount: integer('rejected_count').notNull().default(0),
    rejected: text('rejected').notNull().default('[]'),
    rows: text('rows'),
    error: text('error'),
    ...timestamps,
  },
  (t) => [
    index('spreadsheet_imports_state').on(t.state),
    index('spreadsheet_imports_company').on(t.companyId),
  ],
)

export type ContactListRow = typeof contactLists.$inferSelect
export type ContactListItemRow = typeof contactListItems.$inferSelect
export type SpreadsheetImportRow = typeof spreadsheetImports.$inferSelect
