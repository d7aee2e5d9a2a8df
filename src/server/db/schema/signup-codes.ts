import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'

/**
 * Validation codes of the public sign-up (`POST /api/signup/code`, `POST /api/signup/codes`, `balcao signup-code
 * create`): six digits, kept only as an HMAC (`modules/signup/codes.ts`), single-use, with an expiry. A code
 * bound to a phone (`phone`, digits with the country code) signs up only that phone. Belongs to no company
 * until it is used; `companyId` then names the company it created.
 */
export const signupCodes = sqliteTable(
  'signup_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    codeHash: text('code_hash').notNull(),
    phone: text('phone'),
    /** Who asked for it: the visitor (sent by WhatsApp), the super user, or the terminal. */
    source: text('source').$type<'whatsapp' | 'super' | 'terminal'>().notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
  },
  (t) => [index('signup_codes_hash').on(t.codeHash), index('signup_codes_expires').on(t.expiresAt)],
)

export type SignupCodeRow = typeof signupCodes.$inferSelect
