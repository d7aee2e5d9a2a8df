import type { UserDto } from '../../../shared/api'
import type { Profile } from '../../../shared/permissions'
import { createUserBody, updateUserBody } from '../../../shared/schemas/users'
import { schemaErrors } from '../../components/ui/schemaErrors'

export type UserForm = {
  name: string
  email: string
  password: string
  /** Asked when the signed-in user changes their own password or e-mail. */
  currentPassword: string
  profile: Profile | ''
  queueIds: number[]
  /** Default connection; 0 means none. */
  whatsappId: number
  startWork: string
  endWork: string
  farewellMessage: string
  allTicket: UserDto['allTicket']
  allowGroup: boolean
  allHistoric: UserDto['allHistoric']
  allUserChat: UserDto['allUserChat']
  userClosePendingTicket: UserDto['userClosePendingTicket']
  showDashboard: UserDto['showDashboard']
  isTricked: UserDto['isTricked']
  defaultTheme: UserDto['defaultTheme']
  defaultMenu: UserDto['defaultMenu']
}

export type UserFormErrors = Partial<Record<keyof UserForm, string>>

export const EMPTY_USER: UserForm = {
  name: '',
  email: '',
  password: '',
  currentPassword: '',
  profile: 'user',
  queueIds: [],
  whatsappId: 0,
  startWork: '00:00',
  endWork: '23:59',
  farewellMessage: '',
  allTicket: 'disable',
  allowGroup: false,
  allHistoric: 'disabled',
  allUserChat: 'disabled',
  userClosePendingTicket: 'enabled',
  showDashboard: 'disabled',
  isTricked: 'enabled',
  defaultTheme: 'light',
  defaultMenu: 'open',
}

export function formFromUser(user: UserDto): UserForm {
  return {
    name: user.name,
    email: user.email,
    password: '',
    currentPassword: '',
    profile: user.profile,
    queueIds: user.queues.map((q) => q.id),
    whatsappId: user.whatsappId ?? 0,
    startWork: user.startWork || EMPTY_USER.startWork,
    endWork: user.endWork || EMPTY_USER.endWork,
    farewellMessage: user.farewellMessage ?? '',
    allTicket: user.allTicket,
    allowGroup: user.allowGroup,
    allHistoric: user.allHistoric,
    allUserChat: user.allUserChat,
    userClosePendingTicket: user.userClosePendingTicket,
    showDashboard: user.showDashboard,
    isTricked: user.isTricked,
    defaultTheme: user.defaultTheme,
    defaultMenu: user.defaultMenu,
  }
}

export type UserFormRules = {
  creating: boolean
  /** The own-profile form: only name, e-mail, password and preferences. */
  limited: boolean
  canEditProfile: boolean
  canEditQueues: boolean
  /** The signed-in user changes their own password or e-mail: the current password is asked. */
  askCurrentPassword: boolean
}

/** The body of POST /api/users and PUT /api/users/{id}: only what this form may change. */
export function userBodyOf(form: UserForm, rules: UserFormRules): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: form.name.trim(),
    email: form.email.trim(),
    farewellMessage: form.farewellMessage.trim() || null,
    defaultTheme: form.defaultTheme,
    defaultMenu: form.defaultMenu,
  }
  if (form.password) body.password = form.password
  if (rules.askCurrentPassword) body.currentPassword = form.currentPassword
  if (rules.limited) return body
  if (rules.canEditProfile || rules.creating) body.profile = form.profile || 'user'
  if (rules.canEditProfile) {
    body.startWork = form.startWork
    body.endWork = form.endWork
    body.whatsappId = form.whatsappId || null
  }
  if (rules.canEditQueues) body.queueIds = form.queueIds
  return Object.assign(body, {
    allTicket: form.allTicket,
    allowGroup: form.allowGroup,
    allHistoric: form.allHistoric,
    allUserChat: form.allUserChat,
    userClosePendingTicket: form.userClosePendingTicket,
    showDashboard: form.showDashboard,
    isTricked: form.isTricked,
  })
}

/** Whether the e-mail changes (the server compares it lower-cased and trimmed). */
export function emailChanged(form: UserForm, initial: UserForm): boolean {
  return form.email.trim().toLowerCase() !== initial.email.trim().toLowerCase()
}

/** The server's schema (name 2..50, e-mail, password 5..50, profile, HH:mm times) with the spec's messages. */
export function validateUser(
  form: UserForm,
  rules: UserFormRules,
  t: (key: string) => string,
): UserFormErrors {
  const schema = rules.creating ? createUserBody : updateUserBody
  const errors = schemaErrors<keyof UserForm>(schema(userBodyOf(form, rules)), t, {
    startWork: 'validation.invalidTime',
    endWork: 'validation.invalidTime',
    password: 'validation.passwordRule',
  })
  if (rules.askCurrentPassword && !form.currentPassword) errors.currentPassword = t('validation.required')
  return errors
}
