/**
 * Whether a campaign may still be edited (spec 2: "editable only when inactive, or when scheduled with its start
 * more than 1 hour ahead", and "a cancelled campaign can still be saved": saving it makes it a draft again, or
 * schedules it again when it has a time). The server refuses a PUT otherwise; the web shows the dialog read-only.
 * One rule, used by both.
 */
import type { CampaignStatus } from './api'

/** A scheduled campaign can be edited until this long before its start. */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000

export type CampaignEditability = { status: CampaignStatus; scheduledAt: string | number | Date | null }

export function isCampaignEditable(campaign: CampaignEditability, now: number = Date.now()): boolean {
  if (campaign.status === 'INATIVA' || campaign.status === 'CANCELADA') return true
  if (campaign.status !== 'PROGRAMADA' || campaign.scheduledAt == null) return false
  const at =
    campaign.scheduledAt instanceof Date
      ? campaign.scheduledAt.getTime()
      : typeof campaign.scheduledAt === 'number'
        ? campaign.scheduledAt
        : Date.parse(campaign.scheduledAt)
  return Number.isFinite(at) && at - now > CAMPAIGN_EDIT_LEAD_MS
}
