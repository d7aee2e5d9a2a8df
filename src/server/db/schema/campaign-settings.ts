import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'

/**
 * A company's campaign settings (spec 2, "Campaign settings"), one row per key: `messageInterval`,
 * `longerIntervalAfter`, `greaterInterval` (numbers) and `variables` (a list of `{ key, value }`). `value` is the
 * setting as JSON text. A key without a row has its default (`CAMPAIGN_SETTING_DEFAULTS`); the campaigns engine
 * reads these rows by key.
 */
export const campaignSettings = sqliteTable(
  'campaign_settings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('campaign_settings_company_key').on(t.companyId, t.key)],
)

export type CampaignSettingRow = typeof campaignSettings.$inferSelect
