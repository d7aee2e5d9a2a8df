import { type } from 'arktype'
import { nullableConnectionId, text } from './common'
import { isoDay } from './dashboard'

const id = '1 <= number.integer <= 9007199254740991'

/** A list of record ids sent as JSON text in a query string (`contactTag=[1,2]`): bad JSON is a 400. */
const idList = type('string.json.parse').to(type(`(${id})[] <= 50`))

/** Digits of what a person typed as a phone number. */
export function phoneDigits(text: string): string {
  return text.replace(/\D/g, '')
}

/**
 * A phone number as typed: 8 to 50 characters of digits and the usual separators, at least 8 of them digits.
 * Empty (or null) means no number. Asterisks are let through for one case only: a reader who sees numbers
 * masked sends the masked number back unchanged, which the server reads as "keep the number" (any other
 * asterisk is refused there).
 */
export const phone = type('string.trim').to(
  type("''").or(
    type('8 <= string <= 50')
      .and(/^[+\d\s().*-]+$/)
      .narrow(
        (s, ctx) =>
          phoneDigits(s).length + (s.match(/\*/g)?.length ?? 0) >= 8 || ctx.mustBe('a phone number'),
      ),
  ),
)

/** An e-mail address, or empty for none. */
const optionalEmail = type('string.trim')
  .pipe((s) => s.toLowerCase())
  .to(type("''").or('string.email <= 120'))

export const extraInfoItem = type({
  '+': 'delete',
  'id?': `${id} | null`,
  name: text(1, 100),
  'value?': type('string.trim').to('string <= 1000'),
})

export const contactBody = type({
  '+': 'delete',
  name: text(2, 50),
  'number?': phone.or('null'),
  'email?': optionalEmail.or('null'),
  'disableBot?': 'boolean',
  /** The whole list: what is not sent is removed (on PUT; absent leaves it as it is). */
  'extraInfo?': extraInfoItem.array().atMostLength(50),
  /** The contact's tags, the whole set (absent leaves them as they are). */
  'tagIds?': type(`(${id})[] <= 50`),
  /** The connection the contact is reached through. */
  'whatsappId?': nullableConnectionId,
})

export type ContactInput = typeof contactBody.infer

/** `POST /contacts/findOrCreate`: the contact with this number, created with these fields when missing. */
export const findOrCreateContactBody = type({
  '+': 'delete',
  name: text(2, 50),
  number: phone,
  'email?': optionalEmail.or('null'),
})

export type FindOrCreateContactInput = typeof findOrCreateContactBody.infer

/** `GET /contacts/`: search over name and number, page, and tags (any of them) as JSON text. */
export const listContactsQuery = type({
  '+': 'delete',
  'searchParam?': 'string <= 200',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
  'contactTag?': idList,
  /** Contacts created on this day, or from dateStart to dateEnd (both included; the company's time zone). */
  'date?': isoDay,
  'dateStart?': isoDay,
  'dateEnd?': isoDay,
})

export type ListContactsQuery = typeof listContactsQuery.infer
