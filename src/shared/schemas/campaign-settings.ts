import { type } from 'arktype'
import {
  CAMPAIGN_VARIABLE_KEY_MAX,
  CAMPAIGN_VARIABLE_VALUE_MAX,
  CAMPAIGN_VARIABLES_MAX,
  GREATER_INTERVAL_OPTIONS,
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

/**
 * `POST /campaign-settings`: `{ settings }` with any of the four keys; each interval one of the spec's options,
 * variables a list of `{ key, value }` (duplicated keys: the first counts, the rest are ignored). Keys left out
 * keep their values; unknown keys are dropped.
 */
export const campaignSettingsBody = type({
  '+': 'delete',
  settings: {
    '+': 'delete',
    'messageInterval?': oneOf(MESSAGE_INTERVAL_OPTIONS),
    'longerIntervalAfter?': oneOf(LONGER_INTERVAL_OPTIONS),
    'greaterInterval?': oneOf(GREATER_INTERVAL_OPTIONS),
    'variables?': campaignVariable.array().atMostLength(CAMPAIGN_VARIABLES_MAX),
  },
})

export type CampaignSettingsInput = typeof campaignSettingsBody.infer
