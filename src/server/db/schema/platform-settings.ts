import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * The platform's settings (`src/shared/platform-settings.ts`), one row per key set in Settings; a secret's
 * value is sealed (`crypto/sealed.ts`). Belongs to no company: only the super user reads or writes it.
 */
export const platformSettings = sqliteTable('platform_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
})
