import { type Type, type } from 'arktype'
import type { Context } from 'hono'
import { AppError, type ErrorCode, type FieldError } from '../../shared/errors'
import { idParam } from '../../shared/schemas/common'

/** No request body of Balcão nests deeper than a few levels; this leaves room and keeps validation shallow. */
export const MAX_JSON_DEPTH = 32

/** Parses `data` with an arktype schema, or throws a 400 naming every failing field. */
export function parse<T extends Type>(schema: T, data: unknown): T['infer'] {
  const out = schema(data)
  if (out instanceof type.errors) {
    const fields: FieldError[] = out.map((e) => ({
      field: e.path.map(String).join('.') || 'body',
      message: e.message,
    }))
    throw new AppError('ERR_VALIDATION', fields.map((f) => f.message).join('; '), undefined, fields)
  }
  // A field a schema read as not given (an emptied input, `emptyAsAbsent`) leaves no key behind, so services
  // that merge the input over a row keep the row's value.
  if (isPlainObject(out)) for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key]
  return out
}

/**
 * The deepest nesting of arrays and objects in a JSON text, counted by one pass over the characters
 * (strings skipped), so a hostile body is refused before anything recursive walks it. Stops counting
 * once past `limit`.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c)
        i++ // backslash: the next character is escaped, even a quote
      else if (ch === 0x22) inString = false
      continue
    }
    if (ch === 0x22) inString = true
    else if (ch === 0x7b || ch === 0x5b) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return deepest
      }
    } else if (ch === 0x7d || ch === 0x5d) depth--
  }
  return deepest
}

const notJson = (message: string) =>
  new AppError('ERR_VALIDATION', message, undefined, [{ field: 'body', message: 'must be a JSON object' }])

/**
 * The JSON body, or a 400 when it is missing, not JSON, or nested deeper than `MAX_JSON_DEPTH`.
 * `JSON.parse` may answer null, a number or an array: callers that need an object use `parseBody`.
 */
export async function jsonBody(c: Context): Promise<unknown> {
  let text: string
  try {
    text = await c.req.text()
  } catch {
    throw notJson('The request body could not be read')
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw notJson(`The body nests deeper than ${MAX_JSON_DEPTH} levels`)
  try {
    return JSON.parse(text)
  } catch {
    throw notJson('The request body must be JSON')
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A JSON object body parsed with `schema`. Every body of the API is an object; arktype counts an array
 * as one, so `[]` would otherwise pass a schema whose keys are all optional.
 */
export async function parseBody<T extends Type>(c: Context, schema: T): Promise<T['infer']> {
  const body = await jsonBody(c)
  if (!isPlainObject(body)) throw notJson('The request body must be a JSON object')
  return parse(schema, body)
}

/**
 * The `:id` of the path as a positive integer (canonical decimal only: `1`, never `01`, `+1`, ` 1`, `1e0`
 * or `0x1`). Any other spelling is a record that does not exist: 404 with the area's not-found code, as
 * for a missing id, so two spellings never name one record.
 */
export function pathId(c: Context, notFound: ErrorCode = 'ERR_NOT_FOUND', name = 'id'): number {
  const id = idParam(c.req.param(name) ?? '')
  if (id instanceof type.errors) throw new AppError(notFound, 'Not found')
  return id
}
