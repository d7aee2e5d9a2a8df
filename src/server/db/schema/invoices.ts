import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { InvoiceStatus } from '../../../shared/invoices'
import type { Recurrence } from '../../../shared/plans'
import { timestamps } from './columns'
import { companies } from './companies'

/**
 * A company's invoice for one period (spec 3: Invoice): created by the invoice job (modules/invoices/job.ts)
 * from 10 days before the company's due date, one per (company, due date) and never two. The plan is kept as it
 * was when the invoice was made (`plan_*`, `recurrence`), so a later change of plan or price does not move an
 * invoice already issued. `value_cents` is the plan's monthly value times the recurrence's months. `txid` is the
 * Pix transaction id of the checkout's BR Code (letters and digits, at most 25). Paid by the payment webhook or
 * by the super user (`paid_via`), which moves the company's due date forward once. An open invoice whose due date
 * is no longer the company's (the due date was edited or extended) becomes `void`: it can no longer be paid, so a
 * company has at most one open invoice (`invoices_one_open`) and a payment never extends it twice.
 */
export const invoices = sqliteTable(
  'invoices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    detail: text('detail').notNull(),
    valueCents: integer('value_cents').notNull(),
    /** YYYY-MM-DD: the company's due date this invoice pays for. */
    dueDate: text('due_date').notNull(),
    status: text('status').$type<InvoiceStatus>().notNull().default('open'),
    paidAt: integer('paid_at'),
    paidVia: text('paid_via').$type<'webhook' | 'super'>(),
    txid: text('txid').notNull(),
    planId: integer('plan_id'),
    planName: text('plan_name').notNull(),
    planValueCents: integer('plan_value_cents').notNull(),
    recurrence: text('recurrence').$type<Recurrence>().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invoices_company_due_date').on(t.companyId, t.dueDate),
    uniqueIndex('invoices_txid').on(t.txid),
    index('invoices_company_id').on(t.companyId, t.id),
    uniqueIndex('invoices_one_open').on(t.companyId).where(sql`status = 'open'`),
  ],
)

export type InvoiceRow = typeof invoices.$inferSelect
