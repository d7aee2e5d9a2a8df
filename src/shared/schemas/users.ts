import { type } from 'arktype'
import { email, nullableConnectionId, password, text, time } from './common'

const flag = "'enabled' | 'disabled'"

const userFields = {
  '+': 'delete',
  'queueIds?': 'number.integer[] <= 200',
  'whatsappId?': nullableConnectionId,
  'startWork?': time,
  'endWork?': time,
  'farewellMessage?': 'string <= 1000 | null',
  'allTicket?': "'enable' | 'disable'",
  'allowGroup?': 'boolean',
  'defaultMenu?': "'open' | 'closed'",
  'defaultTheme?': "'light' | 'dark'",
  'allHistoric?': flag,
  'allUserChat?': flag,
  'userClosePendingTicket?': flag,
  'showDashboard?': flag,
  'isTricked?': flag,
} as const

export const createUserBody = type({
  ...userFields,
  name: text(2, 50),
  email,
  profile: "'admin' | 'user'",
  password,
})

export const updateUserBody = type({
  ...userFields,
  'name?': text(2, 50),
  'email?': email,
  'profile?': "'admin' | 'user'",
  /** Empty: keep the current one. */
  'password?': type("''").or(password),
  /** Required when users change their own password or e-mail. */
  'currentPassword?': 'string <= 200',
})

export type CreateUserInput = typeof createUserBody.infer
export type UpdateUserInput = typeof updateUserBody.infer
