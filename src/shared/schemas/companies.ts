import { type } from 'arktype'
import { NO_DUE_DATE, PLAN_VALUE_MAX, parseBrl, RECURRENCES } from '../plans'
import { email, password, text } from './common'

const date = type(/^\d{4}-\d{2}-\d{2}$/).describe('a date as YYYY-MM-DD')
/** The spec: an empty or invalid due date becomes null; so does NO_DUE_DATE, the API's answer for "none". */
const dueDate = type('string | null').pipe((s) =>
  s && s !== NO_DUE_DATE && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) ? s : null,
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

/** A monthly price: a number, or a text as people write it ('149,90', '149.90', '1.234,56'). */
const planValue = type(`0 <= number <= ${PLAN_VALUE_MAX}`).or(
  type('string').pipe((s, ctx) => parseBrl(s) ?? ctx.error('a price in reais such as 149.90 or "149,90"')),
)

export const planBody = type({
  '+': 'delete',
  name: text(2, 50),
  'value?': planValue,
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
