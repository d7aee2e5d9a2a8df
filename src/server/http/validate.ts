import { type Type, type } from 'arktype'
import type { Context } from 'hono'
import { AppError, type FieldError } from '../../shared/errors'

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
  return out
}

/** The JSON body, or a 400 when it is missing or not JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    throw new AppError('ERR_VALIDATION', 'The request body must be JSON', undefined, [
      { field: 'body', message: 'must be a JSON object' },
    ])
  }
}

export async function parseBody<T extends Type>(c: Context, schema: T): Promise<T['infer']> {
  return parse(schema, await jsonBody(c))
}

export function fieldError(
  field: string,
  message: string,
  code: ConstructorParameters<typeof AppError>[0] = 'ERR_VALIDATION',
) {
  return new AppError(code, message, undefined, [{ field, message }])
}

/** The `:id` of the path as a positive integer, or a 400 naming `id`. */
export function pathId(c: Context, name = 'id'): number {
  const id = Number(c.req.param(name))
  if (!Number.isSafeInteger(id) || id < 1) throw fieldError(name, `${name} must be a positive integer`)
  return id
}
