import { integer, primaryKey, sqliteTable } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'

/** What both tables sum (a function: each table needs its own column builders). */
function ticketSums() {
  return {
    created: integer('created').notNull().default(0),
    waits: integer('waits').notNull().default(0),
    waitMs: integer('wait_ms').notNull().default(0),
    closes: integer('closes').notNull().default(0),
    services: integer('services').notNull().default(0),
    serviceMs: integer('service_ms').notNull().default(0),
  }
}

/**
 * The dashboard's figures, summed per company, quarter of an hour (`bucket` = epoch ms / 900,000) and user, kept
 * by a trigger on `ticket_events` (migration `dashboard`) so they are exact by construction and a 90-day range
 * reads a few thousand rows instead of every event. A quarter of an hour because every time zone's offset is a
 * multiple of 15 minutes: a local day (or hour) is always a whole number of buckets. Group and imported tickets
 * are not counted. What each column adds up (modules/dashboard/service.ts reads them):
 * - created: tickets created (the user: who created it, 0 for none);
 * - waits, wait_ms: a ticket leaving the queue for an attendant (pending → open), and the time since it entered
 *   the queue (its creation as pending, a return or a transfer to a queue); the user: the attendant who took it;
 * - closes: tickets closed; services, service_ms: those closed while open, and the time since they were taken
 *   (the last change that made them open); the user: the attendant who had the ticket (or closed a pending one).
 */
export const dashboardStats = sqliteTable(
  'dashboard_stats',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    bucket: integer('bucket').notNull(),
    /** 0: no user (the system, an API token). */
    userId: integer('user_id').notNull(),
    ...ticketSums(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.bucket, t.userId] })],
)

/**
 * The same sums per whole UTC day (`day` = epoch ms / 86,400,000), kept by the same trigger: a range reads its
 * whole UTC days here and only its two partial days (a local midnight is rarely a UTC one) from `dashboard_stats`,
 * so 90 days cost about 90 rows per user instead of 8,640.
 */
export const dashboardDays = sqliteTable(
  'dashboard_days',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: integer('day').notNull(),
    userId: integer('user_id').notNull(),
    ...ticketSums(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.userId] })],
)

/**
 * Messages counted per company, quarter of an hour (created_at / 900,000) and direction, kept exact by triggers
 * on `messages` (insert, delete, and an update of the counted columns): `GET /messages-allMe` sums a range of it.
 */
export const messageCounts = sqliteTable(
  'message_counts',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    bucket: integer('bucket').notNull(),
    fromMe: integer('from_me').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.bucket, t.fromMe] })],
)
