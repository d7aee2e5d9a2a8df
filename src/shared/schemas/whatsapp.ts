import { type } from 'arktype'
import { emptyAsAbsent, nullableId, text } from './common'
import { schedulesField } from './service-hours'

/** Minutes, or an emptied input (`""`): not given. */
const minutes = emptyAsAbsent(type('0 <= number.integer <= 525600'))
const uses = emptyAsAbsent(type('0 <= number.integer <= 100'))
const message = 'string <= 4000'
const date = type(/^\d{4}-\d{2}-\d{2}$/)
  .or("''")
  .or('null')
  .pipe((s) => s || null)
/** The privacy-policy link sent with the LGPD consent message: an http(s) address, or empty. */
const link = type('string <= 500').narrow(
  (s, ctx) => s === '' || /^https?:\/\/[^\s]+$/i.test(s) || ctx.mustBe('an http(s) address'),
)

/** `token` is not here: the server makes it (see POST /whatsapp/{id}/token), and drops one sent in a body. */
const connectionFields = {
  '+': 'delete',
  'isDefault?': 'boolean',
  'greetingMessage?': message,
  'complationMessage?': message,
  'outOfHoursMessage?': message,
  'ratingMessage?': message,
  'timeSendQueue?': minutes,
  'sendIdQueue?': nullableId,
  'expiresInactiveMessage?': message,
  'expiresTicket?': minutes,
  'timeUseBotQueues?': minutes,
  'maxUseBotQueues?': uses,
  'promptId?': nullableId,
  'integrationId?': nullableId,
  'allowGroup?': 'boolean',
  'expiresTicketNPS?': minutes,
  'maxUseBotQueuesNPS?': uses,
  'collectiveVacationStart?': date,
  'collectiveVacationEnd?': date,
  'collectiveVacationMessage?': message,
  'enableLGPD?': 'boolean',
  'lgpdMessage?': message,
  'lgpdLink?': link,
  'lgpdConsent?': 'boolean',
  /** The connection's service hours (scheduleType 'connection'); null: the spec's default hours. */
  'schedules?': schedulesField,
  'importOldMessages?': date,
  'importRecentMessages?': date,
  'importOldMessagesGroups?': 'boolean',
  'closedTicketsPostImported?': 'boolean',
  'queueIds?': 'number.integer[] <= 200',
} as const

/** Without `provider`, a --sandbox server makes a sandbox connection, any other server a real one (beta). */
export const createConnectionBody = type({
  ...connectionFields,
  name: text(2, 50),
  'provider?': "'beta' | 'sandbox'",
})

export const updateConnectionBody = type({ ...connectionFields, 'name?': text(2, 50) })

export const startSessionBody = type({
  '+': 'delete',
  'phone?': type(/^\d{8,15}$/).describe('digits only, 8 to 15'),
})

export type CreateConnectionInput = typeof createConnectionBody.infer
export type UpdateConnectionInput = typeof updateConnectionBody.infer
