import type { Database } from 'bun:sqlite'
import { and, eq } from 'drizzle-orm'
import type { SettingItem } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import { defaultSettings, isSettingKey, SETTING_KEYS, SETTINGS } from '../../../shared/settings'
import { DEFAULT_TIMEZONE, isValidTimeZone } from '../../../shared/timezone'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import type { DB } from '../../db/client'
import { settings } from '../../db/schema'
import { stmt } from '../../db/statements'
import { channel, rooms } from '../../realtime/rooms'

/** Writes any missing setting of the catalogue with its default; run for every new company. */
export function ensureDefaultSettings(tx: DB, companyId: number, now: number) {
  tx.insert(settings)
    .values(defaultSettings().map((s) => ({ ...s, companyId, createdAt: now, updatedAt: now })))
    .onConflictDoNothing()
    .run()
}

export function companySettings(db: DB, companyId: number): SettingItem[] {
  const rows = db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, companyId))
    .all()
  const stored = new Map(rows.map((r) => [r.key, r.value]))
  return SETTING_KEYS.map((key) => ({ key, value: stored.get(key) ?? SETTINGS[key].default }))
}

export function listSettings(ctx: Ctx): SettingItem[] {
  return companySettings(ctx.db, ctx.actor.companyId)
}

export function updateSetting(ctx: Ctx, key: string, value: string): SettingItem {
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', `Unknown setting ${key}`)
  const allowed: readonly string[] = SETTINGS[key].values
  if (!allowed.includes(value)) throw fieldError('value', `${key} must be one of: ${allowed.join(', ')}`)
  const { companyId } = ctx.actor
  return transact(ctx, (tx, events) => {
    const now = ctx.clock.now()
    tx.insert(settings)
      .values({ companyId, key, value, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: now } })
      .run()
    const setting = { key, value }
    events.publish(rooms.company(companyId), channel(companyId, 'settings'), { action: 'update', setting })
    return setting
  })
}

export function settingValue(db: DB, companyId: number, key: keyof typeof SETTINGS) {
  return (
    db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
      .get()?.value ?? SETTINGS[key].default
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
