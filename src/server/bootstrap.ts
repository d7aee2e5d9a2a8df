import { PASSWORD_RULE } from '../shared/passwords'
import type { Deps } from './context'
import { transact } from './context'
import { stmt } from './db/statements'
import { ensureDefaultSettings } from './modules/settings/service'
import { hashPassword, insertUser } from './modules/users/service'

export const PLATFORM_COMPANY_NAME = 'Balcão'
export const DEFAULT_ADMIN_EMAIL = 'admin@balcao.local'

export type BootstrapResult =
  | { created: false }
  | { created: true; email: string; generatedPassword: string | null; companyId: number }

/**
 * A readable random password: 16 characters from an unambiguous alphabet, drawn again until it passes the one
 * password rule (a lower-case letter, an upper-case letter and a digit; about one draw in nine lacks one).
 */
export function generatePassword(length = 16) {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(length))
    const candidate = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
    if (PASSWORD_RULE.test(candidate)) return candidate
  }
}

/**
 * First start on an empty database: the platform company, a default plan with every flag on, the default
 * settings and the super admin. The password comes from the environment or is generated and returned,
 * to be printed once. Nothing happens on a database that already has a company.
 */
export async function bootstrap(
  deps: Deps,
  admin: { email?: string; password?: string } = {},
): Promise<BootstrapResult> {
  if (stmt<{ n: number }, []>(deps.sqlite, 'SELECT count(*) AS n FROM companies').get()!.n > 0)
    return { created: false }
  const email = (admin.email ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase()
  const generatedPassword = admin.password ? null : generatePassword()
  const passwordHash = await hashPassword(admin.password ?? generatedPassword!)
  const now = deps.clock.now()
  const companyId = transact(deps, (sqlite) => {
    // The plan's limits and switches take the table's defaults: no limit, every flag on.
    const plan = stmt<{ id: number }, [string, number, number]>(
      sqlite,
      'INSERT INTO plans (name, created_at, updated_at) VALUES (?, ?, ?) RETURNING id',
    ).get('Plano Padrão', now, now)!
    const company = stmt<{ id: number }, [string, string, number, number, number]>(
      sqlite,
      `INSERT INTO companies (name, email, plan_id, due_date, created_at, updated_at)
       VALUES (?, ?, ?, NULL, ?, ?) RETURNING id`,
    ).get(PLATFORM_COMPANY_NAME, email, plan.id, now, now)!
    ensureDefaultSettings(sqlite, company.id, now)
    insertUser(sqlite, company.id, { name: 'Admin', email, profile: 'admin', super: true, passwordHash }, now)
    return company.id
  })
  return { created: true, email, generatedPassword, companyId }
}
