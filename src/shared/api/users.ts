/** Users and the signed-in session. */
import type { Profile } from '../permissions'
import type { Recurrence } from '../plans'
import type { SettingItem } from './common'
import type { PlanDto } from './companies'
import type { QueueRef } from './queues'

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
