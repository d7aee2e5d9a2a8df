import { type } from 'arktype'
import { text } from './common'

const color = type('string.trim').to(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/)

export const queueBody = type({
  '+': 'delete',
  name: text(2, 50),
  color: color.describe('a colour such as #3284FE'),
  'orderQueue?': '0 <= number.integer <= 9999 | null',
  'greetingMessage?': 'string <= 4000 | null',
  'outOfHoursMessage?': 'string <= 4000 | null',
})

export type QueueInput = typeof queueBody.infer
