import { AppError } from '../../../shared/errors'
import {
  isPlatformSettingKey,
  PLATFORM_SETTING_KEYS,
  PLATFORM_SETTINGS,
  type PlatformSettingDto,
  type PlatformSettingKey,
} from '../../../shared/platform-settings'
import type { Ctx, Deps } from '../../context'
import { transact } from '../../context'
import { open, seal } from '../../crypto/sealed'
import { stmt } from '../../db/statements'

type Reader = Pick<Deps, 'sqlite' | 'secrets' | 'env'>

function storedValue(deps: Reader, key: PlatformSettingKey): string | null {
  const row = stmt<{ value: string }, [string]>(
    deps.sqlite,
    'SELECT value FROM platform_settings WHERE key = ?',
  ).get(key)
  if (!row) return null
  return PLATFORM_SETTINGS[key].secret ? open(deps.secrets, row.value) : row.value
}

function environmentValue(deps: Reader, key: PlatformSettingKey): string | null {
  return deps.env[PLATFORM_SETTINGS[key].env]?.trim() || null
}

/** The value in force: saved in Settings, else the environment's, else null. */
export function platformSetting(deps: Reader, key: PlatformSettingKey): string | null {
  return storedValue(deps, key) ?? environmentValue(deps, key)
}

function toDto(deps: Reader, key: PlatformSettingKey): PlatformSettingDto {
  const { secret, env } = PLATFORM_SETTINGS[key]
  const stored = storedValue(deps, key)
  const value = stored ?? environmentValue(deps, key)
  return {
    key,
    value: secret ? null : value,
    secret,
    isSet: value !== null,
    source: stored !== null ? 'settings' : value !== null ? 'environment' : null,
    env,
  }
}

/** GET /platform-settings (super users): every key, secrets shown only as set or not. */
export function listPlatformSettings(ctx: Ctx): PlatformSettingDto[] {
  return PLATFORM_SETTING_KEYS.map((key) => toDto(ctx, key))
}

/** PUT /platform-settings/{key}: saves a value (sealed when secret); null or blank removes it. */
export function updatePlatformSetting(ctx: Ctx, key: string, value: string | null): PlatformSettingDto {
  if (!isPlatformSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', 'No such platform setting')
  const text = value?.trim() ?? ''
  const { max, secret } = PLATFORM_SETTINGS[key]
  if (text.length > max) {
    throw new AppError('ERR_VALIDATION', `At most ${max} characters`, undefined, [
      { field: 'value', message: `must be at most ${max} characters` },
    ])
  }
  transact(ctx, (sqlite) => {
    if (!text) {
      stmt<unknown, [string]>(sqlite, 'DELETE FROM platform_settings WHERE key = ?').run(key)
      return
    }
    const stored = secret ? seal(ctx.secrets, text) : text
    const now = ctx.clock.now()
    stmt<unknown, [string, string, number, string, number]>(
      sqlite,
      `INSERT INTO platform_settings (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = ?, updated_at = ?`,
    ).run(key, stored, now, stored, now)
  })
  return toDto(ctx, key)
}
