/**
 * The company settings catalogue: every key a company has, the values it takes and its default.
 * The server creates these rows for every company and refuses unknown keys and values.
 */
import { DEFAULT_TIMEZONE, timeZoneNames } from './timezone'

const ENABLED = ['enabled', 'disabled'] as const

export const SETTINGS = {
  userRating: { values: ENABLED, default: 'disabled' },
  scheduleType: { values: ['disabled', 'queue', 'company', 'connection'], default: 'disabled' },
  CheckMsgIsGroup: { values: ENABLED, default: 'enabled' },
  call: { values: ENABLED, default: 'disabled' },
  chatBotType: { values: ['text', 'button', 'list'], default: 'text' },
  sendGreetingAccepted: { values: ENABLED, default: 'disabled' },
  sendMsgTransfTicket: { values: ENABLED, default: 'disabled' },
  requiredTag: { values: ENABLED, default: 'disabled' },
  sendSignMessage: { values: ENABLED, default: 'enabled' },
  campaignsEnabled: { values: ['true', 'false'], default: 'true' },
  /** The company's time zone (an IANA name Intl knows): schedule times are entered, shown and repeated in it. */
  timezone: { values: timeZoneNames(), default: DEFAULT_TIMEZONE },
} as const satisfies Record<string, { values: readonly string[]; default: string }>

export type SettingKey = keyof typeof SETTINGS
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[]

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key)
}

export function defaultSettings(): { key: SettingKey; value: string }[] {
  return SETTING_KEYS.map((key) => ({ key, value: SETTINGS[key].default }))
}
