/**
 * The company's settings, shared by the pages that depend on them (the queue dialog reads scheduleType).
 * Seeded from the session user, refreshed by the settings page and by live `company-{id}-settings` events.
 */
import { computed, signal } from '@preact/signals-react'
import type { SettingItem } from '../../shared/api'
import { SETTINGS, type SettingKey } from '../../shared/settings'
import { DEFAULT_TIMEZONE, isValidTimeZone } from '../../shared/timezone'

export const settings = signal<SettingItem[]>([])

export function setSettings(list: SettingItem[]): void {
  settings.value = list
}

export function upsertSetting(item: SettingItem): void {
  const rest = settings.value.filter((s) => s.key !== item.key)
  settings.value = [...rest, item]
}

export function settingValue(key: SettingKey, list: SettingItem[] = settings.value): string {
  return list.find((s) => s.key === key)?.value ?? SETTINGS[key].default
}

/** Out-of-hours messages matter only when service hours are managed (scheduleType is not 'disabled'). */
export const scheduleEnabled = computed(() => settingValue('scheduleType') !== 'disabled')

/** The company's zone (the timezone setting), or the default. */
export function companyZone(): string {
  const tz = settingValue('timezone')
  return isValidTimeZone(tz) ? tz : DEFAULT_TIMEZONE
}
