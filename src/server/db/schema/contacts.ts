import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { tags } from './tags'
import { whatsapps } from './whatsapps'

/**
 * A person (or a group) the company talks to. WhatsApp addresses a person by phone number and, more and more,
 * by LID; one contact keeps both so a message from either finds it.
 */
export const contacts = sqliteTable(
  'contacts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    uuid: text('uuid').notNull(),
    name: text('name').notNull(),
    /** Digits only, as WhatsApp knows the number (a group's id for a group); null for a LID-only contact. */
    number: text('number'),
    /**
     * The number's identity: Brazilian mobiles with and without the ninth digit are one person, so both
     * forms share this key. Unique per company.
     */
    numberKey: text('number_key'),
    /** The WhatsApp LID (digits before `@lid`), once known. */
    lid: text('lid'),
    email: text('email').notNull().default(''),
    profilePicUrl: text('profile_pic_url').notNull().default(''),
    /** When the picture was last asked of the channel (epoch ms), so it is not asked on every message. */
    profilePicCheckedAt: integer('profile_pic_checked_at'),
    isGroup: integer('is_group', { mode: 'boolean' }).notNull().default(false),
    disableBot: integer('disable_bot', { mode: 'boolean' }).notNull().default(false),
    /** The contact's LGPD answer to a connection's consent message (chatbot/machine.ts), null until answered. */
    lgpdConsent: text('lgpd_consent', { enum: ['accepted', 'refused'] }),
    /** When the LGPD answer was given (epoch ms). */
    lgpdConsentAt: integer('lgpd_consent_at'),
    /** The connection the contact last wrote through. */
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contacts_company_number_key')
      .on(t.companyId, t.numberKey)
      .where(sql`number_key IS NOT NULL`),
    uniqueIndex('contacts_company_lid').on(t.companyId, t.lid).where(sql`lid IS NOT NULL`),
    uniqueIndex('contacts_uuid').on(t.uuid),
    index('contacts_company_name').on(t.companyId, t.name),
  ],
)

export const contactExtraInfo = sqliteTable(
  'contact_extra_info',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull().default(''),
  },
  (t) => [index('contact_extra_info_contact').on(t.contactId)],
)

export const contactTags = sqliteTable(
  'contact_tags',
  {
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index('contact_tags_tag').on(t.tagId)],
)

export type ContactRow = typeof contacts.$inferSelect

/**
 * Contacts per company, kept exact by triggers (migration contacts_search), so the contacts page's unfiltered
 * count never counts the contacts table; `version` tells a cached search count when it went stale.
 */
export const contactCounts = sqliteTable('contact_counts', {
  companyId: integer('company_id').primaryKey(),
  count: integer('count').notNull().default(0),
  /** Changes with every insert, delete, rename or number change of the company's contacts (search counts cache). */
  version: integer('version').notNull().default(0),
})
