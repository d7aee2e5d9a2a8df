/**
 * Invoices (spec 3): one per company and period, issued ahead of the company's due date, paid by the payment
 * webhook or marked paid by the super user.
 *
 * Issuing (`ensureCompanyInvoice`, called by the invoice job's sweep, by company creation and by any change of a
 * company's due date): a company gets the invoice of its current due date from INVOICE_LEAD_DAYS (10) days before
 * it (and also once it has passed, so an overdue company can still pay), when
 *   - it is active (status true) and has a due date (the platform company has none, and is skipped anyway: it is
 *     the company whose users are super users);
 *   - its plan costs something: a plan of value 0 is free and gets no invoices.
 * The unique index (company_id, due_date) makes a second invoice for the same period impossible, whoever races.
 * Value: the plan's monthly value times the recurrence's months; detail 'Plano X — mensal'; the plan is kept on
 * the invoice as it was then.
 *
 * One open invoice at most: the same call first voids every open invoice of another due date than the company's
 * (edited, extended by '+ Vencimento', or emptied since), in the caller's transaction, so a company never has
 * two open invoices (the partial unique index `invoices_one_open` holds it) and a stale one can never be paid.
 * Moving the due date back to a period whose invoice was voided opens that invoice again, at today's plan.
 *
 * Paying (`markInvoicePaid`), in one transaction: only the open invoice of the company's current due date can be
 * paid; a void one (or any other) is refused with 409 ERR_INVOICE_VOID and logged, extending nothing, so money
 * received for it is found in the log and refunded or settled by hand. The invoice becomes paid; the company's
 * due date moves forward
 * by the invoice's recurrence FROM THE CURRENT DUE DATE (paying early loses no day, paying late does not shift
 * the billing day), except when that is still before today (a company months behind): then from today; the
 * company's status is left as it is; the next period's invoice is issued at once if it already falls within
 * the window. After commit: `company-{id}-payment` { action: 'CONCLUIDA', company: { id, dueDate } } to the
 * company and `company-{id}-invoice` to its admins. An invoice already paid changes nothing (a payment seen
 * twice extends once).
 */

import { AppError } from '../../../shared/errors'
import { INVOICE_LEAD_DAYS, type InvoiceDto, type InvoicesPage } from '../../../shared/invoices'
import { addRecurrence, RECURRENCE_MONTHS, type Recurrence } from '../../../shared/plans'
import { isoDate, isoTime } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { transact, userActor } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import { pageCount, pageOf, pageWindow } from '../../db/paging'
import type { InvoiceRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

export const INVOICES_PAGE_SIZE = 20
const DAY_MS = 86_400_000
const DATE = /^\d{4}-\d{2}-\d{2}$/

const RECURRENCE_WORD: Record<Recurrence, string> = {
  MENSAL: 'mensal',
  BIMESTRAL: 'bimestral',
  TRIMESTRAL: 'trimestral',
  SEMESTRAL: 'semestral',
  ANUAL: 'anual',
}

/** 'Plano Ouro — mensal' ('Plano' is not repeated when the plan's name starts with it). */
export function invoiceDetail(planName: string, recurrence: Recurrence): string {
  const name = /^plano\b/i.test(planName.trim()) ? planName.trim() : `Plano ${planName.trim()}`
  return `${name} — ${RECURRENCE_WORD[recurrence]}`
}

/** The Pix txid of an invoice: letters and digits, unique per company and due date (at most 25 characters). */
export function invoiceTxid(companyId: number, dueDate: string): string {
  return `BLC${companyId}D${dueDate.replaceAll('-', '')}`
}

/** The last due date that already has its invoice today: today plus the lead days. */
export function invoiceWindowEnd(now: number): string {
  return isoDate(now + INVOICE_LEAD_DAYS * DAY_MS)
}

const cents = (value: number) => Math.round(value) / 100

export function toInvoiceDto(row: InvoiceRow, company?: { id: number; name: string }): InvoiceDto {
  return {
    id: row.id,
    companyId: row.companyId,
    detail: row.detail,
    value: cents(row.valueCents),
    dueDate: row.dueDate,
    status: row.status,
    paidAt: isoTime(row.paidAt),
    txid: row.txid,
    plan: { id: row.planId, name: row.planName, value: cents(row.planValueCents) },
    recurrence: row.recurrence,
    ...(company ? { company } : {}),
    createdAt: isoTime(row.createdAt)!,
    updatedAt: isoTime(row.updatedAt)!,
  }
}

type BillingRow = {
  id: number
  status: number
  dueDate: string | null
  recurrence: Recurrence
  planId: number
  planName: string
  planValueCents: number
  isPlatform: number
}

const BILLING_SQL = `SELECT c.id, c.status, c.due_date AS dueDate, c.recurrence, p.id AS planId, p.name AS planName,
    p.value_cents AS planValueCents,
    EXISTS (SELECT 1 FROM users u WHERE u.company_id = c.id AND u.super = 1) AS isPlatform
  FROM companies c JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`

function publishInvoice(events: EventBuffer | undefined, row: InvoiceRow, action: 'create' | 'update') {
  events?.publish(rooms.admins(row.companyId), channel(row.companyId, 'invoice'), {
    action,
    record: toInvoiceDto(row),
  })
}

/**
 * Voids the company's open invoices of any other due date than `dueDate` (all of them when it has none): what
 * keeps a company at one open invoice, and a stale invoice from being paid after its due date changed.
 */
function voidStaleInvoices(
  tx: Connection,
  companyId: number,
  dueDate: string | null,
  now: number,
  events?: EventBuffer,
) {
  const sqlite = sqliteOf(tx)
  const stale = "UPDATE invoices SET status = 'void', updated_at = ? WHERE company_id = ? AND status = 'open'"
  const voided = dueDate
    ? stmt<InvoiceRow, [number, number, string]>(
        sqlite,
        `${stale} AND due_date <> ? RETURNING ${ROW_COLUMNS}`,
      ).all(now, companyId, dueDate)
    : stmt<InvoiceRow, [number, number]>(sqlite, `${stale} RETURNING ${ROW_COLUMNS}`).all(now, companyId)
  for (const row of voided) publishInvoice(events, row, 'update')
}

/**
 * Brings the company's invoices in line with its current due date (see the top of this file), inside the
 * caller's transaction: voids the open invoices of other due dates, then issues the invoice of the current one
 * when it is due for one (or opens it again if it was voided); answers that invoice when it was issued or opened
 * now, null otherwise. Companies' service calls it after a company is created or its due date changes (edit,
 * '+ Vencimento'), the payment after it extends, the job's sweep for everyone.
 */
export function ensureCompanyInvoice(
  tx: Connection,
  companyId: number,
  now: number,
  events?: EventBuffer,
): InvoiceRow | null {
  const company = stmt<BillingRow, [number]>(sqliteOf(tx), BILLING_SQL).get(companyId)
  if (!company) return null
  const dueDate = company.dueDate && DATE.test(company.dueDate) ? company.dueDate : null
  voidStaleInvoices(tx, companyId, dueDate, now, events)
  if (!company.status || company.isPlatform || company.planValueCents <= 0) return null
  if (!dueDate || dueDate > invoiceWindowEnd(now)) return null
  const months = RECURRENCE_MONTHS[company.recurrence] ?? 1
  // A paid (or still open) invoice of this period stays as it is: only a voided one opens again.
  const row = stmt<
    InvoiceRow,
    [string, number, number, string, number, string, number, number, string, string]
  >(
    sqliteOf(tx),
    `INSERT INTO invoices (detail, value_cents, status, plan_id, plan_name, plan_value_cents, recurrence, updated_at,
       company_id, due_date, txid, created_at)
     VALUES (?1, ?2, 'open', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?7)
     ON CONFLICT (company_id, due_date) DO UPDATE SET detail = ?1, value_cents = ?2, status = 'open', plan_id = ?3,
       plan_name = ?4, plan_value_cents = ?5, recurrence = ?6, updated_at = ?7
       WHERE status = 'void'
     RETURNING ${ROW_COLUMNS}`,
  ).get(
    invoiceDetail(company.planName, company.recurrence),
    company.planValueCents * months,
    company.planId,
    company.planName,
    company.planValueCents,
    company.recurrence,
    now,
    companyId,
    dueDate,
    invoiceTxid(companyId, dueDate),
  )
  if (row) publishInvoice(events, row, row.createdAt === now ? 'create' : 'update')
  return row ?? null
}

/** Companies whose current period is due for an invoice that does not exist yet. */
export function companiesDueForInvoice(deps: Pick<Deps, 'sqlite'>, now: number): number[] {
  return stmt<{ id: number }, [string]>(
    deps.sqlite,
    `SELECT c.id FROM companies c JOIN plans p ON p.id = c.plan_id
      WHERE c.status = 1 AND c.due_date IS NOT NULL AND c.due_date <= ? AND p.value_cents > 0
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.company_id = c.id AND u.super = 1)
        AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.company_id = c.id AND i.due_date = c.due_date
                          AND i.status <> 'void')
      ORDER BY c.id`,
  )
    .all(invoiceWindowEnd(now))
    .map((r) => r.id)
}

/** One sweep: issues every invoice that fell due (each company its own transaction). Returns how many. */
export function sweepInvoices(deps: Deps): number {
  let issued = 0
  for (const companyId of companiesDueForInvoice(deps, deps.clock.now())) {
    try {
      if (transact(deps, (tx, events) => ensureCompanyInvoice(tx, companyId, deps.clock.now(), events)))
        issued++
    } catch (err) {
      deps.log.error('invoices: could not issue an invoice', { companyId, error: (err as Error).message })
    }
  }
  return issued
}

/** The one way to load an invoice of the actor's company: another company's id is ERR_NO_INVOICE_FOUND (404). */
export function getInvoiceInCompany(db: Connection, companyId: number, id: number): InvoiceRow {
  const row = stmt<InvoiceRow, [number, number]>(
    sqliteOf(db),
    `SELECT ${ROW_COLUMNS} FROM invoices WHERE id = ? AND company_id = ?`,
  ).get(id, companyId)
  if (!row) throw new AppError('ERR_NO_INVOICE_FOUND', 'Invoice not found')
  return row
}

function getInvoiceRow(db: Connection, id: number): InvoiceRow {
  const row = stmt<InvoiceRow, [number]>(
    sqliteOf(db),
    `SELECT ${ROW_COLUMNS} FROM invoices WHERE id = ?`,
  ).get(id)
  if (!row) throw new AppError('ERR_NO_INVOICE_FOUND', 'Invoice not found')
  return row
}

const SEARCH = `($term IS NULL OR instr(lower(i.detail), lower($term)) > 0 OR CAST(i.id AS TEXT) = $term)`

type RawInvoice = InvoiceRow & { companyName?: string }

const COLUMNS = `i.id, i.company_id AS companyId, i.detail, i.value_cents AS valueCents, i.due_date AS dueDate,
  i.status, i.paid_at AS paidAt, i.paid_via AS paidVia, i.txid, i.plan_id AS planId, i.plan_name AS planName,
  i.plan_value_cents AS planValueCents, i.recurrence, i.created_at AS createdAt, i.updated_at AS updatedAt`

/** The same columns of `invoices` unaliased (RETURNING and single-table reads). */
const ROW_COLUMNS = COLUMNS.replace(/\bi\./g, '')

/** `GET /invoices/all`: the actor's company's invoices, the latest due date first. */
export function listCompanyInvoices(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): InvoicesPage {
  const companyId = ctx.actor.companyId
  const at = pageWindow(query.pageNumber, INVOICES_PAGE_SIZE)
  const term = query.searchParam?.trim() || null
  const rows = stmt<RawInvoice, [{ companyId: number; term: string | null; limit: number; offset: number }]>(
    ctx.sqlite,
    `SELECT ${COLUMNS} FROM invoices i WHERE i.company_id = $companyId AND ${SEARCH}
      ORDER BY i.due_date DESC, i.id DESC LIMIT $limit OFFSET $offset`,
  ).all({ companyId, term, limit: at.limit, offset: at.offset })
  const page = pageOf(rows, at)
  return {
    invoices: page.rows.map((r) => toInvoiceDto(r)),
    count: pageCount(
      page,
      () =>
        stmt<{ n: number }, [{ companyId: number; term: string | null }]>(
          ctx.sqlite,
          `SELECT count(*) AS n FROM invoices i WHERE i.company_id = $companyId AND ${SEARCH}`,
        ).get({ companyId, term })?.n ?? 0,
    ),
    hasMore: page.hasMore,
  }
}

const ALL_SEARCH = `($term IS NULL OR instr(lower(i.detail), lower($term)) > 0 OR instr(lower(c.name), lower($term)) > 0
  OR CAST(i.id AS TEXT) = $term)`

/** `GET /invoices` (super user): every company's invoices, open ones first, then by due date. */
export function listAllInvoices(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): InvoicesPage {
  const at = pageWindow(query.pageNumber, INVOICES_PAGE_SIZE)
  const term = query.searchParam?.trim() || null
  const rows = stmt<RawInvoice, [{ term: string | null; limit: number; offset: number }]>(
    ctx.sqlite,
    `SELECT ${COLUMNS}, c.name AS companyName FROM invoices i JOIN companies c ON c.id = i.company_id
      WHERE ${ALL_SEARCH} ORDER BY i.status <> 'open', i.due_date DESC, i.id DESC LIMIT $limit OFFSET $offset`,
  ).all({ term, limit: at.limit, offset: at.offset })
  const page = pageOf(rows, at)
  return {
    invoices: page.rows.map((r) => toInvoiceDto(r, { id: r.companyId, name: r.companyName ?? '' })),
    count: pageCount(
      page,
      () =>
        stmt<{ n: number }, [{ term: string | null }]>(
          ctx.sqlite,
          `SELECT count(*) AS n FROM invoices i JOIN companies c ON c.id = i.company_id WHERE ${ALL_SEARCH}`,
        ).get({ term })?.n ?? 0,
    ),
    hasMore: page.hasMore,
  }
}

/** `GET /invoices/{id}`: one of the actor's company's invoices (the super user: any company's). */
export function getInvoice(ctx: Ctx, id: number): InvoiceDto {
  const actor = ctx.actor
  const row =
    actor.kind === 'user' && actor.super
      ? getInvoiceRow(ctx.sqlite, id)
      : getInvoiceInCompany(ctx.sqlite, actor.companyId, id)
  return toInvoiceDto(row)
}

/** The oldest open invoice of a company (what the subscribe button pays), or null. */
export function oldestOpenInvoice(deps: Pick<Deps, 'sqlite'>, companyId: number): InvoiceRow | null {
  return (
    stmt<InvoiceRow, [number]>(
      deps.sqlite,
      `SELECT ${ROW_COLUMNS} FROM invoices WHERE company_id = ? AND status = 'open' ORDER BY due_date LIMIT 1`,
    ).get(companyId) ?? null
  )
}

export type PaidResult = { invoice: InvoiceDto; extended: boolean; dueDate: string | null }

/**
 * Marks an invoice paid and extends the company (see the top of this file). `amountCents`, when given (the
 * webhook), must be the invoice's value. An invoice already paid answers as it is, extending nothing; a void one
 * (or an open one that no longer pays the company's due date) is refused with ERR_INVOICE_VOID and logged.
 */
export function markInvoicePaid(
  deps: Deps,
  invoiceId: number,
  payment: { via: 'webhook' | 'super'; amountCents?: number },
): PaidResult {
  return transact(deps, (sqlite, events) => {
    const row = getInvoiceRow(sqlite, invoiceId)
    if (payment.amountCents !== undefined && payment.amountCents !== row.valueCents) {
      throw new AppError('ERR_INVOICE_AMOUNT_MISMATCH', 'The amount paid is not the invoice value', {
        expected: (row.valueCents / 100).toFixed(2),
      })
    }
    const company = stmt<{ id: number; dueDate: string | null }, [number]>(
      sqlite,
      'SELECT id, due_date AS dueDate FROM companies WHERE id = ?',
    ).get(row.companyId)
    if (row.status === 'paid' || !company) {
      return { invoice: toInvoiceDto(row), extended: false, dueDate: company?.dueDate ?? null }
    }
    if (row.status !== 'open' || row.dueDate !== company.dueDate) {
      deps.log.warn('payment refused: the invoice is void (its due date is no longer the company’s)', {
        invoiceId: row.id,
        companyId: row.companyId,
        invoiceDueDate: row.dueDate,
        companyDueDate: company.dueDate,
        via: payment.via,
        amountCents: payment.amountCents ?? row.valueCents,
      })
      throw new AppError('ERR_INVOICE_VOID', 'This invoice was cancelled and cannot be paid', {
        invoiceId: row.id,
        dueDate: company.dueDate,
      })
    }
    const now = deps.clock.now()
    const today = isoDate(now)
    const paid = stmt<InvoiceRow, [number, string, number, number]>(
      sqlite,
      `UPDATE invoices SET status = 'paid', paid_at = ?, paid_via = ?, updated_at = ? WHERE id = ? AND status = 'open'
       RETURNING ${ROW_COLUMNS}`,
    ).get(now, payment.via, now, row.id)
    if (!paid) return { invoice: toInvoiceDto(row), extended: false, dueDate: company.dueDate }
    const base = company.dueDate && DATE.test(company.dueDate) ? company.dueDate : today
    let dueDate = addRecurrence(base, row.recurrence)
    if (dueDate < today) dueDate = addRecurrence(today, row.recurrence)
    stmt<unknown, [string, number, number]>(
      sqlite,
      'UPDATE companies SET due_date = ?, updated_at = ? WHERE id = ?',
    ).run(dueDate, now, company.id)
    publishInvoice(events, paid, 'update')
    ensureCompanyInvoice(sqlite, company.id, now, events)
    events.publish(rooms.company(company.id), channel(company.id, 'payment'), {
      action: 'CONCLUIDA',
      company: { id: company.id, dueDate },
    })
    return { invoice: toInvoiceDto(paid), extended: true, dueDate }
  })
}

/** `PUT /invoices/{id}` {status: 'paid'} (the super user, any company's invoice). */
export function markPaidBySuper(ctx: Ctx, id: number): InvoiceDto {
  const actor = userActor(ctx)
  if (!actor.super) throw new AppError('ERR_NO_PERMISSION', 'Only the platform administrator can do this')
  return markInvoicePaid(ctx, id, { via: 'super' }).invoice
}
