import type { Database } from 'bun:sqlite'
import type { SettingItem } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { defaultSettings, isSettingKey, SETTING_KEYS, SETTINGS } from '../../../shared/settings'
import { DEFAULT_TIMEZONE, isValidTimeZone } from '../../../shared/timezone'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import { type Connection, sqliteOf } from '../../db/connection'
import { stmt } from '../../db/statements'
import { channel, rooms } from '../../realtime/rooms'

/** Writes any missing setting of the catalogue with its default; run for every new company. */
export function ensureDefaultSettings(tx: Connection, companyId: number, now: number) {
  const insert = stmt<unknown, [number, string, string, number, number]>(
    sqliteOf(tx),
    `INSERT INTO settings (company_id, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  )
  for (const s of defaultSettings()) insert.run(companyId, s.key, s.value, now, now)
}

export function companySettings(db: Connection, companyId: number): SettingItem[] {
  const rows = stmt<{ key: string; value: string }, [number]>(
    sqliteOf(db),
    'SELECT key, value FROM settings WHERE company_id = ?',
  ).all(companyId)
  const stored = new Map(rows.map((r) => [r.key, r.value]))
  return SETTING_KEYS.map((key) => ({ key, value: stored.get(key) ?? SETTINGS[key].default }))
}

export function listSettings(ctx: Ctx): SettingItem[] {
  return companySettings(ctx.sqlite, ctx.actor.companyId)
}

export function updateSetting(ctx: Ctx, key: string, value: string): SettingItem {
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', `Unknown setting ${key}`)
  const allowed: readonly string[] = SETTINGS[key].values
  if (!allowed.includes(value)) throw fieldError('value', `${key} must be one of: ${allowed.join(', ')}`)
  const { companyId } = ctx.actor
  return transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    stmt<unknown, [number, string, string, number, number, string, number]>(
      sqlite,
      `INSERT INTO settings (company_id, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (company_id, key) DO UPDATE SET value = ?, updated_at = ?`,
    ).run(companyId, key, value, now, now, value, now)
    const setting = { key, value }
    events.publish(rooms.company(companyId), channel(companyId, 'settings'), { action: 'update', setting })
    return setting
  })
}

export function settingValue(db: Connection, companyId: number, key: keyof typeof SETTINGS) {
  return (
    stmt<{ value: string }, [number, string]>(
      sqliteOf(db),
      'SELECT value FROM settings WHERE company_id = ? AND key = ?',
    ).get(companyId, key)?.value ?? SETTINGS[key].default
  )
}

/**
 * The company's time zone: its `timezone` setting, or America/Sao_Paulo when unset or unknown to Intl. Schedules,
 * service hours and greetings ({{ms}}, {{protocol}}) all read it here.
 */
export function companyTimeZone(sqlite: Database, companyId: number): string {
  const row = stmt<{ value: string }, [number]>(
    sqlite,
    "SELECT value FROM settings WHERE company_id = ? AND key = 'timezone'",
  ).get(companyId)
  return row && isValidTimeZone(row.value) ? row.value : DEFAULT_TIMEZONE
}
