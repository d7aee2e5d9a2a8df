import type { WhatsappDto } from '../../../shared/api'

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
  importOldMessages: string
  importRecentMessages: string
  importOldMessagesGroups: boolean
  closedTicketsPostImported: boolean
  token: string
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
  importOldMessages: '',
  importRecentMessages: '',
  importOldMessagesGroups: false,
  closedTicketsPostImported: false,
  token: '',
}

export const TAB_KEYS = ['general', 'queues', 'nps', 'vacation', 'import', 'integration'] as const
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
  importOldMessages: 'import',
  importRecentMessages: 'import',
  importOldMessagesGroups: 'import',
  closedTicketsPostImported: 'import',
  token: 'integration',
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
    importOldMessages: w.importOldMessages ?? '',
    importRecentMessages: w.importRecentMessages ?? '',
    importOldMessagesGroups: w.importOldMessagesGroups,
    closedTicketsPostImported: w.closedTicketsPostImported,
    token: w.token ?? '',
  }
}

/** Minutes: whole numbers up to a year (the server's limit). */
const MAX_MINUTES = 525600
const MINUTE_FIELDS = ['timeSendQueue', 'timeUseBotQueues', 'expiresTicket', 'expiresTicketNPS'] as const
const COUNT_FIELDS = ['maxUseBotQueues', 'maxUseBotQueuesNPS'] as const

const num = (v: string) => (v.trim() === '' ? 0 : Number(v))

export function validateConnection(form: ConnectionForm, t: (k: string) => string): ConnectionErrors {
  const errors: ConnectionErrors = {}
  const name = form.name.trim()
  if (!name) errors.name = t('validation.required')
  else if (name.length < 2) errors.name = t('validation.tooShort')
  else if (name.length > 50) errors.name = t('validation.tooLong')

  for (const key of MINUTE_FIELDS) {
    const v = form[key].trim()
    if (v !== '' && !(/^\d+$/.test(v) && Number(v) <= MAX_MINUTES))
      errors[key] = t('connections.errors.minutes')
  }
  for (const key of COUNT_FIELDS) {
    const v = form[key].trim()
    if (v !== '' && !(/^\d+$/.test(v) && Number(v) <= 100)) errors[key] = t('connections.errors.count')
  }

  if (form.queueIds.length > 1 && !form.greetingMessage.trim())
    errors.greetingMessage = t('connections.errors.greetingRequired')

  // A redirect time needs a queue, and the reverse.
  if (!errors.timeSendQueue) {
    if (num(form.timeSendQueue) > 0 && !form.sendIdQueue)
      errors.sendIdQueue = t('connections.errors.redirectQueue')
    if (form.sendIdQueue && num(form.timeSendQueue) <= 0)
      errors.timeSendQueue = t('connections.errors.redirectTime')
  }

  // NPS needs a time and a rating message.
  if (!errors.expiresTicketNPS) {
    if (num(form.expiresTicketNPS) > 0 && !form.ratingMessage.trim())
      errors.ratingMessage = t('connections.errors.npsMessage')
    if (form.ratingMessage.trim() && num(form.expiresTicketNPS) <= 0)
      errors.expiresTicketNPS = t('connections.errors.npsTime')
  }

  if (
    form.collectiveVacationStart &&
    form.collectiveVacationEnd &&
    form.collectiveVacationEnd < form.collectiveVacationStart
  )
    errors.collectiveVacationEnd = t('connections.errors.vacationEnd')
  return errors
}

/** The body of POST / PUT /api/whatsapp. `provider` only on create; `token` only when regenerated. */
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
    importOldMessages: form.importOldMessages || null,
    importRecentMessages: form.importRecentMessages || null,
    importOldMessagesGroups: form.importOldMessagesGroups,
    closedTicketsPostImported: form.closedTicketsPostImported,
  }
  if (creating) body.provider = form.provider
  return body
}
