import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { Profile } from '../../../shared/permissions'
import { timestamps } from './columns'
import { companies } from './companies'
import { queues } from './queues'

type Flag = 'enabled' | 'disabled'

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    profile: text('profile').$type<Profile>().notNull().default('user'),
    super: integer('super', { mode: 'boolean' }).notNull().default(false),
    online: integer('online', { mode: 'boolean' }).notNull().default(false),
    lastSeenAt: integer('last_seen_at'),
    /** Default connection; the connections table arrives with its area. */
    whatsappId: integer('whatsapp_id'),
    startWork: text('start_work').notNull().default('00:00'),
    endWork: text('end_work').notNull().default('23:59'),
    farewellMessage: text('farewell_message'),
    allTicket: text('all_ticket').$type<'enable' | 'disable'>().notNull().default('disable'),
    allowGroup: integer('allow_group', { mode: 'boolean' }).notNull().default(false),
    defaultMenu: text('default_menu').$type<'open' | 'closed'>().notNull().default('open'),
    defaultTheme: text('default_theme').$type<'light' | 'dark'>().notNull().default('light'),
    allHistoric: text('all_historic').$type<Flag>().notNull().default('disabled'),
    allUserChat: text('all_user_chat').$type<Flag>().notNull().default('disabled'),
    userClosePendingTicket: text('user_close_pending_ticket').$type<Flag>().notNull().default('enabled'),
    showDashboard: text('show_dashboard').$type<Flag>().notNull().default('disabled'),
    isTricked: text('is_tricked').$type<Flag>().notNull().default('enabled'),
    /** Disabled by the operator (`balcao user disable`): cannot sign in; their sessions were ended. */
    disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_company').on(t.companyId, t.name)],
)

export const userQueues = sqliteTable(
  'user_queues',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index('user_queues_queue').on(t.queueId)],
)

/** One row per signed-in browser: the refresh token (hashed) and its lifetime. */
export const userSessions = sqliteTable(
  'user_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    /** The token this one replaced, and when: a replay of it ends the session, but for a short grace. */
    previousTokenHash: text('previous_token_hash'),
    rotatedAt: integer('rotated_at'),
    userAgent: text('user_agent'),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [
    uniqueIndex('user_sessions_token').on(t.refreshTokenHash),
    index('user_sessions_previous_token').on(t.previousTokenHash),
    index('user_sessions_user').on(t.userId),
  ],
)

export type UserRow = typeof users.$inferSelect
/** The boolean columns of users: SQL reads them 0/1 (`RawUserRow`), the row type has them as booleans. */
export type UserFlag = 'super' | 'online' | 'allowGroup' | 'disabled'
/** A users row as SQL reads it (`USER_COLUMNS`, modules/users/dto.ts); `userRow` there turns it into a `UserRow`. */
export type RawUserRow = Omit<UserRow, UserFlag> & Record<UserFlag, number>
export type UserSessionRow = typeof userSessions.$inferSelect
