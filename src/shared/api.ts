/**
 * Shapes of the API's answers, shared by the server (which builds them) and the web (which reads them).
 * Field names follow the spec: they are the contract with existing clients.
 */
import type { ConnectionStatus, ConnectionStatusReason } from './connection-status'
import type { Profile } from './permissions'
import type { PlanFlags, Recurrence } from './plans'

export type SettingItem = { key: string; value: string }

export type QueueRef = { id: number; name: string; color: string }

export type PlanDto = PlanFlags & {
  id: number
  name: string
  /** Monthly price in BRL. */
  value: number
  users: number
  connections: number
  queues: number
  createdAt: string
  updatedAt: string
}

export type CompanyDto = {
  id: number
  name: string
  email: string | null
  phone: string | null
  planId: number
  plan: { id: number; name: string } | null
  status: boolean
  /** YYYY-MM-DD, or null for a company that never expires (the platform's own). */
  dueDate: string | null
  recurrence: Recurrence
  document: string | null
  lastLogin: string | null
  createdAt: string
  updatedAt: string
}

export type WorkFlag = 'enabled' | 'disabled'

export type UserDto = {
  id: number
  name: string
  email: string
  profile: Profile
  companyId: number
  super: boolean
  online: boolean
  queues: QueueRef[]
  whatsappId: number | null
  startWork: string
  endWork: string
  farewellMessage: string | null
  allTicket: 'enable' | 'disable'
  allowGroup: boolean
  defaultMenu: 'open' | 'closed'
  defaultTheme: 'light' | 'dark'
  allHistoric: WorkFlag
  allUserChat: WorkFlag
  userClosePendingTicket: WorkFlag
  showDashboard: WorkFlag
  isTricked: WorkFlag
  createdAt: string
  updatedAt: string
}

/** The signed-in user, with what the shell needs about the company and its plan. */
export type SessionUser = UserDto & {
  company: {
    id: number
    name: string
    dueDate: string | null
    settings: SettingItem[]
    plan: PlanDto | null
  }
}

export type LoginResponse = { token: string; user: SessionUser }

export type QueueDto = {
  id: number
  name: string
  color: string
  orderQueue: number
  greetingMessage: string
  outOfHoursMessage: string
  companyId: number
  createdAt: string
  updatedAt: string
}

export type Paged<K extends string, T> = { [key in K]: T[] } & { count: number; hasMore: boolean }

/** `sandbox`: the server runs the simulated WhatsApp network (`--sandbox`). */
export type HealthResponse = { status: 'ok'; version: string; uptimeMs: number; sandbox: boolean }

export type { ConnectionStatus, ConnectionStatusReason } from './connection-status'

/** A connection (the spec's "whatsapp"). `token` and `qrcode` are only shown to admins. */
export type WhatsappDto = {
  id: number
  name: string
  companyId: number
  provider: 'beta' | 'sandbox'
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
  allowGroup: boolean
  expiresTicketNPS: number
  maxUseBotQueuesNPS: number
  collectiveVacationStart: string | null
  collectiveVacationEnd: string | null
  collectiveVacationMessage: string
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
}
