/**
 * Campaign settings (spec 2, "Campaign settings"; section 9): per company, one `campaign_settings` row per key,
 * its value as JSON text. A key without a row answers its default. Admins only (the route says so); the
 * campaigns engine reads the same rows through `readCampaignSettings`. A save publishes `company-{id}-campaignSettings` to the admins.
 */

import type { Database } from 'bun:sqlite'
import {
  CAMPAIGN_SETTING_DEFAULTS,
  CAMPAIGN_SETTING_KEYS,
  type CampaignSettingItem,
  type CampaignSettingKey,
  type CampaignSettings,
  campaignSettingsOf,
  dailyLimitOf,
  sendWindowOf,
  uniqueVariables,
} from '../../../shared/campaign-settings'
import type { CampaignSettingsInput } from '../../../shared/schemas/campaign-settings'
import type { Ctx } from '../../context'
import { transact, userActor } from '../../context'
import { stmt } from '../../db/statements'
import type { Logger } from '../../logger'
import { channel, rooms } from '../../realtime/rooms'

type Row = { key: string; value: string }

/** Whether a stored value is one its setting takes: anything else is a broken row. */
function isSettingValue(key: string, value: unknown): boolean {
  switch (key as CampaignSettingKey) {
    case 'messageInterval':
    case 'longerIntervalAfter':
    case 'greaterInterval':
      return typeof value === 'number'
    case 'dailyLimit':
      return value === null || dailyLimitOf(value) === value
    case 'sendWindow':
      return value === null || sendWindowOf(value) !== null
    case 'variables':
      return (
        Array.isArray(value) && value.every((v) => typeof v?.key === 'string' && typeof v?.value === 'string')
      )
    default:
      return false
  }
}

/**
 * The company's settings, every key present: the stored value, or the default for a key without a row. The one
 * reader of `campaign_settings` (the page and the campaigns engine): a table that cannot be read throws, and a
 * row that is not JSON or holds a value its setting does not take is logged with its key, then reads as the
 * default (what a campaign then does is what the admin sees on the page), until an admin saves the setting again.
 */
export function readCampaignSettings(
  deps: { sqlite: Database; log: Logger },
  companyId: number,
): CampaignSettings {
  const rows = stmt<Row, [number]>(
    deps.sqlite,
    'SELECT key, value FROM campaign_settings WHERE company_id = ?',
  ).all(companyId)
  const items = rows.map((r) => {
    let value: unknown
    try {
      value = JSON.parse(r.value)
    } catch {
      value = undefined
    }
    if (value === undefined || !isSettingValue(r.key, value))
      deps.log.warn('campaign settings: a stored value is broken, its default applies', {
        companyId,
        key: r.key,
      })
    return { key: r.key, value }
  })
  return campaignSettingsOf(items)
}

function itemsOf(settings: CampaignSettings): CampaignSettingItem[] {
  return CAMPAIGN_SETTING_KEYS.map((key) => ({ key, value: settings[key] }) as CampaignSettingItem)
}

/** `GET /campaign-settings`: `[{ key, value }]` for every key, defaults where unset. */
export function getCampaignSettings(ctx: Ctx): CampaignSettingItem[] {
  const actor = userActor(ctx)
  return itemsOf(readCampaignSettings(ctx, actor.companyId))
}

/**
 * `POST /campaign-settings`: writes the keys the body holds (validated against the spec's options); variables
 * keep the first of each key. Answers the whole settings, as GET does.
 */
export function saveCampaignSettings(ctx: Ctx, input: CampaignSettingsInput): CampaignSettingItem[] {
  const actor = userActor(ctx)
  const given = input.settings
  const changes: Partial<CampaignSettings> = {}
  if (given.messageInterval !== undefined) changes.messageInterval = given.messageInterval
  if (given.longerIntervalAfter !== undefined) changes.longerIntervalAfter = given.longerIntervalAfter
  if (given.greaterInterval !== undefined) changes.greaterInterval = given.greaterInterval
  if (given.dailyLimit !== undefined) changes.dailyLimit = given.dailyLimit
  if (given.sendWindow !== undefined)
    changes.sendWindow = given.sendWindow && { start: given.sendWindow.start, end: given.sendWindow.end }
  if (given.variables !== undefined) changes.variables = uniqueVariables(given.variables)
  return transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    for (const key of Object.keys(changes) as CampaignSettingKey[]) {
      // null (dailyLimit: the warm-up; sendWindow: any hour) is stored as JSON null, read back as unset.
      stmt(
        sqlite,
        `INSERT INTO campaign_settings (company_id, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (company_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ).run(actor.companyId, key, JSON.stringify(changes[key] ?? CAMPAIGN_SETTING_DEFAULTS[key]), now, now)
    }
    const items = itemsOf(readCampaignSettings({ sqlite, log: ctx.log }, actor.companyId))
    events.publish(rooms.admins(actor.companyId), channel(actor.companyId, 'campaignSettings'), {
      action: 'update',
      settings: items,
    })
    return items
  })
}
