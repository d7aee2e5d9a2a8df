/**
 * Campaign settings (spec 2, "Campaign settings", section 9): the pacing of campaign sends and the company's
 * custom variables. Stored one row per key (`campaign_settings`), each value as JSON; a key with no row has its
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

export type CampaignSettings = {
  messageInterval: number
  longerIntervalAfter: number
  greaterInterval: number
  variables: CampaignVariable[]
}

export type CampaignSettingKey = keyof CampaignSettings

export const CAMPAIGN_SETTING_KEYS = [
  'messageInterval',
  'longerIntervalAfter',
  'greaterInterval',
  'variables',
] as const satisfies readonly CampaignSettingKey[]

export const CAMPAIGN_SETTING_DEFAULTS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
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
