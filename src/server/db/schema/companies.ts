import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { Recurrence } from '../../../shared/plans'
import { timestamps } from './columns'
import { plans } from './plans'

export const companies = sqliteTable(
  'companies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    status: integer('status', { mode: 'boolean' }).notNull().default(true),
    /** YYYY-MM-DD; null never expires (the platform company). */
    dueDate: text('due_date'),
    /** Service hours, JSON `[{ weekday, weekdayEn, startTime, endTime }]` (HH:MM), used when scheduleType is 'company'. */
    schedules: text('schedules').notNull().default('[]'),
    /** YYYY-MM-DD: the end of the free trial of a company that signed up (null: no trial). */
    trialExpiration: text('trial_expiration'),
    recurrence: text('recurrence').$type<Recurrence>().notNull().default('MENSAL'),
    document: text('document'),
    lastLogin: integer('last_login'),
    ...timestamps,
  },
  (t) => [uniqueIndex('companies_name_unique').on(t.name)],
)

export const settings = sqliteTable(
  'settings',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('settings_company_key').on(t.companyId, t.key)],
)

export type CompanyRow = typeof companies.$inferSelect
/** A companies row as SQL reads it (`COMPANY_COLUMNS`, modules/companies/service.ts): `status` comes back 0/1. */
export type RawCompanyRow = Omit<CompanyRow, 'status'> & { status: number }
