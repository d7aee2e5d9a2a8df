import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { AppError, type ErrorBody, type TextErrorBody } from '../../shared/errors'
import type { AppEnv } from './env'

/** One place turns every failure into `{ error, message }`; nothing internal reaches a client. */
export function handleError(err: Error, c: Context<AppEnv>) {
  if (err instanceof AppError) {
    const body: ErrorBody | TextErrorBody =
      err.errorText === undefined
        ? { error: err.code, message: err.message }
        : { error: err.errorText, code: err.code, message: err.message }
    if (err.fields) body.fields = err.fields
    if (err.details) body.details = err.details
    return c.json(body, err.status as ContentfulStatusCode)
  }
  if (err instanceof HTTPException && err.status < 500) {
    const code = err.status === 413 ? 'ERR_PAYLOAD_TOO_LARGE' : 'ERR_VALIDATION'
    return c.json({ error: code, message: err.message || 'Bad request' } satisfies ErrorBody, err.status)
  }
  c.get('deps')?.log.error('unhandled error', {
    // The spec's password reset carries the new password in its path: never log it.
    path: c.req.path.replace(/^(\/api\/resetpasswords\/[^/]+)\/.*$/i, '$1/…'),
    method: c.req.method,
    error: err.message,
    stack: err.stack,
  })
  return c.json({ error: 'ERR_INTERNAL', message: 'An internal error occurred' } satisfies ErrorBody, 500)
}

export function notFoundApi(c: Context) {
  return c.json(
    { error: 'ERR_NOT_FOUND', message: `No route for ${c.req.method} ${c.req.path}` } satisfies ErrorBody,
    404,
  )
}
