import { type } from 'arktype'
import { nullableId, text } from './common'

/** An id, or none (`nullableId`); the tag list's 'Nenhuma', 'null' and an id as text also read. */
const optionalId = nullableId
  .or(type("'Nenhuma' | 'null'").pipe(() => null))
  .or(type(/^[1-9]\d{0,15}$/).pipe((s) => Number(s)))

const message = type('string <= 4096').or(type('null').pipe(() => ''))

/**
 * `POST /campaigns` and `PUT /campaigns/{id}`. `scheduledAt` is `YYYY-MM-DD HH:mm:ss` (the spec's format, read
 * in the company's time zone) or an ISO instant with an offset; empty string or null means no schedule. A
 * campaign saved with a schedule is PROGRAMADA, without one INATIVA; `status` in the body is ignored. The
 * audience is `contactListId` or, when it is null, the contacts tagged `tagListId`.
 */
export const campaignBody = type({
  '+': 'delete',
  name: text(2, 50),
  'confirmation?': type('boolean').or(type("'true' | 'false'").pipe((s) => s === 'true')),
  'scheduledAt?': type('0 < string <= 40')
    .or(type("''").pipe(() => null))
    .or('null'),
  /** The spec's client sends `false` for no connection, as on tickets. */
  'whatsappId?': optionalId.or(type('false').pipe(() => null)),
  'contactListId?': optionalId,
  'tagListId?': optionalId,
  'fileListId?': optionalId,
  'message1?': message,
  'message2?': message,
  'message3?': message,
  'message4?': message,
  'message5?': message,
  'confirmationMessage1?': message,
  'confirmationMessage2?': message,
  'confirmationMessage3?': message,
  'confirmationMessage4?': message,
  'confirmationMessage5?': message,
})

export type CampaignInput = typeof campaignBody.infer
