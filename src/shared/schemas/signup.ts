import { type } from 'arktype'
import { email, PASSWORD_RULE, password, text } from './common'

/**
 * Public sign-up and password recovery (spec 3): the form's rules, shared by the server and the web.
 */

/** The spec's phone field: at most 15 characters. */
export const PHONE_MAX = 15

/** A Brazilian number as people write it: (11) 91234-5678, 11912345678, (11) 3456-7890. */
export const BR_PHONE = /^\(?[1-9]\d\)?\s?(?:9\d{4}|[2-8]\d{3})[-\s]?\d{4}$/
/** An international number: +5511912345678 or 5511912345678 (country code first, 8 to 15 digits). */
export const INTL_PHONE = /^\+?[1-9]\d{7,14}$/

export function isSignupPhone(value: string): boolean {
  const v = value.trim()
  return v.length <= PHONE_MAX && (BR_PHONE.test(v) || INTL_PHONE.test(v))
}

/** Digits with the country code: a Brazilian number without it gets 55. Null when it is not a phone. */
export function normalizePhone(value: string): string | null {
  const v = value.trim()
  if (!isSignupPhone(v)) return null
  const digits = v.replace(/\D/g, '')
  return BR_PHONE.test(v) ? `55${digits}` : digits
}

export const signupPhone = type('string.trim')
  .to(`1 <= string <= ${PHONE_MAX}`)
  .narrow((s, ctx) => isSignupPhone(s) || ctx.mustBe('a Brazilian or international phone number'))

/** Six digits, as the server issues them. */
export const SIGNUP_CODE = /^\d{6}$/
export const signupCode = type('string.trim').to(type(SIGNUP_CODE).describe('a code of six digits'))

/** `POST /api/signup/code`: a visitor asks for a code by WhatsApp. */
export const signupCodeRequestBody = type({ '+': 'delete', phone: signupPhone })

/** `POST /api/signup/codes` (super user): a code, optionally bound to a phone. */
export const signupCodeIssueBody = type({ '+': 'delete', 'phone?': signupPhone.or('null') })

/**
 * `POST /api/companies/cadastro`. What the spec's client also sends (recurrence, dueDate, status,
 * campaignsEnabled) is decided by the server and dropped here.
 */
export const signupBody = type({
  '+': 'delete',
  name: text(2, 50),
  companyName: text(2, 50),
  email,
  password,
  phone: signupPhone,
  planId: 'number.integer > 0',
  code: signupCode,
})
export type SignupInput = typeof signupBody.infer

/** The spec's reset rule, which is every password's rule (`password` in common.ts). */
export const RESET_PASSWORD = PASSWORD_RULE
export const resetPassword = password

/** The recovery code in the reset path. */
export const RESET_TOKEN = /^\d{6}$/

/** `POST /api/forgetpassword/{email}`: the path's e-mail. */
export const recoveryEmail = email

/** What `POST /api/signup/codes` and `balcao signup-code create` answer. */
export type IssuedSignupCode = { code: string; expiresAt: string; phone: string | null }
