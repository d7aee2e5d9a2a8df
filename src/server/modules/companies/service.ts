import type { Database } from 'bun:sqlite'
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
import { type Assignment, assignments, type ColumnsOf, selectList } from '../../db/columns'
import { type Connection, sqliteOf } from '../../db/connection'
import { listPage, pageWindow } from '../../db/paging'
import type { CompanyRow, RawCompanyRow } from '../../db/schema'
import { stmt } from '../../db/statements'
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

/** The companies table's columns by `CompanyRow`'s names, in the table's order. */
export const COMPANY_COLUMN: ColumnsOf<CompanyRow> = {
  id: 'id',
  name: 'name',
  email: 'email',
  phone: 'phone',
  planId: 'plan_id',
  status: 'status',
  dueDate: 'due_date',
  schedules: 'schedules',
  trialExpiration: 'trial_expiration',
  recurrence: 'recurrence',
  document: 'document',
  lastLogin: 'last_login',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
}

/** A whole companies row, read as `RawCompanyRow`. */
const COMPANY_COLUMNS = selectList(COMPANY_COLUMN)

function companyRow(raw: RawCompanyRow): CompanyRow {
  return { ...raw, status: raw.status === 1 }
}

/**
 * A company with its plan's name (null when the plan is gone) and how much of its plan it uses (the super
 * user's table shows it beside the plan's limits).
 */
type ListedCompany = RawCompanyRow & {
  planName: string | null
  users: number
  connections: number
  queues: number
}

const LISTED_COLUMNS = `${COMPANY_COLUMNS},
  (SELECT name FROM plans WHERE plans.id = companies.plan_id) AS planName,
  (SELECT count(*) FROM users WHERE users.company_id = companies.id) AS users,
  (SELECT count(*) FROM whatsapps WHERE whatsapps.company_id = companies.id) AS connections,
  (SELECT count(*) FROM queues WHERE queues.company_id = companies.id) AS queues`

function listedDto(row: ListedCompany): CompanyDto {
  const { planName, users, connections, queues, ...company } = row
  return toCompanyDto(
    companyRow(company),
    planName === null ? null : { id: company.planId, name: planName },
    { users, connections, queues },
  )
}

export function getCompanyRow(db: Connection, companyId: number): CompanyRow {
  const row = stmt<RawCompanyRow, [number]>(
    sqliteOf(db),
    `SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ?`,
  ).get(companyId)
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  return companyRow(row)
}

export function listCompanies(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'companies', CompanyDto> {
  const at = pageWindow(query.pageNumber, COMPANIES_PAGE_SIZE)
  // Name contains the term, case-insensitive and literal; a null term matches every company.
  const page = listPage<ListedCompany, { term: string | null }>(
    ctx.sqlite,
    {
      columns: LISTED_COLUMNS,
      from: 'companies',
      where: '($term IS NULL OR instr(lower(name), lower($term)) > 0)',
      order: 'ORDER BY name',
    },
    { term: query.searchParam?.trim() || null },
    at,
  )
  return { companies: page.rows.map(listedDto), count: page.count, hasMore: page.hasMore }
}

export function listAllCompanies(ctx: Ctx): CompanyDto[] {
  return stmt<ListedCompany, []>(ctx.sqlite, `SELECT ${LISTED_COLUMNS} FROM companies ORDER BY name`)
    .all()
    .map(listedDto)
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
  const row = stmt<ListedCompany, [number]>(
    ctx.sqlite,
    `SELECT ${LISTED_COLUMNS} FROM companies WHERE id = ?`,
  ).get(companyId)
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  return listedDto(row)
}

function assertNameFree(db: Connection, name: string, exceptId?: number) {
  const other = stmt<{ id: number }, [string]>(sqliteOf(db), 'SELECT id FROM companies WHERE name = ?').get(
    name,
  )
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
  alsoInTransaction?: (sqlite: Database, companyId: number) => void,
): Promise<CompanyDto> {
  const passwordHash = await hashPassword(input.password)
  const { password: _password, userName, ...fields } = input
  const id = transact(ctx, (sqlite) => {
    getPlanRow(sqlite, input.planId)
    assertNameFree(sqlite, input.name)
    if (stmt<{ id: number }, [string]>(sqlite, 'SELECT id FROM users WHERE email = ?').get(input.email)) {
      throw fieldError('email', 'A user already has this e-mail', 'ERR_EMAIL_ALREADY_EXISTS')
    }
    const now = ctx.clock.now()
    const set = assignments(COMPANY_COLUMN, {
      ...fields,
      dueDate: fields.dueDate ?? null,
      createdAt: now,
      updatedAt: now,
    })
    const company = stmt<{ id: number }, Assignment['value'][]>(
      sqlite,
      `INSERT INTO companies (${set.map((a) => a.column).join(', ')}) VALUES (${set.map(() => '?').join(', ')})
       RETURNING id`,
    ).get(...set.map((a) => a.value)) as { id: number }
    ensureDefaultSettings(sqlite, company.id, now)
    insertUser(
      sqlite,
      company.id,
      { name: userName ?? input.name.slice(0, 50), email: input.email, profile: 'admin', passwordHash },
      now,
    )
    ensureCompanyInvoice(sqlite, company.id, now) // an invoice at once when created inside the 10-day window
    alsoInTransaction?.(sqlite, company.id)
    return company.id
  })
  return getCompany(ctx, id)
}

export function updateCompany(ctx: Ctx, companyId: number, input: UpdateCompanyInput): CompanyDto {
  transact(ctx, (sqlite, events) => {
    getCompanyRow(sqlite, companyId)
    if (input.name) assertNameFree(sqlite, input.name, companyId)
    if (input.planId) getPlanRow(sqlite, input.planId)
    if (companyId === ctx.actor.companyId && input.status === false) {
      throw fieldError('status', 'The platform company cannot be deactivated')
    }
    const set = assignments(COMPANY_COLUMN, { ...input, updatedAt: ctx.clock.now() })
    const updated = stmt<Pick<RawCompanyRow, 'status' | 'dueDate'>, Assignment['value'][]>(
      sqlite,
      `UPDATE companies SET ${set.map((a) => `${a.column} = ?`).join(', ')} WHERE id = ?
       RETURNING status, due_date AS dueDate`,
    ).get(...set.map((a) => a.value), companyId) as Pick<RawCompanyRow, 'status' | 'dueDate'>
    // Requests of a closed company are refused from now on (http/auth.ts); its open sockets end here.
    const expired = !!updated.dueDate && updated.dueDate < isoDate(ctx.clock.now())
    if (companyId !== ctx.actor.companyId && (!updated.status || expired)) {
      const reason = updated.status ? 'subscription expired' : 'company inactive'
      events.afterCommit(() => ctx.hub.disconnectCompany(companyId, reason))
    }
    // A moved due date voids the old one's open invoice and issues its own if inside the invoice window.
    ensureCompanyInvoice(sqlite, companyId, ctx.clock.now(), events)
  })
  return getCompany(ctx, companyId)
}

/**
 * '+ Vencimento' (spec 3): the due date moves forward by the company's recurrence (1, 2, 3, 6 or 12 months).
 * A company without a due date (the platform's own) never expires and has nothing to move.
 */
export function extendCompany(ctx: Ctx, companyId: number): CompanyDto {
  transact(ctx, (sqlite, events) => {
    const row = getCompanyRow(sqlite, companyId)
    if (!row.dueDate)
      throw fieldError('dueDate', 'This company has no due date to move', 'ERR_COMPANY_NO_DUE_DATE')
    stmt<unknown, [string, number, number]>(
      sqlite,
      'UPDATE companies SET due_date = ?, updated_at = ? WHERE id = ?',
    ).run(addRecurrence(row.dueDate, row.recurrence), ctx.clock.now(), companyId)
    // The old due date's open invoice becomes void; the new one's is issued if already inside the window.
    ensureCompanyInvoice(sqlite, companyId, ctx.clock.now(), events)
  })
  return getCompany(ctx, companyId)
}

export function deleteCompany(ctx: Ctx, companyId: number) {
  if (companyId === ctx.actor.companyId) {
    throw new AppError('ERR_CANNOT_DELETE_PLATFORM_COMPANY', 'The platform company cannot be deleted')
  }
  const members = stmt<{ id: number }, [number]>(ctx.sqlite, 'SELECT id FROM users WHERE company_id = ?').all(
    companyId,
  )
  transact(ctx, (sqlite, events) => {
    getCompanyRow(sqlite, companyId)
    stmt<unknown, [number]>(sqlite, 'DELETE FROM companies WHERE id = ?').run(companyId)
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
  const row = getCompanyRow(ctx.sqlite, companyId)
  return { id: row.id, schedules: effectiveSchedules(row.schedules) }
}

/** PUT /companies/{id}/schedules: replaces the company's hours (null: back to the defaults). */
export function updateCompanySchedules(
  ctx: Ctx,
  companyId: number,
  schedules: ScheduleEntry[] | null,
): { id: number; schedules: ScheduleEntry[] } {
  assertMayEditHours(ctx, companyId)
  return transact(ctx, (sqlite) => {
    getCompanyRow(sqlite, companyId)
    const row = stmt<Pick<CompanyRow, 'id' | 'schedules'>, [string, number, number]>(
      sqlite,
      'UPDATE companies SET schedules = ?, updated_at = ? WHERE id = ? RETURNING id, schedules',
    ).get(serializeSchedules(schedules ?? defaultSchedules()), ctx.clock.now(), companyId) as Pick<
      CompanyRow,
      'id' | 'schedules'
    >
    return { id: row.id, schedules: effectiveSchedules(row.schedules) }
  })
}
