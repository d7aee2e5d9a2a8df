import { AppError } from '../../shared/errors'
import { isoDate } from '../clock'
import type { Deps } from '../context'

export type CompanyState = { id: number; status: boolean | number; dueDate: string | null }

/** The platform company is the one its super users belong to; it is never closed for its own staff. */
function isPlatformCompany(deps: Pick<Deps, 'sqlite'>, companyId: number) {
  return !!deps.sqlite
    .query<{ one: number }, [number]>('SELECT 1 AS one FROM users WHERE company_id = ? AND super = 1 LIMIT 1')
    .get(companyId)
}

/**
 * Throws when a company may not be used now: inactive (403) or past the end of its due date (402, with the
 * date). Login, refresh and every authenticated request answer alike. Super users and the platform company
 * are exempt, so the people who can fix a company are never locked out by it.
 */
export function assertCompanyOpen(
  deps: Pick<Deps, 'sqlite' | 'clock'>,
  company: CompanyState,
  userIsSuper: boolean,
) {
  const inactive = !company.status
  const expired = !!company.dueDate && company.dueDate < isoDate(deps.clock.now())
  if (!inactive && !expired) return
  if (userIsSuper || isPlatformCompany(deps, company.id)) return
  if (inactive) throw new AppError('ERR_COMPANY_INACTIVE', 'This company is inactive. Contact support.')
  throw new AppError('ERR_SUBSCRIPTION_EXPIRED', `The subscription expired on ${company.dueDate}`, {
    dueDate: company.dueDate,
  })
}
