import { Hono, type MiddlewareHandler } from 'hono'
import { AppError } from '../../../shared/errors'
import { externalSendBody, externalSendFields } from '../../../shared/schemas/messages'
import { assertCompanyOpen } from '../../access/company-access'
import type { ApiTokenActor, Ctx, Deps } from '../../context'
import { bearer, requirePlanFeature } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody } from '../../http/validate'
import { formFields, readForm, readMedias, type UploadedMedia } from '../../media/upload'
import { externalSend } from './service'
import { TokenBucket } from './throttle'

type TokenRow = { id: number; companyId: number; companyStatus: number; dueDate: string | null }

/**
 * The caller is a connection's token (`Authorization: Bearer <token>`): the API-token actor of that
 * connection's company. An unknown token is 401; an inactive or expired company answers as for its users.
 */
const requireConnectionToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const deps = c.get('deps')
  const token = bearer(c.req.header('authorization'))
  if (!token) throw new AppError('ERR_NO_TOKEN', 'Send the connection token as Authorization: Bearer <token>')
  const row = deps.sqlite
    .query<TokenRow, [string]>(
      `SELECT w.id, w.company_id AS companyId, c.status AS companyStatus, c.due_date AS dueDate
         FROM whatsapps w JOIN companies c ON c.id = w.company_id WHERE w.token = ?`,
    )
    .get(token)
  if (!row) throw new AppError('ERR_INVALID_TOKEN', 'Unknown connection token')
  assertCompanyOpen(deps, { id: row.companyId, status: row.companyStatus, dueDate: row.dueDate }, false)
  const actor: ApiTokenActor = { kind: 'apiToken', companyId: row.companyId, whatsappId: row.id }
  c.set('actor', actor)
  await next()
}

const buckets = new WeakMap<object, TokenBucket>()

/** Per connection token: a burst of 20, then 60 a minute; beyond that 429 with Retry-After. */
const throttlePerToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const deps = c.get('deps')
  let bucket = buckets.get(deps.sqlite)
  if (!bucket) {
    bucket = new TokenBucket(deps.clock)
    buckets.set(deps.sqlite, bucket)
  }
  const actor = c.get('actor') as ApiTokenActor
  const taken = bucket.take(actor.whatsappId)
  if (!taken.ok) {
    c.header('retry-after', String(taken.retryAfter))
    throw new AppError(
      'ERR_TOO_MANY_ATTEMPTS',
      `Too many messages for this token; try again in ${taken.retryAfter} s`,
      {
        retryAfter: taken.retryAfter,
      },
    )
  }
  await next()
}

/** `POST /api/messages/send`: JSON `{ number, body }` or multipart with `medias` (+ `number`, `body`). */
export const externalApiRoutes = new Hono<AppEnv>().post(
  '/send',
  requireConnectionToken,
  requirePlanFeature('useExternalApi'),
  throttlePerToken,
  async (c) => {
    let input: { number: string; body: string; uploads: UploadedMedia[] }
    if (c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
      const form = await readForm(c)
      const fields = parse(externalSendFields, formFields(form))
      input = { number: fields.number, body: fields.body ?? '', uploads: await readMedias(form) }
    } else {
      const json = await parseBody(c, externalSendBody)
      input = { number: json.number, body: json.body, uploads: [] }
    }
    const ctx = { ...(c.get('deps') as Deps), actor: c.get('actor') } as Ctx<ApiTokenActor>
    return c.json(await externalSend(ctx, input))
  },
)
