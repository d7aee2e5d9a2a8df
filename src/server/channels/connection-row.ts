import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { WhatsappRow } from '../db/schema'
import { stmt } from '../db/statements'

/**
 * The connection row (table `whatsapps`) read and written one way: the channel manager keeps it in step with the
 * session, the connections area and the operator answer from it. Each field's column, in the table's order, which
 * is the order of the keys in the answers built from the row.
 */
const COLUMN_OF = {
  id: 'id',
  companyId: 'company_id',
  name: 'name',
  provider: 'provider',
  channel: 'channel',
  status: 'status',
  statusReason: 'status_reason',
  qrcode: 'qrcode',
  pairingCode: 'pairing_code',
  expirationTime: 'expiration_time',
  retries: 'retries',
  number: 'number',
  isDefault: 'is_default',
  greetingMessage: 'greeting_message',
  complationMessage: 'complation_message',
  outOfHoursMessage: 'out_of_hours_message',
  ratingMessage: 'rating_message',
  token: 'token',
  timeSendQueue: 'time_send_queue',
  sendIdQueue: 'send_id_queue',
  expiresInactiveMessage: 'expires_inactive_message',
  expiresTicket: 'expires_ticket',
  timeUseBotQueues: 'time_use_bot_queues',
  maxUseBotQueues: 'max_use_bot_queues',
  promptId: 'prompt_id',
  integrationId: 'integration_id',
  allowGroup: 'allow_group',
  expiresTicketNPS: 'expires_ticket_nps',
  maxUseBotQueuesNPS: 'max_use_bot_queues_nps',
  collectiveVacationStart: 'collective_vacation_start',
  collectiveVacationEnd: 'collective_vacation_end',
  collectiveVacationMessage: 'collective_vacation_message',
  enableLGPD: 'enable_lgpd',
  lgpdMessage: 'lgpd_message',
  lgpdLink: 'lgpd_link',
  lgpdConsent: 'lgpd_consent',
  schedules: 'schedules',
  importOldMessages: 'import_old_messages',
  importRecentMessages: 'import_recent_messages',
  importOldMessagesGroups: 'import_old_messages_groups',
  closedTicketsPostImported: 'closed_tickets_post_imported',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Record<keyof WhatsappRow, string>

type Field = keyof typeof COLUMN_OF
type Flag = { [K in Field]: WhatsappRow[K] extends boolean ? K : never }[Field]

/** The switches: stored 0/1, read as booleans (every boolean field of the row, or this does not compile). */
const FLAGS = Object.keys({
  isDefault: true,
  allowGroup: true,
  enableLGPD: true,
  lgpdConsent: true,
  importOldMessagesGroups: true,
  closedTicketsPostImported: true,
} satisfies Record<Flag, true>) as Flag[]

export type RawConnectionRow = Omit<WhatsappRow, Flag> & Record<Flag, number>

/** The SELECT list giving a connection row's fields under their row names, optionally of the table's alias. */
export function connectionColumns(alias?: string) {
  const prefix = alias ? `${alias}.` : ''
  return Object.entries(COLUMN_OF)
    .map(([field, column]) => (field === column && !alias ? column : `${prefix}${column} AS ${field}`))
    .join(', ')
}

export const CONNECTION_COLUMNS = connectionColumns()

export function toConnectionRow(raw: RawConnectionRow): WhatsappRow {
  const row = { ...raw } as unknown as WhatsappRow
  for (const flag of FLAGS) row[flag] = !!raw[flag]
  return row
}

export function connectionRowById(sqlite: Database, connectionId: number): WhatsappRow | undefined {
  const raw = stmt<RawConnectionRow, [number]>(
    sqlite,
    `SELECT ${CONNECTION_COLUMNS} FROM whatsapps WHERE id = ?`,
  ).get(connectionId)
  return raw ? toConnectionRow(raw) : undefined
}

/** The given fields as columns and bound values: unknown and undefined fields left out, switches as 0/1. */
function assignments(fields: Partial<WhatsappRow>) {
  return Object.entries(fields).flatMap(([field, value]) =>
    value === undefined || !Object.hasOwn(COLUMN_OF, field)
      ? []
      : [{ column: COLUMN_OF[field as Field], value: typeof value === 'boolean' ? Number(value) : value }],
  )
}

/** Inserts a connection; the columns not given take the table's defaults. */
export function insertConnectionRow(sqlite: Database, fields: Partial<WhatsappRow>): WhatsappRow {
  const set = assignments(fields)
  const raw = stmt<RawConnectionRow, SQLQueryBindings[]>(
    sqlite,
    `INSERT INTO whatsapps (${set.map((a) => a.column).join(', ')}) VALUES (${set.map(() => '?').join(', ')})
     RETURNING ${CONNECTION_COLUMNS}`,
  ).get(...set.map((a) => a.value))
  return toConnectionRow(raw!)
}

/** Writes the given fields on the connection; undefined when there is no such connection. */
export function updateConnectionRow(
  sqlite: Database,
  connectionId: number,
  fields: Partial<WhatsappRow>,
): WhatsappRow | undefined {
  const set = assignments(fields)
  const raw = stmt<RawConnectionRow, SQLQueryBindings[]>(
    sqlite,
    `UPDATE whatsapps SET ${set.map((a) => `${a.column} = ?`).join(', ')} WHERE id = ? RETURNING ${CONNECTION_COLUMNS}`,
  ).get(...set.map((a) => a.value), connectionId)
  return raw ? toConnectionRow(raw) : undefined
}
