/**
 * Phone numbers as WhatsApp knows them: digits only, country code first. Brazilian mobiles exist in two
 * forms (with and without the ninth digit added in 2012-2016; older WhatsApp accounts keep the short form in
 * their JID), so a contact's identity is its number key: the long form for a Brazilian mobile, the digits
 * otherwise.
 */

/** Digits of a typed or received number, or null when nothing number-like is left. */
export function normalizeNumber(raw: string | null | undefined): string | null {
  if (!raw) return null
  const digits = raw.replace(/@.*$/, '').replace(/:\d+$/, '').replace(/\D/g, '')
  return digits.length > 0 ? digits : null
}

/** Brazil: 55, a two-digit area code (11-99), then 8 digits (a short mobile or a landline) or 9 (a mobile). */
const BR_SHORT_MOBILE = /^55([1-9][1-9])([6-9]\d{7})$/
const BR_LONG_MOBILE = /^55([1-9][1-9])9([6-9]\d{7})$/

/** The identity of a number: both forms of a Brazilian mobile give the same key. */
export function numberKey(digits: string): string {
  const short = BR_SHORT_MOBILE.exec(digits)
  if (short) return `55${short[1]}9${short[2]}`
  return digits
}

/** Every form WhatsApp may use for this number (both forms of a Brazilian mobile), the given one first. */
export function numberForms(digits: string): string[] {
  const long = BR_LONG_MOBILE.exec(digits)
  if (long) return [digits, `55${long[1]}${long[2]}`]
  const short = BR_SHORT_MOBILE.exec(digits)
  if (short) return [digits, `55${short[1]}9${short[2]}`]
  return [digits]
}
