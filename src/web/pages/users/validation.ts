import type { UserDto } from '../../../shared/api'
import type { Profile } from '../../../shared/permissions'

export type UserForm = {
  name: string
  email: string
  password: string
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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/

/** The spec's user rules: name 2..50, password 5..50 (required on create), valid email, profile required. */
export function validateUser(
  form: UserForm,
  opts: { creating: boolean; checkProfile: boolean; checkWork: boolean },
  t: (key: string) => string,
): UserFormErrors {
  const errors: UserFormErrors = {}
  const name = form.name.trim()
  if (!name) errors.name = t('validation.required')
  else if (name.length < 2) errors.name = t('validation.tooShort')
  else if (name.length > 50) errors.name = t('validation.tooLong')

  const email = form.email.trim()
  if (!email) errors.email = t('validation.required')
  else if (!EMAIL.test(email) || email.length > 120) errors.email = t('validation.invalidEmail')

  if (opts.creating && !form.password) errors.password = t('validation.required')
  else if (form.password && form.password.length < 5) errors.password = t('validation.tooShort')
  else if (form.password.length > 50) errors.password = t('validation.tooLong')

  if (opts.checkProfile && !form.profile) errors.profile = t('validation.required')

  if (opts.checkWork) {
    if (!TIME.test(form.startWork)) errors.startWork = t('validation.invalidTime')
    if (!TIME.test(form.endWork)) errors.endWork = t('validation.invalidTime')
  }
  return errors
}
