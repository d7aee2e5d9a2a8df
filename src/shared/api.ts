/**
 * Shapes of the API's answers, shared by the server (which builds them) and the web (which reads them).
 * Field names follow the spec: they are the contract with existing clients.
 */
import type { ConnectionStatus, ConnectionStatusReason } from './connection-status'
import type { Profile } from './permissions'
import type { PlanFlags, Recurrence } from './plans'
import type { ScheduleEntry } from './schedules'

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
  /**
   * YYYY-MM-DD. A company that never expires (no due date: the platform's own, the demo) is answered as
   * NO_DUE_DATE (shared/plans.ts), never null, so the spec's client does not lock it out; `realDueDate` reads it.
   */
  dueDate: string | null
  /** YYYY-MM-DD: the end of a signed-up company's free trial (null: no trial). */
  trialExpiration: string | null
  recurrence: Recurrence
  document: string | null
  lastLogin: string | null
  /** What the company uses of its plan's limits. */
  counts: { users: number; connections: number; queues: number }
  createdAt: string
  updatedAt: string
}

/** `GET /companies/listPlan/{companyId}`: the company with its whole plan. */
export type CompanyWithPlanDto = Omit<CompanyDto, 'plan'> & { plan: PlanDto }

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
  /** Disabled by the operator: cannot sign in. */
  disabled: boolean
  createdAt: string
  updatedAt: string
}

/** The signed-in user, with what the shell needs about the company and its plan. */
export type SessionUser = UserDto & {
  company: {
    id: number
    name: string
    /** YYYY-MM-DD; NO_DUE_DATE (shared/plans.ts) for a company that never expires, as in CompanyDto. */
    dueDate: string | null
    trialExpiration: string | null
    recurrence: Recurrence
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
  /** Service hours (src/shared/schedules.ts), used when the setting scheduleType is 'queue'. */
  schedules: ScheduleEntry[]
  integrationId: number | null
  promptId: number | null
  /** The file list whose files the chatbot sends when a ticket enters the queue. */
  fileListId: number | null
  companyId: number
  createdAt: string
  updatedAt: string
}

/** A node of a queue's chatbot menu; `children` is its whole subtree, ordered by position. */
export type QueueOptionDto = {
  id: number
  queueId: number
  /** -1 at the top level. */
  parentId: number
  title: string
  message: string
  /** The position the customer types ('1', '2', …), unique among siblings. */
  option: string
  mediaName: string | null
  mediaMime: string | null
  /** A signed, expiring link to the option's file, or null. */
  mediaUrl: string | null
  children: QueueOptionDto[]
  createdAt: string
  updatedAt: string
}

export type Paged<K extends string, T> = { [key in K]: T[] } & { count: number; hasMore: boolean }

/** `GET /api/version` (public): the running server's version, the menu's label. */
export type VersionResponse = { version: string }

/** `sandbox`: the server runs the simulated WhatsApp network (`--sandbox`). */
export type HealthResponse = {
  /** 'degraded' (answered with 503) when the database does not answer. */
  status: 'ok' | 'degraded'
  version: string
  uptimeMs: number
  sandbox: boolean
  database: 'ok' | 'error'
  /** How many connections are in each state (CONNECTED, qrcode, DISCONNECTED, …). */
  connections: Partial<Record<ConnectionStatus, number>>
}

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

/* ---------- Inbox: tags, contacts, tickets, messages ---------- */

export type TagDto = {
  id: number
  name: string
  color: string
  kanban: number
  companyId: number
  /** How many tickets carry the tag: in the tag answers, not in live events of other records. */
  ticketsCount?: number
  createdAt: string
  updatedAt: string
}

/**
 * A quick message (spec 2): `geral` company-wide, otherwise personal to `userId`; `status` active. An attachment
 * is `mediaName` (as uploaded) and `mediaUrl` (a signed, expiring link); `mediaPath` is the stored file's name.
 */
export type QuickMessageDto = {
  id: number
  shortcode: string
  message: string
  geral: boolean
  status: boolean
  isMedia: boolean
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  mediaUrl: string | null
  userId: number | null
  companyId: number
  createdAt: string
  updatedAt: string
}

export type ContactExtraInfoDto = { id: number; name: string; value: string }

/**
 * A contact. `number` is masked (its last four digits as asterisks) unless the reader's isTricked is
 * 'enabled', in every answer and live event, not only in the page.
 */
export type ContactDto = {
  id: number
  uuid: string
  name: string
  number: string
  email: string
  profilePicUrl: string
  isGroup: boolean
  disableBot: boolean
  /** The contact's answer to a connection's LGPD consent message, and when (ISO); null until answered. */
  lgpdConsent: 'accepted' | 'refused' | null
  lgpdConsentAt: string | null
  whatsappId: number | null
  companyId: number
  extraInfo: ContactExtraInfoDto[]
  tags: TagRef[]
  createdAt: string
  updatedAt: string
}

export type TagRef = { id: number; name: string; color: string }

export type TicketStatusName = 'open' | 'pending' | 'closed'

/** A ticket as the lists and the conversation header show it. */
export type TicketDto = {
  id: number
  uuid: string
  status: TicketStatusName
  contactId: number
  contact: Pick<ContactDto, 'id' | 'name' | 'number' | 'profilePicUrl' | 'email' | 'isGroup'>
  userId: number | null
  user: { id: number; name: string } | null
  queueId: number | null
  queue: QueueRef | null
  whatsappId: number | null
  whatsapp: { id: number; name: string } | null
  channel: string
  isGroup: boolean
  chatbot: boolean
  lastMessage: string
  unreadMessages: number
  tags: TagRef[]
  companyId: number
  createdAt: string
  updatedAt: string
}

/**
 * What ERR_OTHER_OPEN_TICKET tells a user who may not see the contact's active ticket: who holds it and in which
 * queue (the spec's new-ticket dialog); a user who may see it gets the whole TicketDto.
 */
export type HeldTicketDto = Pick<TicketDto, 'userId' | 'user' | 'queueId' | 'queue'>

export type MessageAck = 0 | 1 | 2 | 3 | 4

export type MessageReactionDto = { emoji: string; fromMe: boolean; senderName: string | null }

export type QuotedMessageDto = {
  id: number
  body: string
  fromMe: boolean
  mediaType: string
  isDeleted: boolean
  participantName: string | null
  contactName: string | null
}

export type MessageDto = {
  id: number
  /** The provider's message id; null while an outbound message waits to be sent. */
  wid: string | null
  ticketId: number
  contactId: number | null
  companyId: number
  body: string
  fromMe: boolean
  /** 0 pending, 1 sent, 2 delivered, 3 delivered to all, 4 read. */
  ack: MessageAck
  read: boolean
  mediaType: string
  /** A signed, expiring URL of the stored media; null when there is none (yet). */
  mediaUrl: string | null
  mediaName: string | null
  mediaMime: string | null
  mediaSize: number | null
  /** 'pending' while inbound media is fetched, 'failed' when it could not be (ERR_WAPP_DOWNLOAD_MEDIA). */
  mediaState: 'none' | 'stored' | 'pending' | 'failed'
  ptt: boolean
  isDeleted: boolean
  isEdited: boolean
  isPrivate: boolean
  oldMessages: { body: string; createdAt: string }[]
  quotedMsgId: number | null
  quotedMsg: QuotedMessageDto | null
  reactions: MessageReactionDto[]
  /** In a group: who wrote it. */
  participantName: string | null
  /** Outbound: 'queued' | 'sending' | 'sent' | 'failed'; null for inbound. */
  sendState: 'queued' | 'sending' | 'sent' | 'failed' | null
  sendError: string | null
  userId: number | null
  /** A voice note's or audio's text once transcribed (POST /messages/{id}/transcribe); null otherwise. */
  transcription?: string | null
  createdAt: string
  updatedAt: string
}

/**
 * GET /tickets. `count` is exact for the unfiltered tabs; a list filtered by search, tags, dates or unread
 * counts at most 1,000 and then says `countCapped: true`.
 */
export type TicketsPage = Paged<'tickets', TicketDto> & { countCapped?: boolean }

/** `GET /tags/kanban`: the company's lanes (tags with kanban 1), by name. */
export type KanbanLanesDto = { lista: TagDto[] }

/** `GET /ticket/kanban`: open and pending tickets for the board, newest first (paged; `hasMore` is ours). */
export type KanbanTicketsDto = { tickets: TicketDto[]; hasMore: boolean }

/** `PUT /ticket/kanban/{ticketId}` (ours): the ticket afterwards, the lane tags it lost and the one it gained. */
export type KanbanMoveDto = { ticket: TicketDto; removed: TagRef[]; added: TagRef | null }

/** GET /tickets/counts (our addition): the badges of the open and groups tabs' assigned and pending sub-tabs. */
export type TicketCountsDto = {
  open: { assigned: number; pending: number }
  groups: { assigned: number; pending: number }
}
export type MessagesPage = { messages: MessageDto[]; ticket: TicketDto; count: number; hasMore: boolean }
export type ContactsPage = Paged<'contacts', ContactDto>

/* ---------- Outreach: campaigns ---------- */

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

/** One attendant's line of `GET /dashboard` (times in minutes; null when nothing was measured). */
export type DashboardAttendant = {
  id: number
  name: string
  /** The average 0-10 rating received in the range (null: no rating). */
  rating: number | null
  ratings: number
  /** openCount + closeCount: for a range that ended before today, only its closes. */
  tickets: number
  /** Tickets the attendant holds open now, when the range contains today; 0 for a range in the past. */
  openCount: number
  /** Tickets the attendant finished in the range. */
  closeCount: number
  avgWaitTime: number | null
  avgSupportTime: number | null
  online: boolean
}

/** The NPS of the ratings in the range: score = % promoters (9-10) − % detractors (0-6), rounded. */
export type DashboardNps = {
  score: number | null
  promoters: number
  passives: number
  detractors: number
  total: number
  /** How many ratings gave each score, 0 to 10. */
  distribution: number[]
  byAttendant: {
    id: number
    name: string
    score: number | null
    average: number | null
    promoters: number
    passives: number
    detractors: number
    total: number
  }[]
}

/** `GET /dashboard?days=` or `?date_from=&date_to=`. */
export type DashboardData = {
  /** The days counted, in the company's time zone (both included), and the zone. */
  range: { dateFrom: string; dateTo: string; timeZone: string }
  counters: {
    /** Tickets open (in service) now. */
    supportHappening: number
    /** Tickets pending (waiting) now. */
    supportPending: number
    /** Tickets closed in the range. */
    supportFinished: number
    /** Average minutes from being taken to being closed, of the tickets closed in the range. */
    avgSupportTime: number | null
    /** Average minutes in the queue, of the tickets taken in the range. */
    avgWaitTime: number | null
    /** Tickets created in the range. */
    ticketsCreated: number
    messagesSent: number
    messagesReceived: number
    /** Contacts created in the range. */
    leads: number
    /** Attendants signed in now (with Balcão open: a live connection), whatever the range. */
    onlineAttendants: number
    /** The attendants the viewer sees (the company's users, or those sharing a queue with the viewer). */
    totalAttendants: number
  }
  attendants: DashboardAttendant[]
  nps: DashboardNps
  /** Tickets created today (company time zone) per local hour, 0 to 23. */
  ticketsByHour: number[]
}

/** `GET /messages-allMe`: the spec's shape. */
export type MessagesAllMe = { count: [{ count: number }] }
