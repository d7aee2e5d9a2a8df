import { type } from 'arktype'
import {
  CAMPAIGN_VARIABLE_KEY_MAX,
  CAMPAIGN_VARIABLE_VALUE_MAX,
  CAMPAIGN_VARIABLES_MAX,
  DAILY_LIMIT_MAX,
  DAILY_LIMIT_MIN,
  GREATER_INTERVAL_OPTIONS,
  HHMM,
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
} from '../campaign-settings'

const oneOf = (options: readonly number[]) =>
  type('number').narrow((n, ctx) => options.includes(n) || ctx.mustBe(`one of ${options.join(', ')}`))

/**
 * A custom variable: used as `{key}` in campaign messages, so its key is one word without braces. Values are
 * kept as written.
 */
export const campaignVariable = type({
  '+': 'delete',
  key: type('string.trim')
    .to(`1 <= string <= ${CAMPAIGN_VARIABLE_KEY_MAX}`)
    .narrow((s, ctx) => /^[^\s{}]+$/u.test(s) || ctx.mustBe('one word without spaces or braces')),
  value: `string <= ${CAMPAIGN_VARIABLE_VALUE_MAX}`,
})

const hhmm = type('string').narrow((s, ctx) => HHMM.test(s) || ctx.mustBe('a time HH:MM (00:00 to 23:59)'))

/** The sending window: two HH:MM times that differ; an end before the start crosses midnight. */
export const sendWindow = type({ '+': 'delete', start: hhmm, end: hhmm }).narrow(
  (w, ctx) => w.start !== w.end || ctx.mustBe('a window whose start and end differ'),
)

/** The daily cap per connection: a whole number, or null for the warm-up. */
export const dailyLimit = type(`${DAILY_LIMIT_MIN} <= number.integer <= ${DAILY_LIMIT_MAX}`).or('null')

/**
 * `POST /campaign-settings`: `{ settings }` with any of the keys; each interval one of the spec's options,
 * dailyLimit a whole number 1..10000 or null (the warm-up), sendWindow `{ start, end }` HH:MM or null (any
 * hour), variables a list of `{ key, value }` (duplicated keys: the first counts, the rest are ignored). Keys
 * left out keep their values; unknown keys are dropped.
 */
export const campaignSettingsBody = type({
  '+': 'delete',
  settings: {
    '+': 'delete',
    'messageInterval?': oneOf(MESSAGE_INTERVAL_OPTIONS),
    'longerIntervalAfter?': oneOf(LONGER_INTERVAL_OPTIONS),
    'greaterInterval?': oneOf(GREATER_INTERVAL_OPTIONS),
    'dailyLimit?': dailyLimit,
    'sendWindow?': sendWindow.or('null'),
    'variables?': campaignVariable.array().atMostLength(CAMPAIGN_VARIABLES_MAX),
  },
})

export type CampaignSettingsInput = typeof campaignSettingsBody.infer
