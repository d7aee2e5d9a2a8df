import { sql } from 'drizzle-orm'
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { CONNECTION_STATUS_REASONS, CONNECTION_STATUSES } from '../../../shared/connection-status'
import { timestamps } from './columns'
import { companies } from './companies'
import { queues } from './queues'

/** A WhatsApp connection (the spec's "whatsapp"): one number of a company and its behaviour. */
export const whatsapps = sqliteTable(
  'whatsapps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 'beta' is the real WhatsApp session (Baileys); 'sandbox' the simulated network. */
    provider: text('provider').$type<'beta' | 'sandbox'>().notNull().default('beta'),
    channel: text('channel').notNull().default('whatsapp'),
    status: text('status', { enum: CONNECTION_STATUSES }).notNull().default('DISCONNECTED'),
    /** Why the session is not connected, as its provider reported it; null when nothing went wrong. */
    statusReason: text('status_reason', { enum: CONNECTION_STATUS_REASONS }),
    qrcode: text('qrcode').notNull().default(''),
    pairingCode: text('pairing_code'),
    /** When the QR code shown expires (epoch ms). */
    expirationTime: integer('expiration_time'),
    retries: integer('retries').notNull().default(0),
    /** The phone number once connected. */
    number: text('number'),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    greetingMessage: text('greeting_message').notNull().default(''),
    complationMessage: text('complation_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ratingMessage: text('rating_message').notNull().default(''),
    /** Bearer token of the external send API for this connection. */
    token: text('token').notNull(),
    /** Minutes after which a waiting ticket moves to sendIdQueue (0 = never). */
    timeSendQueue: integer('time_send_queue').notNull().default(0),
    sendIdQueue: integer('send_id_queue').references(() => queues.id, { onDelete: 'set null' }),
    expiresInactiveMessage: text('expires_inactive_message').notNull().default(''),
    /** Minutes of inactivity after which an open ticket closes (0 = never). */
    expiresTicket: integer('expires_ticket').notNull().default(0),
    timeUseBotQueues: integer('time_use_bot_queues').notNull().default(0),
    maxUseBotQueues: integer('max_use_bot_queues').notNull().default(3),
    promptId: integer('prompt_id'),
    /** A queue integration (queue_integrations) that answers this connection's tickets without a queue. */
    integrationId: integer('integration_id'),
    allowGroup: integer('allow_group', { mode: 'boolean' }).notNull().default(false),
    /** Minutes to wait for an NPS answer before closing without it (0 = no NPS). */
    expiresTicketNPS: integer('expires_ticket_nps').notNull().default(0),
    maxUseBotQueuesNPS: integer('max_use_bot_queues_nps').notNull().default(3),
    collectiveVacationStart: text('collective_vacation_start'),
    collectiveVacationEnd: text('collective_vacation_end'),
    collectiveVacationMessage: text('collective_vacation_message').notNull().default(''),
    /**
     * LGPD: when on, a contact's first conversation starts with the consent message (`lgpdMessage` and the
     * privacy-policy link `lgpdLink`); with `lgpdConsent` the chatbot waits for the answer (chatbot/machine.ts).
     */
    enableLGPD: integer('enable_lgpd', { mode: 'boolean' }).notNull().default(false),
    lgpdMessage: text('lgpd_message').notNull().default(''),
    lgpdLink: text('lgpd_link').notNull().default(''),
    lgpdConsent: integer('lgpd_consent', { mode: 'boolean' }).notNull().default(false),
    /** Service hours of the connection (src/shared/schedules.ts), used when the setting scheduleType is 'connection'. */
    schedules: text('schedules').notNull().default('[]'),
    importOldMessages: text('import_old_messages'),
    importRecentMessages: text('import_recent_messages'),
    importOldMessagesGroups: integer('import_old_messages_groups', { mode: 'boolean' })
      .notNull()
      .default(false),
    closedTicketsPostImported: integer('closed_tickets_post_imported', { mode: 'boolean' })
      .notNull()
      .default(false),
    ...timestamps,
  },
  (t) => [
    index('whatsapps_company').on(t.companyId, t.name),
    uniqueIndex('whatsapps_token').on(t.token),
    uniqueIndex('whatsapps_one_default').on(t.companyId).where(sql`${t.isDefault} = 1`),
  ],
)

export const whatsappQueues = sqliteTable(
  'whatsapp_queues',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index('whatsapp_queues_queue').on(t.queueId)],
)

/**
 * What an admin (connections page) and an operator (`balcao doctor`) read of a connection's health, kept as it
 * happens so that nothing scans messages to answer: one row per connection, made on its first fact. Times are
 * epoch ms of this server's clock.
 */
export const whatsappHealth = sqliteTable('whatsapp_health', {
  whatsappId: integer('whatsapp_id')
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: 'cascade' }),
  /** The Baileys package and the WhatsApp Web version the session last connected with (null: sandbox, never). */
  baileysVersion: text('baileys_version'),
  waWebVersion: text('wa_web_version'),
  /** When the server last stored a message the session received (not history). */
  lastReceivedAt: integer('last_received_at'),
  /** When WhatsApp last acknowledged (ack >= 1) a message the connection sent. */
  lastAckedAt: integer('last_acked_at'),
  /** The reason the session last reported for not being connected, its close code and when. */
  lastDisconnectReason: text('last_disconnect_reason', { enum: CONNECTION_STATUS_REASONS }),
  lastDisconnectCode: integer('last_disconnect_code'),
  lastDisconnectAt: integer('last_disconnect_at'),
})

/** Baileys credentials of a connection (BufferJSON text), wiped on logout. */
export const waAuthCreds = sqliteTable('wa_auth_creds', {
  whatsappId: integer('whatsapp_id')
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: 'cascade' }),
  creds: text('creds').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** Baileys Signal keys of a connection, one row per (type, id), wiped on logout. */
export const waAuthKeys = sqliteTable(
  'wa_auth_keys',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    keyId: text('key_id').notNull(),
    value: text('value').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.type, t.keyId] })],
)

/**
 * What the connection's WhatsApp session sent (the encoded `proto.WebMessageInfo`, Baileys's `WAMessage`), by
 * WhatsApp message id: Baileys's `getMessage` reads it to answer a recipient's retry receipt, also after a
 * restart. Written when the session's send returns, for every outbound path (attendant, bot, schedule, campaign,
 * send API, reactions, edits, revokes); old rows are pruned.
 */
export const waSentMessages = sqliteTable(
  'wa_sent_messages',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    msgId: text('msg_id').notNull(),
    message: blob('message', { mode: 'buffer' }).notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.msgId] }),
    index('wa_sent_messages_created').on(t.createdAt),
  ],
)

export type WhatsappRow = typeof whatsapps.$inferSelect
export type WhatsappHealthRow = typeof whatsappHealth.$inferSelect
