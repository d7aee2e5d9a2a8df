import type { WhatsappDto } from '../../../shared/api'
import { defaultSchedules, type ScheduleEntry } from '../../../shared/schedules'
import { createConnectionBody, updateConnectionBody } from '../../../shared/schemas/whatsapp'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { schedulesValid } from '../queues/ScheduleEditor'

export type ConnectionForm = {
  name: string
  provider: 'beta' | 'sandbox'
  isDefault: boolean
  queueIds: number[]
  greetingMessage: string
  complationMessage: string
  outOfHoursMessage: string
  allowGroup: boolean
  timeSendQueue: string
  sendIdQueue: number | null
  integrationId: number | null
  /** An AI prompt of the company (answers tickets of this connection without a queue), or none. */
  promptId: number | null
  timeUseBotQueues: string
  maxUseBotQueues: string
  expiresTicket: string
  expiresInactiveMessage: string
  ratingMessage: string
  expiresTicketNPS: string
  maxUseBotQueuesNPS: string
  collectiveVacationStart: string
  collectiveVacationEnd: string
  collectiveVacationMessage: string
  enableLGPD: boolean
  lgpdMessage: string
  lgpdLink: string
  lgpdConsent: boolean
  /** The connection's service hours (scheduleType 'connection'). */
  schedules: ScheduleEntry[]
  importOldMessages: string
  importRecentMessages: string
  importOldMessagesGroups: boolean
  closedTicketsPostImported: boolean
}

export type ConnectionField = keyof ConnectionForm
export type ConnectionErrors = Partial<Record<ConnectionField, string>>

/** The spec's defaults: timeSendQueue 0, expiresTicket 0, maxUseBotQueues 3. */
export const EMPTY_CONNECTION: ConnectionForm = {
  name: '',
  provider: 'beta',
  isDefault: false,
  queueIds: [],
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  allowGroup: false,
  timeSendQueue: '0',
  sendIdQueue: null,
  integrationId: null,
  promptId: null,
  timeUseBotQueues: '0',
  maxUseBotQueues: '3',
  expiresTicket: '0',
  expiresInactiveMessage: '',
  ratingMessage: '',
  expiresTicketNPS: '0',
  maxUseBotQueuesNPS: '0',
  collectiveVacationStart: '',
  collectiveVacationEnd: '',
  collectiveVacationMessage: '',
  enableLGPD: false,
  lgpdMessage: '',
  lgpdLink: '',
  lgpdConsent: false,
  schedules: defaultSchedules(),
  importOldMessages: '',
  importRecentMessages: '',
  importOldMessagesGroups: false,
  closedTicketsPostImported: false,
}

export const TAB_KEYS = [
  'general',
  'queues',
  'nps',
  'vacation',
  'lgpd',
  'hours',
  'import',
  'integration',
] as const
export type TabKey = (typeof TAB_KEYS)[number]

/** Which tab holds each field (the dialog opens the tab of the first error). */
export const FIELD_TAB: Record<ConnectionField, TabKey> = {
  name: 'general',
  provider: 'general',
  isDefault: 'general',
  queueIds: 'general',
  greetingMessage: 'general',
  complationMessage: 'general',
  outOfHoursMessage: 'general',
  allowGroup: 'general',
  timeSendQueue: 'queues',
  sendIdQueue: 'queues',
  integrationId: 'queues',
  promptId: 'queues',
  timeUseBotQueues: 'queues',
  maxUseBotQueues: 'queues',
  expiresTicket: 'queues',
  expiresInactiveMessage: 'queues',
  ratingMessage: 'nps',
  expiresTicketNPS: 'nps',
  maxUseBotQueuesNPS: 'nps',
  collectiveVacationStart: 'vacation',
  collectiveVacationEnd: 'vacation',
  collectiveVacationMessage: 'vacation',
  enableLGPD: 'lgpd',
  lgpdMessage: 'lgpd',
  lgpdLink: 'lgpd',
  lgpdConsent: 'lgpd',
  schedules: 'hours',
  importOldMessages: 'import',
  importRecentMessages: 'import',
  importOldMessagesGroups: 'import',
  closedTicketsPostImported: 'import',
}

/** Field order, for "the first error". */
export const FIELD_ORDER = Object.keys(FIELD_TAB) as ConnectionField[]

export function firstErrorTab(errors: ConnectionErrors): TabKey | null {
  const first = FIELD_ORDER.find((f) => errors[f])
  return first ? FIELD_TAB[first] : null
}

export function fromDto(w: WhatsappDto): ConnectionForm {
  const n = (v: number | null | undefined, fallback = 0) => String(v ?? fallback)
  return {
    name: w.name,
    provider: w.provider,
    isDefault: w.isDefault,
    queueIds: w.queues.map((q) => q.id),
    greetingMessage: w.greetingMessage ?? '',
    complationMessage: w.complationMessage ?? '',
    outOfHoursMessage: w.outOfHoursMessage ?? '',
    allowGroup: w.allowGroup,
    timeSendQueue: n(w.timeSendQueue),
    sendIdQueue: w.sendIdQueue ?? null,
    integrationId: w.integrationId ?? null,
    promptId: w.promptId ?? null,
    timeUseBotQueues: n(w.timeUseBotQueues),
    maxUseBotQueues: n(w.maxUseBotQueues, 3),
    expiresTicket: n(w.expiresTicket),
    expiresInactiveMessage: w.expiresInactiveMessage ?? '',
    ratingMessage: w.ratingMessage ?? '',
    expiresTicketNPS: n(w.expiresTicketNPS),
    maxUseBotQueuesNPS: n(w.maxUseBotQueuesNPS),
    collectiveVacationStart: w.collectiveVacationStart ?? '',
    collectiveVacationEnd: w.collectiveVacationEnd ?? '',
    collectiveVacationMessage: w.collectiveVacationMessage ?? '',
    enableLGPD: !!w.enableLGPD,
    lgpdMessage: w.lgpdMessage ?? '',
    lgpdLink: w.lgpdLink ?? '',
    lgpdConsent: !!w.lgpdConsent,
    schedules: w.schedules?.length ? w.schedules : defaultSchedules(),
    importOldMessages: w.importOldMessages ?? '',
    importRecentMessages: w.importRecentMessages ?? '',
    importOldMessagesGroups: w.importOldMessagesGroups,
    closedTicketsPostImported: w.closedTicketsPostImported,
  }
}

const num = (v: string) => (v.trim() === '' ? 0 : Number(v))

/** The spec's messages for numbers the schema refuses (minutes up to a year, counts up to 100). */
const NUMBER_MESSAGES = {
  timeSendQueue: 'connections.errors.minutes',
  timeUseBotQueues: 'connections.errors.minutes',
  expiresTicket: 'connections.errors.minutes',
  expiresTicketNPS: 'connections.errors.minutes',
  maxUseBotQueues: 'connections.errors.count',
  maxUseBotQueuesNPS: 'connections.errors.count',
  lgpdLink: 'connections.errors.lgpdLink',
}

/**
 * The server's schema (name 2..50, minutes, counts, dates, message lengths) with the spec's messages, then the
 * spec's rules between fields: a redirect time needs a queue and the reverse; NPS needs a time and a rating
 * message; a greeting is required with more than one queue; the vacation ends after it starts.
 */
export function validateConnection(
  form: ConnectionForm,
  creating: boolean,
  t: (k: string) => string,
): ConnectionErrors {
  const schema = creating ? createConnectionBody : updateConnectionBody
  const errors = schemaErrors<ConnectionField>(schema(toBody(form, creating)), t, NUMBER_MESSAGES)

  if (form.queueIds.length > 1 && !form.greetingMessage.trim())
    errors.greetingMessage ??= t('connections.errors.greetingRequired')

  if (!errors.timeSendQueue) {
    if (num(form.timeSendQueue) > 0 && !form.sendIdQueue)
      errors.sendIdQueue = t('connections.errors.redirectQueue')
    if (form.sendIdQueue && num(form.timeSendQueue) <= 0)
      errors.timeSendQueue = t('connections.errors.redirectTime')
  }

  if (!errors.expiresTicketNPS) {
    if (num(form.expiresTicketNPS) > 0 && !form.ratingMessage.trim())
      errors.ratingMessage ??= t('connections.errors.npsMessage')
    if (form.ratingMessage.trim() && num(form.expiresTicketNPS) <= 0)
      errors.expiresTicketNPS = t('connections.errors.npsTime')
  }

  if (
    form.collectiveVacationStart &&
    form.collectiveVacationEnd &&
    form.collectiveVacationEnd < form.collectiveVacationStart
  )
    errors.collectiveVacationEnd ??= t('connections.errors.vacationEnd')
  if (form.enableLGPD && form.lgpdConsent && !form.lgpdMessage.trim())
    errors.lgpdMessage ??= t('connections.errors.lgpdMessage')
  if (!schedulesValid(form.schedules)) errors.schedules = t('chatbot.hours.invalidTime')
  return errors
}

/** The body of POST / PUT /api/whatsapp. `provider` only on create (the server makes the token). */
export function toBody(form: ConnectionForm, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: form.name.trim(),
    isDefault: form.isDefault,
    queueIds: form.queueIds,
    greetingMessage: form.greetingMessage,
    complationMessage: form.complationMessage,
    outOfHoursMessage: form.outOfHoursMessage,
    allowGroup: form.allowGroup,
    timeSendQueue: num(form.timeSendQueue),
    sendIdQueue: form.sendIdQueue,
    integrationId: form.integrationId,
    promptId: form.promptId,
    timeUseBotQueues: num(form.timeUseBotQueues),
    maxUseBotQueues: num(form.maxUseBotQueues),
    expiresTicket: num(form.expiresTicket),
    expiresInactiveMessage: form.expiresInactiveMessage,
    ratingMessage: form.ratingMessage,
    expiresTicketNPS: num(form.expiresTicketNPS),
    maxUseBotQueuesNPS: num(form.maxUseBotQueuesNPS),
    collectiveVacationStart: form.collectiveVacationStart || null,
    collectiveVacationEnd: form.collectiveVacationEnd || null,
    collectiveVacationMessage: form.collectiveVacationMessage,
    enableLGPD: form.enableLGPD,
    lgpdMessage: form.lgpdMessage,
    lgpdLink: form.lgpdLink.trim(),
    lgpdConsent: form.lgpdConsent,
    importOldMessages: form.importOldMessages || null,
    importRecentMessages: form.importRecentMessages || null,
    importOldMessagesGroups: form.importOldMessagesGroups,
    closedTicketsPostImported: form.closedTicketsPostImported,
  }
  // checked apart (validateConnection), so a half-typed time does not read as a schema error of the whole list
  if (schedulesValid(form.schedules)) body.schedules = form.schedules
  if (creating) body.provider = form.provider
  return body
}
