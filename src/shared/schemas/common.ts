import { type Type, type } from 'arktype'
import { PASSWORD_RULE } from '../passwords'

/** A trimmed text between min and max characters. */
export const text = (min: number, max: number) => type('string.trim').to(`${min} <= string <= ${max}`)

export const email = type('string.trim')
  .pipe((s) => s.toLowerCase())
  .to('string.email <= 120')

export const time = type(/^([01]\d|2[0-3]):[0-5]\d$/).describe('a time as HH:mm')

export { PASSWORD_RULE }

/** The one password rule (shared/passwords.ts); its lengths let the web say 'too short' or 'too long'. */
export const password = type('8 <= string <= 50').narrow(
  (s, ctx) =>
    PASSWORD_RULE.test(s) ||
    ctx.mustBe('8 to 50 characters with an upper-case letter, a lower-case letter and a digit'),
)

/** A record id in a body: a positive integer. */
export const recordId = type('1 <= number.integer <= 9007199254740991')

/** What real clients send for "none" in a reference field: an emptied select (`""`), or null. */
const none = type("'' | null").pipe(() => null)

/**
 * An optional reference to a record (queueId, userId, promptId, integrationId, …): its id, or null for none.
 * `""` reads as null too: the spec's client sends its empty selects as they are.
 */
export const nullableId = recordId.or(none).describe('a record id, or none')

/** A connection reference (`whatsappId`): as `nullableId`, and the spec's client's `false` also means none. */
export const nullableConnectionId = nullableId
  .or(type('false').pipe(() => null))
  .describe('a connection id, or none')

/**
 * An optional number a form may send emptied (`""`): that reads as not given, so the field keeps its value (or
 * takes its default). The server's `parse` drops the key.
 */
export function emptyAsAbsent<T extends Type<number>>(schema: T) {
  return schema.or(type("''").pipe(() => undefined)).describe(`${schema.description}, or empty`)
}

/** An attachment upload's text fields beside its `file`: the spec's `typeArch`; anything else is ignored. */
export const attachmentFields = type({ '+': 'delete', 'typeArch?': 'string <= 50' })

/** List queries: `?searchParam=&pageNumber=`. */
export const pageQuery = type({
  '+': 'delete',
  'searchParam?': 'string <= 200',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
})

/** A record id in a path: canonical decimal only (`7`, never `07`, `+7` or `7e0`), so one record has one name. */
export const idParam = type(/^[1-9]\d{0,15}$/)
  .pipe((s) => Number(s))
  .to('1 <= number.integer <= 9007199254740991')
