import { type } from 'arktype'
import { nullableId, text } from './common'
import { schedulesField } from './service-hours'

const color = type('string.trim').to(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/)

/** An id of another area (integrations, prompts), or null for none. */
const optionalRef = nullableId

export const queueBody = type({
  '+': 'delete',
  name: text(2, 50),
  color: color.describe('a colour such as #3284FE'),
  'orderQueue?': '0 <= number.integer <= 9999 | null',
  'greetingMessage?': 'string <= 4000 | null',
  'outOfHoursMessage?': 'string <= 4000 | null',
  /** Service hours; absent or null on create gives the spec's defaults, absent on update keeps them. */
  'schedules?': schedulesField,
  'integrationId?': optionalRef,
  'promptId?': optionalRef,
  /** A file list of the company (sent by the chatbot when a ticket enters the queue); null for none. */
  'fileListId?': optionalRef,
})

export type QueueInput = typeof queueBody.infer
