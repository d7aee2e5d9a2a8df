import type { ContactDto } from '../../shared/api'
import { numberForms } from '../../shared/numbers'
import type { Actor, Deps } from '../context'

export type NumberVisibility = 'enabled' | 'disabled'

/**
 * A phone number as a reader may see it: in full when their isTricked is 'enabled', otherwise with its last
 * four digits as asterisks (the spec's contact table rule, applied on the server to every answer and live
 * event that carries a number). Numbers of four characters or fewer are all asterisks. A name that is the
 * number is masked with it (`maskName`).
 */
export function maskNumber(number: string, isTricked: NumberVisibility): string {
  if (isTricked === 'enabled' || !number) return number
  const keep = Math.max(0, number.length - 4)
  return `${number.slice(0, keep)}${'*'.repeat(number.length - keep)}`
}

/** Digits and the separators people type between them: a name made of these alone is a phone number. */
const PHONE_SHAPED = /^[\d\s()+.-]+$/
/** The fewest digits a name needs to be taken for the number (a local number without its country code). */
const LOCAL_DIGITS = 8

/**
 * Whether a contact's name is its number: what the send API, an inbound message from a new number or an
 * import without names write, as typed (`+55 (11) 98765-4321`), as digits, or without the country code; either
 * form of a Brazilian mobile.
 */
export function nameIsNumber(name: string, number: string | null | undefined): boolean {
  if (!name || !number || !PHONE_SHAPED.test(name)) return false
  const digits = name.replace(/\D/g, '')
  if (digits.length < LOCAL_DIGITS) return false
  return numberForms(number.replace(/\D/g, '')).some((form) => form.endsWith(digits))
}

/**
 * A contact's name as a reader may see it: a name that is the contact's number is masked like the number (its
 * last four digits as asterisks, its separators kept), or it would show what the number hides.
 */
export function maskName(
  name: string,
  number: string | null | undefined,
  isTricked: NumberVisibility,
): string {
  if (isTricked === 'enabled' || !nameIsNumber(name, number)) return name
  let hide = 4
  const chars = [...name]
  for (let i = chars.length - 1; i >= 0 && hide > 0; i--)
    if (/\d/.test(chars[i]!)) {
      chars[i] = '*'
      hide--
    }
  return chars.join('')
}

/** The contact as a reader who may not see numbers in full gets it: its number, and a name that is the number. */
export function maskContact<T extends { number: string; name?: string }>(
  contact: T,
  isTricked: NumberVisibility,
): T {
  if (isTricked === 'enabled' || !contact.number) return contact
  const masked = { ...contact, number: maskNumber(contact.number, isTricked) }
  if (contact.name !== undefined) masked.name = maskName(contact.name, contact.number, isTricked)
  return masked
}

export function maskContacts(contacts: ContactDto[], isTricked: NumberVisibility): ContactDto[] {
  return isTricked === 'enabled' ? contacts : contacts.map((c) => maskContact(c, 'disabled'))
}

/**
 * Whether the acting user sees numbers in full. Users carry the flag from authentication; an actor built by
 * hand is looked up. Tokens (the send API) and the system see numbers: they address customers by them.
 */
export function numberVisibility(ctx: Pick<Deps, 'sqlite'> & { actor: Actor }): NumberVisibility {
  const actor = ctx.actor
  if (actor.kind !== 'user') return 'enabled'
  if (actor.isTricked) return actor.isTricked
  const row = ctx.sqlite
    .query<{ isTricked: NumberVisibility }, [number]>(
      'SELECT is_tricked AS isTricked FROM users WHERE id = ?',
    )
    .get(actor.userId)
  return row?.isTricked ?? 'disabled'
}
