/**
 * The web checks a form with the server's own arktype schema (src/shared/schemas) and shows the spec's
 * translated messages instead of arktype's English ones:
 *   const errors = schemaErrors(queueBody(body), t, { color: 'queues.invalidColor' })
 * Per field, the first failure wins: 'Obrigatório' when the value is missing or empty, then the field's own
 * message when one is given, then 'Muito curto!' / 'Muito longo!' / 'E-mail inválido' / 'Valor inválido'.
 */
import { type ArkError, ArkErrors } from 'arktype'

/** i18n keys, per field, for a value that is there but wrong (a colour, minutes, a time). */
export type FieldMessageKeys = Record<string, string>

type Translate = (key: string) => string

function isEmpty(value: unknown): boolean {
  return (
    value == null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && !value.length)
  )
}

/** The i18n key of one failure. */
export function messageKey(error: ArkError, field: string, messages: FieldMessageKeys = {}): string {
  if (error.code === 'union') {
    // `'' | 5 <= string <= 50`: the alternative that says what is wrong, not the one that says "or ''".
    const branches = (error as ArkError<'union'>).errors ?? []
    const inner = branches.find((e) => e.code !== 'unit' && e.code !== 'domain') ?? branches[0]
    if (inner && inner !== error) return messageKey(inner as ArkError, field, messages)
  }
  if (error.code === 'required') return 'validation.required'
  if ((error.code === 'minLength' || error.code === 'pattern') && isEmpty(error.data))
    return 'validation.required'
  const own = messages[field]
  if (own) return own
  switch (error.code) {
    case 'minLength':
      return 'validation.tooShort'
    case 'maxLength':
      return 'validation.tooLong'
    case 'pattern':
      return error.expected === 'an email address' ? 'validation.invalidEmail' : 'validation.invalid'
    default:
      return 'validation.invalid'
  }
}

/** Field -> translated message for the failures of a schema's answer (none when it is valid). */
export function schemaErrors<F extends string = string>(
  result: unknown,
  t: Translate,
  messages: FieldMessageKeys = {},
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {}
  if (!(result instanceof ArkErrors)) return errors
  for (const error of result) {
    const field = String(error.path[0] ?? '') as F
    if (!field || errors[field]) continue
    errors[field] = t(messageKey(error, field, messages))
  }
  return errors
}
