import { type Type, type } from 'arktype'
import type { CompanyDto, PlanDto, UserDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { createCompanyBody, planBody, updateCompanyBody } from '../../../shared/schemas/companies'
import { normalizePhone, signupPhone } from '../../../shared/schemas/signup'
import { createUserBody } from '../../../shared/schemas/users'
import type { Ctx, Deps, UserActor } from '../../context'
import type { CompanyRow, PlanRow, UserRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import { isPlainObject, parse } from '../../http/validate'
import {
  createCompany,
  deleteCompany,
  extendCompany,
  getCompanyRow,
  listAllCompanies,
  updateCompany,
} from '../companies/service'
import { disconnectSession, getConnectionRowInCompany } from '../connections/service'
import { createPlan, deletePlan, getPlanRow, listPublicPlans, updatePlan } from '../plans/service'
import { issueSignupCode } from '../signup/service'
import { createUser, listAllUsers, resetPassword, setUserDisabled } from '../users/service'
import { listAllConnections, operatorConnection } from './service'

/**
 * The operator's commands (`balcao company|plan|user|signup-code|connection …`): one table, run on the running
 * server (`POST /api/operator/commands/:name`, so live events reach the browsers) or, when none runs, by the
 * CLI on the database itself. Each command calls the same service functions as the API, with an actor built
 * for the operator: the platform's super user for platform-wide commands, an admin of the company for the
 * company's own records (so plan limits and tenancy rules apply as they do in the web).
 */

/** Where a command runs: `live` on the server that holds the WhatsApp sessions, or on the database alone. */
export type OperatorRun = { live: boolean }

/** The session id of the operator's actor: never a real session (a password change keeps no session of it). */
const OPERATOR_SESSION = 'operator'

/** An id, a name or an e-mail, as typed on the command line. */
const ref = type('number.integer > 0').or(type('string.trim').to('1 <= string <= 200'))
type Ref = typeof ref.infer

const CANONICAL_ID = /^[1-9]\d{0,15}$/

function idOf(value: Ref): number | null {
  if (typeof value === 'number') return value
  return CANONICAL_ID.test(value) ? Number(value) : null
}

/** The platform's super user (the first one that is not disabled): the actor of platform-wide commands. */
export function platformActor(deps: Deps): UserActor {
  const row =
    stmt<Pick<UserRow, 'id' | 'companyId'>, []>(
      deps.sqlite,
      'SELECT id, company_id AS companyId FROM users WHERE super = 1 AND disabled = 0 ORDER BY id LIMIT 1',
    ).get() ??
    stmt<Pick<UserRow, 'id' | 'companyId'>, []>(
      deps.sqlite,
      'SELECT id, company_id AS companyId FROM users WHERE super = 1 ORDER BY id LIMIT 1',
    ).get()
  if (!row) {
    throw new AppError(
      'ERR_NO_USER_FOUND',
      'This platform has no super user yet: start `balcao serve` once to create it',
    )
  }
  return {
    kind: 'user',
    userId: row.id,
    companyId: row.companyId,
    profile: 'admin',
    super: true,
    sessionId: OPERATOR_SESSION,
    isTricked: 'enabled',
  }
}

/**
 * An admin of `companyId` (its first admin's id, when it has one): company-scoped services see that company's
 * records only and count its plan's limits. The platform company's actor is the super user.
 */
export function companyActor(deps: Deps, companyId: number): UserActor {
  const platform = platformActor(deps)
  if (companyId === platform.companyId) return platform
  const admin = stmt<{ id: number }, [number]>(
    deps.sqlite,
    "SELECT id FROM users WHERE company_id = ? AND profile = 'admin' ORDER BY id LIMIT 1",
  ).get(companyId)
  return {
    kind: 'user',
    userId: admin?.id ?? 0,
    companyId,
    profile: 'admin',
    super: false,
    sessionId: OPERATOR_SESSION,
    isTricked: 'enabled',
  }
}

const ctxAs = (deps: Deps, actor: UserActor): Ctx => ({ ...deps, actor })
const platformCtx = (deps: Deps) => ctxAs(deps, platformActor(deps))

type Named = Pick<CompanyRow | PlanRow, 'id' | 'name'>

/** A row of `table` whose `column` is `text`, or else the one row whose column matches it ignoring case. */
function byText(deps: Deps, table: 'companies' | 'plans', column: 'name' | 'email', text: string) {
  return (
    stmt<Named, [string]>(deps.sqlite, `SELECT id, name FROM ${table} WHERE ${column} = ?`).get(text) ??
    only(
      stmt<Named, [string]>(
        deps.sqlite,
        `SELECT id, name FROM ${table} WHERE lower(${column}) = lower(?)`,
      ).all(text),
    )
  )
}

/** A company by id, e-mail or name (exact, then ignoring case). */
export function findCompany(deps: Deps, value: Ref): Named {
  const id = idOf(value)
  if (id !== null) return getCompanyRow(deps.sqlite, id)
  const text = String(value)
  const row = byText(deps, 'companies', text.includes('@') ? 'email' : 'name', text)
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', `No company ${text} (see \`balcao company list\`)`)
  return row
}

/** A plan by id or name (exact, then ignoring case). */
export function findPlan(deps: Deps, value: Ref): Named {
  const id = idOf(value)
  if (id !== null) return getPlanRow(deps.sqlite, id)
  const text = String(value)
  const row = byText(deps, 'plans', 'name', text)
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND', `No plan ${text} (see \`balcao plan list\`)`)
  return row
}

/** A user of any company by id or e-mail. */
export function findUser(deps: Deps, value: Ref) {
  const id = idOf(value)
  const columns = 'SELECT id, company_id AS companyId, email FROM users'
  type Found = Pick<UserRow, 'id' | 'companyId' | 'email'>
  const row =
    id !== null
      ? stmt<Found, [number]>(deps.sqlite, `${columns} WHERE id = ?`).get(id)
      : stmt<Found, [string]>(deps.sqlite, `${columns} WHERE email = ?`).get(String(value).toLowerCase())
  if (!row) throw new AppError('ERR_NO_USER_FOUND', `No user ${value} (see \`balcao user list\`)`)
  return row
}

/** One match, or none when there is none or more than one (ambiguous). */
function only<T>(rows: T[]): T | undefined {
  return rows.length === 1 ? rows[0] : undefined
}

/** Undeclared keys of an input: the API body's fields, validated by the API's own schema. */
function fieldsOf(input: Record<string, unknown>, ...refs: string[]) {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !refs.includes(key)))
}

type Run<I> = (deps: Deps, input: I & Record<string, unknown>, at: OperatorRun) => unknown
type Command = { input: Type; run: Run<Record<string, unknown>> }

/** Keeps each command's input type (what its schema answers) with its `run`. */
const command = <T extends Type>(input: T, run: Run<T['infer']>): Command => ({
  input,
  run: run as Command['run'],
})

const nothing = type({ '+': 'delete' })
const companyRef = type({ company: ref })
const planRef = type({ plan: ref })
const userRef = type({ '+': 'delete', user: ref })
const connectionRef = type({ '+': 'delete', id: 'number.integer > 0' })

/** WhatsApp sessions live in the running server's memory: without it there is nothing to restart or unlink. */
function needsServer(at: OperatorRun, what: string) {
  if (!at.live) {
    throw new AppError(
      'ERR_NOT_RUNNING',
      `${what} needs the running server (the WhatsApp sessions live in it): start \`balcao serve\` on this data folder`,
    )
  }
}

export const OPERATOR_COMMANDS = {
  'company.list': command(nothing, (deps): CompanyDto[] => listAllCompanies(platformCtx(deps))),
  'company.create': command(type({ plan: ref }), (deps, input): Promise<CompanyDto> => {
    const planId = findPlan(deps, input.plan).id
    return createCompany(platformCtx(deps), parse(createCompanyBody, { ...fieldsOf(input, 'plan'), planId }))
  }),
  'company.update': command(type({ company: ref, 'plan?': ref }), (deps, input): CompanyDto => {
    const company = findCompany(deps, input.company)
    const fields = fieldsOf(input, 'company', 'plan')
    if (input.plan !== undefined) fields.planId = findPlan(deps, input.plan).id
    return updateCompany(platformCtx(deps), company.id, parse(updateCompanyBody, fields))
  }),
  'company.delete': command(companyRef, (deps, input) => {
    const company = findCompany(deps, input.company)
    deleteCompany(platformCtx(deps), company.id)
    return { id: company.id, name: company.name, deleted: true }
  }),
  'company.extend': command(
    companyRef,
    (deps, input): CompanyDto => extendCompany(platformCtx(deps), findCompany(deps, input.company).id),
  ),

  'plan.list': command(nothing, (deps): PlanDto[] => listPublicPlans(deps)),
  'plan.create': command(planBody, (deps, input): PlanDto => createPlan(platformCtx(deps), input)),
  'plan.update': command(planRef, (deps, input): PlanDto => {
    const plan = findPlan(deps, input.plan)
    const body = parse(planBody, { name: plan.name, ...fieldsOf(input, 'plan') })
    return updatePlan(platformCtx(deps), plan.id, body)
  }),
  'plan.delete': command(planRef, (deps, input) => {
    const plan = findPlan(deps, input.plan)
    deletePlan(platformCtx(deps), plan.id)
    return { id: plan.id, name: plan.name, deleted: true }
  }),

  'user.list': command(
    type({ '+': 'delete', 'company?': ref }),
    (deps, input): (UserDto & { companyName: string })[] => {
      const list =
        input.company === undefined
          ? stmt<Named, []>(deps.sqlite, 'SELECT id, name FROM companies ORDER BY name').all()
          : [findCompany(deps, input.company)]
      return list.flatMap((company) =>
        listAllUsers(ctxAs(deps, companyActor(deps, company.id))).map((u) => ({
          ...u,
          companyName: company.name,
        })),
      )
    },
  ),
  'user.create': command(companyRef, (deps, input): Promise<UserDto> => {
    const company = findCompany(deps, input.company)
    const body = parse(createUserBody, fieldsOf(input, 'company'))
    return createUser(ctxAs(deps, companyActor(deps, company.id)), body)
  }),
  'user.reset-password': command(
    type({ '+': 'delete', user: ref, password: createUserBody.get('password') }),
    (deps, input) => resetPassword(deps, findUser(deps, input.user).email, input.password),
  ),
  'user.disable': command(userRef, (deps, input): UserDto => {
    const user = findUser(deps, input.user)
    return setUserDisabled(ctxAs(deps, companyActor(deps, user.companyId)), user.id, true)
  }),
  'user.enable': command(userRef, (deps, input): UserDto => {
    const user = findUser(deps, input.user)
    return setUserDisabled(ctxAs(deps, companyActor(deps, user.companyId)), user.id, false)
  }),

  'signup-code.create': command(type({ '+': 'delete', 'phone?': signupPhone.or('null') }), (deps, input) =>
    issueSignupCode(deps, 'terminal', input.phone ? normalizePhone(input.phone) : null),
  ),

  'connection.list': command(nothing, (deps) => listAllConnections(deps)),
  'connection.restart': command(connectionRef, async (deps, input, at) => {
    const { companyId } = operatorConnection(deps, input.id)
    needsServer(at, 'Restarting a connection')
    await deps.channels.restart(getConnectionRowInCompany(deps.sqlite, companyId, input.id))
    return operatorConnection(deps, input.id)
  }),
  'connection.logout': command(connectionRef, async (deps, input, at) => {
    const { companyId } = operatorConnection(deps, input.id)
    needsServer(at, 'Unlinking a connection')
    await disconnectSession(ctxAs(deps, companyActor(deps, companyId)), input.id)
    return operatorConnection(deps, input.id)
  }),
} satisfies Record<string, Command>

export type OperatorCommandName = keyof typeof OPERATOR_COMMANDS

export const OPERATOR_COMMAND_NAMES = Object.keys(OPERATOR_COMMANDS) as OperatorCommandName[]

export function isOperatorCommand(name: string): name is OperatorCommandName {
  return Object.hasOwn(OPERATOR_COMMANDS, name)
}

/**
 * Runs one operator command: an unknown name is a 404, an input that is not an object or fails the command's
 * schema a 400 naming the fields; then the command's own services answer (and throw) as for the API.
 */
export async function runOperatorCommand(
  deps: Deps,
  name: string,
  rawInput: unknown,
  at: OperatorRun = { live: true },
): Promise<unknown> {
  if (!isOperatorCommand(name)) throw new AppError('ERR_NOT_FOUND', `Unknown operator command: ${name}`)
  const raw = rawInput ?? {}
  if (!isPlainObject(raw)) {
    throw new AppError('ERR_VALIDATION', 'The input must be a JSON object', undefined, [
      { field: 'body', message: 'must be a JSON object' },
    ])
  }
  const { input, run } = OPERATOR_COMMANDS[name]
  return run(deps, parse(input, raw) as Record<string, unknown>, at)
}
