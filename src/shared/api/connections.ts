/** Connections (the spec's "whatsapp") and their session updates. */
import type { ConnectionStatus, ConnectionStatusReason } from '../connection-status'
import type { ScheduleEntry } from '../schedules'
import type { QueueRef } from './queues'

export type { ConnectionStatus, ConnectionStatusReason } from '../connection-status'

/** A connection (the spec's "whatsapp"). `token` and `qrcode` are only shown to admins. */
export type WhatsappDto = {
  id: number
  name: string
  companyId: number
  provider: 'beta' | 'sandbox'
  /** A Baileys connection of a server started against the WhatsApp simulator (`--wa-simulator`): not WhatsApp. */
  simulated?: true
  channel: string
  status: ConnectionStatus
  /** Why it is not connected (see CONNECTION_STATUS_REASONS); null when nothing went wrong. */
  statusReason: ConnectionStatusReason | null
  qrcode: string
  pairingCode: string | null
  /** Epoch ms when the QR code (or pairing code) expires. */
  expirationTime: number | null
  retries: number
  number: string | null
  isDefault: boolean
  greetingMessage: string
  complationMessage: string
  outOfHoursMessage: string
  ratingMessage: string
  token: string | null
  timeSendQueue: number
  sendIdQueue: number | null
  expiresInactiveMessage: string
  expiresTicket: number
  timeUseBotQueues: number
  maxUseBotQueues: number
  promptId: number | null
  integrationId: number | null
  allowGroup: boolean
  expiresTicketNPS: number
  maxUseBotQueuesNPS: number
  collectiveVacationStart: string | null
  collectiveVacationEnd: string | null
  collectiveVacationMessage: string
  /** LGPD: send the consent message (lgpdMessage + lgpdLink) on a contact's first conversation. */
  enableLGPD: boolean
  lgpdMessage: string
  lgpdLink: string
  /** LGPD: the chatbot waits for the contact's consent before going on. */
  lgpdConsent: boolean
  /** Service hours of the connection (src/shared/schedules.ts), used when the setting scheduleType is 'connection'. */
  schedules: ScheduleEntry[]
  importOldMessages: string | null
  importRecentMessages: string | null
  importOldMessagesGroups: boolean
  closedTicketsPostImported: boolean
  queues: QueueRef[]
  createdAt: string
  updatedAt: string
}

/** `company-{id}-whatsappSession` frames: `{ action: 'update', session }`. */
export type SessionUpdate = {
  id: number
  name: string
  status: ConnectionStatus
  statusReason: ConnectionStatusReason | null
  qrcode: string
  pairingCode: string | null
  expirationTime: number | null
  retries: number
  number: string | null
  updatedAt: string
  /** While status is 'importing': how far the history import is, 0-100. */
  progress?: number
}
