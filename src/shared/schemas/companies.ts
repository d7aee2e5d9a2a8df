import { type } from 'arktype'
import { RECURRENCES } from '../plans'
import { email, password, text } from './common'

const date = type(/^\d{4}-\d{2}-\d{2}$/).describe('a date as YYYY-MM-DD')
/** The spec: an empty or invalid due date becomes null. */
const dueDate = type('string | null').pipe((s) =>
  s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) ? s : null,
)

const companyFields = {
  '+': 'delete',
  'phone?': 'string <= 30 | null',
  'dueDate?': dueDate,
  'recurrence?': type.enumerated(...RECURRENCES),
  'status?': 'boolean',
  'document?': 'string <= 30 | null',
} as const

export const createCompanyBody = type({
  ...companyFields,
  name: text(2, 100),
  email,
  planId: 'number.integer > 0',
  password,
  /** The first admin's name (the user dialog's); the company's name when left out. */
  'userName?': text(2, 50),
})
export const updateCompanyBody = type({
  ...companyFields,
  'name?': text(2, 100),
  'email?': email,
  'planId?': 'number.integer > 0',
})

export const planBody = type({
  '+': 'delete',
  name: text(2, 50),
  'value?': '0 <= number <= 1000000',
  'users?': '0 <= number.integer <= 100000',
  'connections?': '0 <= number.integer <= 100000',
  'queues?': '0 <= number.integer <= 100000',
  'useWhatsapp?': 'boolean',
  'useFacebook?': 'boolean',
  'useInstagram?': 'boolean',
  'useCampaigns?': 'boolean',
  'useSchedules?': 'boolean',
  'useInternalChat?': 'boolean',
  'useExternalApi?': 'boolean',
  'useKanban?': 'boolean',
  'useOpenAi?': 'boolean',
  'useIntegrations?': 'boolean',
})

export { date }
export type CreateCompanyInput = typeof createCompanyBody.infer
export type UpdateCompanyInput = typeof updateCompanyBody.infer
export type PlanInput = typeof planBody.infer
