import { Hono } from 'hono'
import { AppError } from '../../../shared/errors'
import { checkoutBody, paymentWebhookBody } from '../../../shared/schemas/invoices'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { isPlainObject, jsonDepth, MAX_JSON_DEPTH, parse, parseBody } from '../../http/validate'
import {
  checkout,
  confirmPayment,
  getSubscription,
  SIGNATURE_HEADER,
  verifyPaymentSignature,
  webhookSecret,
} from './service'

/** `/subscription`: the company's admins see their subscription (GET) and get a Pix code for an invoice (POST). */
export const subscriptionRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(getSubscription(ctxOf(c))))
  .post('/', async (c) => c.json(checkout(ctxOf(c), await parseBody(c, checkoutBody))))

const badBody = (message: string) =>
  new AppError('ERR_VALIDATION', message, undefined, [{ field: 'body', message: 'must be a JSON object' }])

/**
 * `POST /payments/webhook` (no session: the payment provider signs the raw body, see service.ts). The signature
 * is checked before the body is even parsed.
 */
export const paymentsRoutes = new Hono<AppEnv>().post('/webhook', async (c) => {
  const deps = c.get('deps')
  const secret = webhookSecret(deps)
  let raw: Uint8Array
  try {
    raw = new Uint8Array(await c.req.arrayBuffer())
  } catch {
    throw badBody('The request body could not be read')
  }
  try {
    verifyPaymentSignature(secret, raw, c.req.header(SIGNATURE_HEADER))
  } catch (err) {
    deps.log.warn('payment webhook refused: bad signature')
    throw err
  }
  const text = new TextDecoder().decode(raw)
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw badBody('The body nests too deep')
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw badBody('The request body must be JSON')
  }
  if (!isPlainObject(body)) throw badBody('The request body must be a JSON object')
  const result = confirmPayment(deps, parse(paymentWebhookBody, body))
  deps.log.info('payment confirmed by webhook', { invoiceId: result.invoice.id, extended: result.extended })
  return c.json(result)
})
