import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { whatsapps } from './whatsapps'

/**
 * A campaign (spec 2): bulk messages to an audience (a contact list, or the contacts of a tag) through one
 * connection. `status` is INATIVA, PROGRAMADA, EM_ANDAMENTO, CANCELADA or FINALIZADA. The work itself is the
 * campaign's shipping rows (`campaign_shippings`), made once when it starts; the campaigns runner
 * (modules/campaigns/runner.ts, its senders in sender.ts) sends them, paced per connection. `paused_reason` ('restricted') stops a
 * running campaign until an admin resumes it; `waiting_reason` says why it waits right now (clears by itself).
 * `contact_list_id`, `tag_list_id` and `file_list_id` name rows of other areas and are checked on save.
 */
export const campaigns = sqliteTable(
  'campaigns',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    message1: text('message1').notNull().default(''),
    message2: text('message2').notNull().default(''),
    message3: text('message3').notNull().default(''),
    message4: text('message4').notNull().default(''),
    message5: text('message5').notNull().default(''),
    confirmationMessage1: text('confirmation_message1').notNull().default(''),
    confirmationMessage2: text('confirmation_message2').notNull().default(''),
    confirmationMessage3: text('confirmation_message3').notNull().default(''),
    confirmationMessage4: text('confirmation_message4').notNull().default(''),
    confirmationMessage5: text('confirmation_message5').notNull().default(''),
    status: text('status').notNull().default('INATIVA'),
    confirmation: integer('confirmation', { mode: 'boolean' }).notNull().default(false),
    scheduledAt: integer('scheduled_at'),
    completedAt: integer('completed_at'),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    contactListId: integer('contact_list_id'),
    tagListId: integer('tag_list_id'),
    fileListId: integer('file_list_id'),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    /** When its shipping rows were made (once, at the first start). */
    preparedAt: integer('prepared_at'),
    /** 'restricted' while paused by WhatsApp's refusal; only an admin's resume clears it. */
    pausedReason: text('paused_reason'),
    pausedDetail: text('paused_detail'),
    /** 'disconnected' | 'daily_cap' | 'window' while it waits; null otherwise. */
    waitingReason: text('waiting_reason'),
    ...timestamps,
  },
  (t) => [
    index('campaigns_company_name').on(t.companyId, t.name),
    index('campaigns_status_scheduled').on(t.status, t.scheduledAt),
  ],
)

/**
 * One contact of a campaign: made once when the campaign starts (unique per campaign and number), with the
 * message variant chosen for it (already with its variables), so a restart never changes what it gets.
 * `state`: pending -> (checking) -> invalid, or -> [confirmation_sending -> confirmation_requested -> confirmed]
 * -> sending -> delivered; failed (with `error`) or expired (no answer to the confirmation in time).
 * A row is claimed (-> *_sending) in a transaction before it is handed to WhatsApp: a row found still sending at
 * boot was interrupted and is marked failed, never resent blindly.
 */
export const campaignShippings = sqliteTable(
  'campaign_shippings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull(),
    contactListItemId: integer('contact_list_item_id'),
    contactId: integer('contact_id'),
    /** Digits only. */
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    email: text('email').notNull().default(''),
    /** The JID WhatsApp answered for the number when it was checked (null: not checked yet). */
    jid: text('jid'),
    state: text('state').notNull().default('pending'),
    message: text('message').notNull().default(''),
    confirmationMessage: text('confirmation_message').notNull().default(''),
    /** 1-5: which variant was chosen. */
    variant: integer('variant').notNull().default(1),
    error: text('error'),
    checkedAt: integer('checked_at'),
    claimedAt: integer('claimed_at'),
    confirmationRequestedAt: integer('confirmation_requested_at'),
    confirmedAt: integer('confirmed_at'),
    deliveredAt: integer('delivered_at'),
    /** WhatsApp's id of the last message sent for this row. */
    wid: text('wid'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_shippings_campaign_number').on(t.campaignId, t.number),
    index('campaign_shippings_campaign_state').on(t.campaignId, t.state, t.id),
    index('campaign_shippings_number_state').on(t.number, t.state),
  ],
)

/**
 * Messages a connection sent per day (`day` YYYY-MM-DD in the company's time zone), whichever sender wrote them
 * (the connection's door counts them, modules/outbound/): the campaigns' daily cap and its warm-up (the first
 * day the connection sent is its day 1), and the longer pause after every N.
 */
export const connectionSendCounters = sqliteTable(
  'connection_send_counters',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.day] })],
)

export type CampaignRow = typeof campaigns.$inferSelect
export type CampaignShippingRow = typeof campaignShippings.$inferSelect
