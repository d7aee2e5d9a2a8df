import { asc, count, eq, sql } from 'drizzle-orm'
import type { CompanyDto, Paged } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { addRecurrence, answeredDueDate } from '../../../shared/plans'
import {
  defaultSchedules,
  effectiveSchedules,
  type ScheduleEntry,
  serializeSchedules,
} from '../../../shared/schedules'
import type { CreateCompanyInput, UpdateCompanyInput } from '../../../shared/schemas/companies'
import { isoDate, isoTime } from '../../clock'
import type { Ctx } from '../../context'
import { transact, userActor } from '../../context'
import type { DB } from '../../db/client'
import { pageCount, pageOf, pageWindow, preparedOnce } from '../../db/paging'
import { type CompanyRow, companies, plans, users } from '../../db/schema'
import { ensureCompanyInvoice } from '../invoices/service'
import { getPlanRow } from '../plans/service'
import { ensureDefaultSettings } from '../settings/service'
import { hashPassword, insertUser } from '../users/service'

export const COMPANIES_PAGE_SIZE = 20

type CompanyCounts = CompanyDto['counts']

export function toCompanyDto(
  row: CompanyRow,
  plan: { id: number; name: string } | null,
  counts: CompanyCounts = { users: 0, connections: 0, queues: 0 },
): CompanyDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    planId: row.planId,
    plan,
    status: row.status,
    dueDate: answeredDueDate(row.dueDate), // never null: see NO_DUE_DATE
    trialExpiration: row.trialExpiration,
    recurrence: row.recurrence,
    document: row.document,
    lastLogin: isoTime(row.lastLogin),
    counts,
    createdAt: isoTime(row.createdAt)!,
    updatedAt: isoTime(row.updatedAt)!,
  }
}

/** How much of its plan a company uses (the super user's table shows it beside the plan's limits). */
const countsOf = {
  users: sql<number>`(SELECT count(*) FROM users WHERE users.company_id = ${companies.id})`,
  connections: sql<number>`(SELECT count(*) FROM whatsapps WHERE whatsapps.company_id = ${companies.id})`,
  queues: sql<number>`(SELECT count(*) FROM queues WHERE queues.company_id = ${companies.id})`,
}

function companiesWithPlans(db: DB) {
  return db
    .select({ company: companies, plan: { id: plans.id, name: plans.name }, counts: countsOf })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
}

export function getCompanyRow(db: DB, companyId: number): CompanyRow {
  const row = db.select().from(companies).where(eq(companies.id, companyId)).get()
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  return row
}

/** Name contains the term, case-insensitive and literal; a null term matches every company. */
const nameMatches = () =>
  sql`(${sql.placeholder('term')} IS NULL OR instr(lower(${companies.name}), lower(${sql.placeholder('term')})) > 0)`

const companiesPage = preparedOnce((db) =>
  companiesWithPlans(db)
    .where(nameMatches())
    .orderBy(asc(companies.name))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(),
)

const companiesCount = preparedOnce((db) =>
  db.select({ n: count() }).from(companies).where(nameMatches()).prepare(),
)

export function listCompanies(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'companies', CompanyDto> {
  const at = pageWindow(query.pageNumber, COMPANIES_PAGE_SIZE)
  const term = query.searchParam?.trim() || null
  const page = pageOf(companiesPage(ctx.db).all({ term, limit: at.limit, offset: at.offset }), at)
  return {
    companies: page.rows.map((r) => toCompanyDto(r.company, r.plan, r.counts)),
    count: pageCount(page, () => companiesCount(ctx.db).get({ term })?.n ?? 0),
    hasMore: page.hasMore,
  }
}

export function listAllCompanies(ctx: Ctx): CompanyDto[] {
  return companiesWithPlans(ctx.db)
    .orderBy(asc(companies.name))
    .all()
    .map((r) => toCompanyDto(r.company, r.plan, r.counts))
}

/**
 * Who reads a company: the super user any; its own users their own (`admins`: only its admins, an attendant gets
 * 403). Another company's id is not found, as one that does not exist.
 */
export function assertMayReadCompany(ctx: Ctx, companyId: number, who: 'admins' | 'users') {
  const actor = userActor(ctx)
  if (actor.super) return
  if (actor.companyId !== companyId) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  if (who === 'admins' && actor.profile !== 'admin')
    throw new AppError('ERR_NO_PERMISSION', "Only the company's admins can read it")
}

/** `GET /companies/{id}`: the super user any company, a company's admin their own (settings, checkout). */
export function readCompany(ctx: Ctx, companyId: number): CompanyDto {
  assertMayReadCompany(ctx, companyId, 'admins')
  return getCompany(ctx, companyId)
}

export function getCompany(ctx: Ctx, companyId: number): CompanyDto {
  const row = companiesWithPlans(ctx.db).where(eq(companies.id, companyId)).get()
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  return toCompanyDto(row.company, row.plan, row.counts)
}

function assertNameFree(db: DB, name: string, exceptId?: number) {
  const other = db.select({ id: companies.id }).from(companies).where(eq(companies.name, name)).get()
  if (other && other.id !== exceptId)
    throw fieldError('name', 'Another company has this name', 'ERR_COMPANY_NAME_ALREADY_EXISTS')
}

/**
 * Creates a company with its default settings and its first admin (the company's e-mail and password).
 * `alsoInTransaction` writes what must exist with the company or not at all (the sign-up's trial and code).
 */
export async function createCompany(
  ctx: Ctx,
  input: CreateCompanyInput,
  alsoInTransaction?: (tx: DB, companyId: number) => void,
): Promise<CompanyDto> {
  const passwordHash = await hashPassword(input.password)
  const { password: _password, userName, ...fields } = input
  const id = transact(ctx, (tx) => {
    getPlanRow(tx, input.planId)
    assertNameFree(tx, input.name)
    if (tx.select({ id: users.id }).from(users).where(eq(users.email, input.email)).get()) {
      throw fieldError('email', 'A user already has this e-mail', 'ERR_EMAIL_ALREADY_EXISTS')
    }
    const now = ctx.clock.now()
    const company = tx
      .insert(companies)
      .values({ ...fields, dueDate: fields.dueDate ?? null, createdAt: now, updatedAt: now })
      .returning()
      .get()
    ensureDefaultSettings(tx, company.id, now)
    insertUser(
      tx,
      company.id,
      { name: userName ?? input.name.slice(0, 50), email: input.email, profile: 'admin', passwordHash },
      now,
    )
    ensureCompanyInvoice(tx, company.id, now) // an invoice at once when created inside the 10-day window
    alsoInTransaction?.(tx, company.id)
    return company.id
  })
  return getCompany(ctx, id)
}

export function updateCompany(ctx: Ctx, companyId: number, input: UpdateCompanyInput): CompanyDto {
  transact(ctx, (tx, events) => {
    getCompanyRow(tx, companyId)
    if (input.name) assertNameFree(tx, input.name, companyId)
    if (input.planId) getPlanRow(tx, input.planId)
    if (companyId === ctx.actor.companyId && input.status === false) {
      throw fieldError('status', 'The platform company cannot be deactivated')
    }
    const updated = tx
      .update(companies)
      .set({ ...input, updatedAt: ctx.clock.now() })
      .where(eq(companies.id, companyId))
      .returning()
      .get()
    // Requests of a closed company are refused from now on (http/auth.ts); its open sockets end here.
    const expired = !!updated.dueDate && updated.dueDate < isoDate(ctx.clock.now())
    if (companyId !== ctx.actor.companyId && (!updated.status || expired)) {
      const reason = updated.status ? 'subscription expired' : 'company inactive'
      events.afterCommit(() => ctx.hub.disconnectCompany(companyId, reason))
    }
    // A moved due date voids the old one's open invoice and issues its own if inside the invoice window.
    ensureCompanyInvoice(tx, companyId, ctx.clock.now(), events)
  })
  return getCompany(ctx, companyId)
}

/**
 * '+ Vencimento' (spec 3): the due date moves forward by the company's recurrence (1, 2, 3, 6 or 12 months).
 * A company without a due date (the platform's own) never expires and has nothing to move.
 */
export function extendCompany(ctx: Ctx, companyId: number): CompanyDto {
  transact(ctx, (tx, events) => {
    const row = getCompanyRow(tx, companyId)
    if (!row.dueDate)
      throw fieldError('dueDate', 'This company has no due date to move', 'ERR_COMPANY_NO_DUE_DATE')
    tx.update(companies)
      .set({ dueDate: addRecurrence(row.dueDate, row.recurrence), updatedAt: ctx.clock.now() })
      .where(eq(companies.id, companyId))
      .run()
    // The old due date's open invoice becomes void; the new one's is issued if already inside the window.
    ensureCompanyInvoice(tx, companyId, ctx.clock.now(), events)
  })
  return getCompany(ctx, companyId)
}

export function deleteCompany(ctx: Ctx, companyId: number) {
  if (companyId === ctx.actor.companyId) {
    throw new AppError('ERR_CANNOT_DELETE_PLATFORM_COMPANY', 'The platform company cannot be deleted')
  }
  const members = ctx.db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId)).all()
  transact(ctx, (tx, events) => {
    getCompanyRow(tx, companyId)
    tx.delete(companies).where(eq(companies.id, companyId)).run()
    events.afterCommit(() => {
      for (const { id } of members) ctx.hub.disconnectUser(id, 'company deleted')
    })
  })
}

/**
 * Service hours of a company (used when the setting scheduleType is 'company'): its admins or the super user.
 * An attendant of the company gets 403; anyone else gets 404, as for a company that does not exist.
 */
function assertMayEditHours(ctx: Ctx, companyId: number) {
  const actor = userActor(ctx)
  if (actor.super) return
  if (actor.companyId !== companyId) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  if (actor.profile !== 'admin')
    throw new AppError('ERR_NO_PERMISSION', 'Only admins can change service hours')
}

/** GET /companies/{id}/schedules: the hours in force (the spec's defaults when never set). */
export function getCompanySchedules(ctx: Ctx, companyId: number): { id: number; schedules: ScheduleEntry[] } {
  assertMayEditHours(ctx, companyId)
  const row = getCompanyRow(ctx.db, companyId)
  return { id: row.id, schedules: effectiveSchedules(row.schedules) }
}

/** PUT /companies/{id}/schedules: replaces the company's hours (null: back to the defaults). */
export function updateCompanySchedules(
  ctx: Ctx,
  companyId: number,
  schedules: ScheduleEntry[] | null,
): { id: number; schedules: ScheduleEntry[] } {
  assertMayEditHours(ctx, companyId)
  return transact(ctx, (tx) => {
    getCompanyRow(tx, companyId)
    const row = tx
      .update(companies)
      .set({ schedules: serializeSchedules(schedules ?? defaultSchedules()), updatedAt: ctx.clock.now() })
      .where(eq(companies.id, companyId))
      .returning()
      .get()
    return { id: row.id, schedules: effectiveSchedules(row.schedules) }
  })
}
