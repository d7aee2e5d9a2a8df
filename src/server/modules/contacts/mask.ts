import type { ContactDto } from '../../../shared/api'
import type { Actor, Deps } from '../../context'

export type NumberVisibility = 'enabled' | 'disabled'

/**
 * A phone number as a reader may see it: in full when their isTricked is 'enabled', otherwise with its last
 * four digits as asterisks (the spec's contact table rule, applied on the server to every answer and live
 * event that carries a number). Numbers of four characters or fewer are all asterisks.
 */
export function maskNumber(number: string, isTricked: NumberVisibility): string {
  if (isTricked === 'enabled' || !number) return number
  const keep = Math.max(0, number.length - 4)
  return `${number.slice(0, keep)}${'*'.repeat(number.length - keep)}`
}

/** The contact as a reader who may not see numbers in full gets it. */
export function maskContact<T extends { number: string }>(contact: T, isTricked: NumberVisibility): T {
  if (isTricked === 'enabled' || !contact.number) return contact
  return { ...contact, number: maskNumber(contact.number, isTricked) }
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
