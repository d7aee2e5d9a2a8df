/** Campaigns. */

/**
 * The spec's statuses. A campaign that WhatsApp's restriction (463 / reach-out time lock) paused stays
 * `EM_ANDAMENTO` with `pausedReason` set; it sends nothing until an admin resumes it.
 */
export type CampaignStatus = 'INATIVA' | 'PROGRAMADA' | 'EM_ANDAMENTO' | 'CANCELADA' | 'FINALIZADA'

/** Why a running campaign was paused: only an admin's `POST /campaigns/{id}/resume` clears it. */
export type CampaignPausedReason = 'restricted'

/**
 * Why a running campaign is waiting right now (informative, clears by itself): the connection is disconnected,
 * the connection's daily cap is used up, or the hour is outside the sending window.
 */
export type CampaignWaitingReason = 'disconnected' | 'daily_cap' | 'window'

/** Counts of a campaign's shipping rows (one per contact), for the report page. */
export type CampaignCounts = {
  /** Contacts in the audience (shipping rows). */
  total: number
  /** Contacts not known to be off WhatsApp (rows not invalid; numbers are checked just before their turn). */
  valid: number
  /** Numbers not on WhatsApp: skipped, never sent to. */
  invalid: number
  delivered: number
  confirmationRequested: number
  confirmed: number
  /** Still to do: pending, sending, or waiting for (or released by) the contact's confirmation. */
  pending: number
  failed: number
}

export type CampaignDto = {
  id: number
  name: string
  message1: string
  message2: string
  message3: string
  message4: string
  message5: string
  confirmationMessage1: string
  confirmationMessage2: string
  confirmationMessage3: string
  confirmationMessage4: string
  confirmationMessage5: string
  status: CampaignStatus
  confirmation: boolean
  /** ISO instant, or null for no schedule. */
  scheduledAt: string | null
  completedAt: string | null
  whatsappId: number | null
  whatsapp: { id: number; name: string } | null
  contactListId: number | null
  contactList: { id: number; name: string } | null
  /** The tag whose contacts are the audience (the spec's "tag list"), or null ('Nenhuma'). */
  tagListId: number | null
  fileListId: number | null
  companyId: number
  mediaPath: string | null
  mediaName: string | null
  /** A signed, expiring link to the attachment, or null. */
  mediaUrl: string | null
  /** True when PUT is allowed: INATIVA, or PROGRAMADA with scheduledAt more than 1 hour ahead. */
  editable: boolean
  pausedReason: CampaignPausedReason | null
  /** Error text WhatsApp gave when the campaign paused itself. */
  pausedDetail: string | null
  waitingReason: CampaignWaitingReason | null
  counts: CampaignCounts
  createdAt: string
  updatedAt: string
}

/** `GET /campaigns/` (searchParam on the name, pageNumber). */
export type CampaignsPage = { records: CampaignDto[]; count: number; hasMore: boolean }

/** A shipping row's state (expired: no answer to the confirmation within 24 hours). */
export type CampaignShippingState =
  | 'pending'
  | 'invalid'
  | 'confirmation_sending'
  | 'confirmation_requested'
  | 'confirmed'
  | 'sending'
  | 'delivered'
  | 'failed'
  | 'expired'
