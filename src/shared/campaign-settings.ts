/**
 * Campaign settings (spec 2, "Campaign settings", section 9): the pacing of campaign sends, the protection of the
 * number (daily cap per connection, sending window) and the company's custom variables. Stored one row per key (`campaign_settings`), each value as JSON; a key with no row has its
 * default here.
 */

/** Random send interval, in seconds (spec: 0, 5, 10, 15, 20; default 20). */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const
/** Longer interval after (how many sends) and greater send interval (seconds): the same list. */
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const
export const GREATER_INTERVAL_OPTIONS = LONGER_INTERVAL_OPTIONS

/** A custom variable, used as `{key}` in campaign messages. */
export type CampaignVariable = { key: string; value: string }

export const CAMPAIGN_VARIABLE_KEY_MAX = 50
export const CAMPAIGN_VARIABLE_VALUE_MAX = 1000
export const CAMPAIGN_VARIABLES_MAX = 100

/** The explicit daily cap per connection: a whole number in this range (null: the warm-up). */
export const DAILY_LIMIT_MIN = 1
export const DAILY_LIMIT_MAX = 10_000
/** The warm-up when no daily cap is set: 50 messages on a number's first sending day, +50 a day, up to 500. */
export const WARMUP_FIRST_DAY = 50
export const WARMUP_STEP = 50
export const WARMUP_MAX = 500

/** HH:MM, 00:00..23:59. */
export const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/

/**
 * The sending window, in the company's time zone: sends go from `start` (inclusive) to `end` (exclusive). An
 * `end` before `start` crosses midnight (22:00-06:00 is the night). `start` and `end` differ.
 */
export type SendWindow = { start: string; end: string }

/** Minutes of the day of an HH:MM text, or null. */
export function minutesOf(value: unknown): number | null {
  const m = typeof value === 'string' ? HHMM.exec(value) : null
  return m ? Number(m[1]) * 60 + Number(m[2]) : null
}

/** A stored or given window, if it is one the engine uses (two valid, different times); otherwise null. */
export function sendWindowOf(value: unknown): SendWindow | null {
  const w = value as { start?: unknown; end?: unknown } | null
  const start = minutesOf(w?.start)
  const end = minutesOf(w?.end)
  return start != null && end != null && start !== end
    ? { start: w!.start as string, end: w!.end as string }
    : null
}

/** A stored daily cap, if it is one the engine uses; otherwise null (the warm-up). */
export function dailyLimitOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= DAILY_LIMIT_MIN
    ? Math.min(value, DAILY_LIMIT_MAX)
    : null
}

export type CampaignSettings = {
  messageInterval: number
  longerIntervalAfter: number
  greaterInterval: number
  /** Messages a day per connection; null: the warm-up. */
  dailyLimit: number | null
  /** null: any hour (the default). */
  sendWindow: SendWindow | null
  variables: CampaignVariable[]
}

export type CampaignSettingKey = keyof CampaignSettings

export const CAMPAIGN_SETTING_KEYS = [
  'messageInterval',
  'longerIntervalAfter',
  'greaterInterval',
  'dailyLimit',
  'sendWindow',
  'variables',
] as const satisfies readonly CampaignSettingKey[]

export const CAMPAIGN_SETTING_DEFAULTS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  dailyLimit: null,
  sendWindow: null,
  variables: [],
}

/** One item of `GET /campaign-settings`: a key and its value (parsed JSON). */
export type CampaignSettingItem = {
  [K in CampaignSettingKey]: { key: K; value: CampaignSettings[K] }
}[CampaignSettingKey]

/** The items as one object, every key present (the default where an item is missing or malformed). */
export function campaignSettingsOf(items: readonly { key: string; value: unknown }[]): CampaignSettings {
  const out: CampaignSettings = { ...CAMPAIGN_SETTING_DEFAULTS, variables: [] }
  for (const item of items) {
    if (item.key === 'variables' && Array.isArray(item.value))
      out.variables = item.value.filter(
        (v): v is CampaignVariable => typeof v?.key === 'string' && typeof v?.value === 'string',
      )
    else if (item.key === 'dailyLimit') out.dailyLimit = dailyLimitOf(item.value)
    else if (item.key === 'sendWindow') out.sendWindow = sendWindowOf(item.value)
    else if (
      (item.key === 'messageInterval' ||
        item.key === 'longerIntervalAfter' ||
        item.key === 'greaterInterval') &&
      typeof item.value === 'number'
    )
      out[item.key] = item.value
  }
  return out
}

/** Keeps the first of each key (keys compared after trimming); later duplicates are ignored. */
export function uniqueVariables(variables: readonly CampaignVariable[]): CampaignVariable[] {
  const seen = new Set<string>()
  const out: CampaignVariable[] = []
  for (const v of variables) {
    const key = v.key.trim()
    if (!key || seen.has(key)) continue
    seen.add(key)
    out.push({ key, value: v.value })
  }
  return out
}
