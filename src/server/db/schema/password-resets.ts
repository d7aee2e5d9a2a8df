import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/**
 * The password-recovery code of a user (`POST /api/forgetpassword/{email}`): one per user, a new request
 * replaces it. Six digits kept only as an HMAC, single-use, expiring; `attempts` counts wrong guesses, and a
 * code guessed wrong too often is spent.
 */
export const passwordResets = sqliteTable('password_resets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
  attempts: integer('attempts').notNull().default(0),
})

export type PasswordResetRow = typeof passwordResets.$inferSelect
