/**
 * The subscription and its Pix checkout (spec 3), and payment confirmation by the payment provider's webhook.
 *
 * Checkout (`POST /subscription`): the invoice must be one of the actor's company's open invoices; the amount,
 * the plan and the txid come from that invoice, never from the client. The answer is the spec's Pix shape with a
 * real BR Code (src/shared/pix.ts) for the platform's Pix receiver (Settings or BALCAO_PIX_KEY,
 * BALCAO_PIX_MERCHANT_NAME, BALCAO_PIX_MERCHANT_CITY); without one the checkout answers 503 ERR_PIX_NOT_CONFIGURED.
 * The billing data of step 1 is checked and not stored; card fields are not read (Pix only).
 *
 * Payment webhook (`POST /api/payments/webhook`), for the payment provider:
 *   body    {"invoiceId": 12, "status": "paid", "amount": "99.90"}
 *   header  X-Balcao-Signature: sha256=<hex of HMAC-SHA256(raw request body, secret)>
 * The secret is the platform setting paymentWebhookSecret (Settings, or BALCAO_PAYMENT_WEBHOOK_SECRET); with none,
 * 503 ERR_PAYMENT_WEBHOOK_NOT_CONFIGURED. The signature is checked over the raw bytes, before the body is
 * parsed, with a constant-time comparison: missing or wrong (or a body changed after signing) is 401
 * ERR_INVALID_SIGNATURE and nothing changes. Then: an unknown invoice 404, an amount that is not the invoice's
 * value 409 ERR_INVOICE_AMOUNT_MISMATCH, a void invoice (its due date was edited or extended since) 409
 * ERR_INVOICE_VOID, logged, extending nothing; otherwise 200 and the invoice is paid and the company extended
 * once (the same notice again answers 200 with `extended: false`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { AppError } from '../../../shared/errors'
import type { CheckoutResponse, SubscriptionDto } from '../../../shared/invoices'
import { buildBrCode, formatPixAmount } from '../../../shared/pix'
import { answeredDueDate } from '../../../shared/plans'
import type { CheckoutInput, PaymentWebhookInput } from '../../../shared/schemas/invoices'
import type { Ctx, Deps } from '../../context'
import { userActor } from '../../context'
import { stmt } from '../../db/statements'
import { getInvoiceInCompany, markInvoicePaid, oldestOpenInvoice, toInvoiceDto } from '../invoices/service'
import { platformSetting } from '../platform-settings/service'

type PixReceiver = { key: string; merchantName: string; merchantCity: string }

function pixReceiver(deps: Pick<Deps, 'sqlite' | 'secrets' | 'env'>): PixReceiver | null {
  const key = platformSetting(deps, 'pixKey')
  const merchantName = platformSetting(deps, 'pixMerchantName')
  const merchantCity = platformSetting(deps, 'pixMerchantCity')
  return key && merchantName && merchantCity ? { key, merchantName, merchantCity } : null
}

type CompanyBilling = {
  id: number
  name: string
  email: string | null
  dueDate: string | null
  trialExpiration: string | null
  recurrence: SubscriptionDto['company']['recurrence']
  planId: number | null
  planName: string | null
  planValueCents: number | null
}

/** `GET /subscription`: the company's trial, billing e-mail, plan and the invoice the subscribe button pays. */
export function getSubscription(ctx: Ctx): SubscriptionDto {
  const companyId = ctx.actor.companyId
  const row = stmt<CompanyBilling, [number]>(
    ctx.sqlite,
    `SELECT c.id, c.name, c.email, c.due_date AS dueDate, c.trial_expiration AS trialExpiration, c.recurrence,
        p.id AS planId, p.name AS planName, p.value_cents AS planValueCents
      FROM companies c LEFT JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`,
  ).get(companyId)
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 'Company not found')
  const open = oldestOpenInvoice(ctx, companyId)
  return {
    company: {
      id: row.id,
      name: row.name,
      email: row.email,
      dueDate: answeredDueDate(row.dueDate),
      trialExpiration: row.trialExpiration,
      recurrence: row.recurrence,
    },
    plan:
      row.planId != null
        ? { id: row.planId, name: row.planName ?? '', value: (row.planValueCents ?? 0) / 100 }
        : null,
    openInvoice: open ? toInvoiceDto(open) : null,
    pixConfigured: pixReceiver(ctx) !== null,
  }
}

/** `POST /subscription`: the Pix code for one of the company's open invoices. */
export function checkout(ctx: Ctx, input: CheckoutInput): CheckoutResponse {
  const actor = userActor(ctx)
  const invoice = getInvoiceInCompany(ctx.sqlite, actor.companyId, input.invoiceId)
  if (invoice.status === 'void')
    throw new AppError('ERR_INVOICE_VOID', 'This invoice was cancelled and cannot be paid')
  if (invoice.status !== 'open') throw new AppError('ERR_INVOICE_NOT_OPEN', 'This invoice is already paid')
  const receiver = pixReceiver(ctx)
  if (!receiver) {
    ctx.log.warn(
      'checkout refused: no Pix receiver configured (Settings or BALCAO_PIX_KEY, _MERCHANT_NAME, _CITY)',
    )
    throw new AppError('ERR_PIX_NOT_CONFIGURED', 'Pix payments are not configured on this platform yet')
  }
  const solicitacaoPagador = `Fatura ${invoice.id}`
  let code: string
  try {
    code = buildBrCode({
      ...receiver,
      amountCents: invoice.valueCents,
      txid: invoice.txid,
      description: solicitacaoPagador,
    })
  } catch (err) {
    ctx.log.warn('checkout refused: the Pix settings cannot make a BR Code', {
      error: (err as Error).message,
    })
    throw new AppError('ERR_PIX_NOT_CONFIGURED', 'The platform Pix settings are not valid')
  }
  return {
    txid: invoice.txid,
    status: 'ATIVA',
    chave: receiver.key,
    valor: { original: formatPixAmount(invoice.valueCents) },
    qrcode: { qrcode: code },
    solicitacaoPagador,
    invoice: toInvoiceDto(invoice),
  }
}

export const SIGNATURE_HEADER = 'x-balcao-signature'

/** `sha256=<hex>` of the raw body: what the provider sends in X-Balcao-Signature. */
export function signPaymentBody(secret: string, raw: Uint8Array | string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`
}

/** The webhook's secret, or 503 when none is configured. */
export function webhookSecret(deps: Pick<Deps, 'sqlite' | 'secrets' | 'env'>): string {
  const secret = platformSetting(deps, 'paymentWebhookSecret')
  if (!secret)
    throw new AppError('ERR_PAYMENT_WEBHOOK_NOT_CONFIGURED', 'No payment webhook secret is configured')
  return secret
}

/** Throws 401 unless `header` is `sha256=` + the HMAC-SHA256 of `raw` with `secret` (constant time). */
export function verifyPaymentSignature(secret: string, raw: Uint8Array, header: string | undefined) {
  const match = header?.trim().match(/^sha256=([0-9a-fA-F]{64})$/)
  const expected = createHmac('sha256', secret).update(raw).digest()
  const given = match ? Buffer.from(match[1]!, 'hex') : Buffer.alloc(expected.length)
  // Compared even when the header is malformed, so the time taken says nothing about the secret.
  const equal = timingSafeEqual(given, expected)
  if (!match || !equal) throw new AppError('ERR_INVALID_SIGNATURE', 'Missing or wrong X-Balcao-Signature')
}

/** Amount '99.90' (or '99.9', '99') in cents. */
export function amountCents(amount: string): number {
  const [whole, fraction = ''] = amount.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

/** A verified payment notice: pays the invoice (404 unknown, 409 wrong amount or void; paid already: no change). */
export function confirmPayment(deps: Deps, input: PaymentWebhookInput) {
  const result = markInvoicePaid(deps, input.invoiceId, {
    via: 'webhook',
    amountCents: amountCents(input.amount),
  })
  return {
    ok: true,
    extended: result.extended,
    invoice: { id: result.invoice.id, status: result.invoice.status },
    company: { id: result.invoice.companyId, dueDate: answeredDueDate(result.dueDate) },
  }
}
