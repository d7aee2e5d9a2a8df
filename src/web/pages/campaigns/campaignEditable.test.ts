import { describe, expect, test } from 'bun:test'
import { CAMPAIGN_EDIT_LEAD_MS, isCampaignEditable } from '../../../shared/campaign-editable'

describe('isCampaignEditable', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z')
  const at = (ms: number) => new Date(now + ms).toISOString()

  test('inactive is always editable', () => {
    expect(isCampaignEditable({ status: 'INATIVA', scheduledAt: null }, now)).toBe(true)
    expect(isCampaignEditable({ status: 'INATIVA', scheduledAt: at(60_000) }, now)).toBe(true)
  })

  test('scheduled: only more than 1 hour ahead (the edge itself is not)', () => {
    expect(
      isCampaignEditable({ status: 'PROGRAMADA', scheduledAt: at(CAMPAIGN_EDIT_LEAD_MS + 1) }, now),
    ).toBe(true)
    expect(isCampaignEditable({ status: 'PROGRAMADA', scheduledAt: at(CAMPAIGN_EDIT_LEAD_MS) }, now)).toBe(
      false,
    )
    expect(isCampaignEditable({ status: 'PROGRAMADA', scheduledAt: at(30 * 60_000) }, now)).toBe(false)
    expect(isCampaignEditable({ status: 'PROGRAMADA', scheduledAt: null }, now)).toBe(false)
  })

  test('cancelled is editable: spec 2, "a cancelled campaign can still be saved"', () => {
    expect(isCampaignEditable({ status: 'CANCELADA', scheduledAt: at(-CAMPAIGN_EDIT_LEAD_MS) }, now)).toBe(
      true,
    )
    expect(isCampaignEditable({ status: 'CANCELADA', scheduledAt: null }, now)).toBe(true)
  })

  test('running and finished are not', () => {
    for (const status of ['EM_ANDAMENTO', 'FINALIZADA'] as const)
      expect(isCampaignEditable({ status, scheduledAt: at(5 * CAMPAIGN_EDIT_LEAD_MS) }, now)).toBe(false)
  })
})
