/**
 * Invoices, the subscription checkout and payment confirmation (spec 3: Subscription, Invoices, Checkout):
 * shapes shared by the server and the web, and the display rule of an invoice's status.
 */
import type { Recurrence } from './plans'

/** Invoices exist for a company from this many days before each due date (one per period). */
export const INVOICE_LEAD_DAYS = 10
/** The spec's redirect after a payment is confirmed (CONCLUIDA). */
export const PAYMENT_REDIRECT_MS = 4000

/** `void`: issued for a due date the company no longer has (edited or extended since); it cannot be paid. */
export type InvoiceStatus = 'open' | 'paid' | 'void'

export type InvoiceDto = {
  id: number
  companyId: number
  /** 'Plano X — mensal'. */
  detail: string
  /** BRL (99.9): the plan's monthly value times the recurrence's months. */
  value: number
  /** YYYY-MM-DD: the due date this invoice pays for. */
  dueDate: string
  status: InvoiceStatus
  paidAt: string | null
  /** The Pix transaction id of the checkout's code. */
  txid: string
  plan: { id: number | null; name: string; value: number }
  recurrence: Recurrence
  /** Only in the super user's list of every company's invoices. */
  company?: { id: number; name: string }
  createdAt: string
  updatedAt: string
}

/** `GET /invoices/all` and `GET /invoices` (super). */
export type InvoicesPage = { invoices: InvoiceDto[]; count: number; hasMore: boolean }

/** How the invoices screen shows an invoice (spec 3, States): paid, overdue (a reddish row), open, or void. */
export type InvoiceDisplayStatus = 'paid' | 'overdue' | 'open' | 'void'

/**
 * Paid: 'Pago'; void: 'Cancelada' (not payable, never overdue); unpaid with a due date before today: 'Vencido';
 * otherwise 'Em Aberto'. `today` is YYYY-MM-DD.
 */
export function invoiceDisplayStatus(
  invoice: Pick<InvoiceDto, 'status' | 'dueDate'>,
  today: string,
): InvoiceDisplayStatus {
  if (invoice.status !== 'open') return invoice.status
  return invoice.dueDate < today ? 'overdue' : 'open'
}

/** `GET /subscription`: what the subscription screen shows. */
export type SubscriptionDto = {
  company: {
    id: number
    name: string
    /** The billing e-mail. */
    email: string | null
    /** NO_DUE_DATE (shared/plans.ts) for a company that never expires. */
    dueDate: string | null
    trialExpiration: string | null
    recurrence: Recurrence
  }
  plan: { id: number; name: string; value: number } | null
  /** The oldest open invoice, the one the subscribe button pays. */
  openInvoice: InvoiceDto | null
  /** Whether the platform has a Pix receiver configured (otherwise the checkout answers 503). */
  pixConfigured: boolean
}

/**
 * `POST /subscription`: the spec's Pix answer. `qrcode.qrcode` is the BR Code ("Pix copia e cola", EMV with
 * CRC16) the browser also draws as a QR image; `valor.original` the amount ('99.90').
 */
export type CheckoutResponse = {
  txid: string
  status: 'ATIVA'
  chave: string
  valor: { original: string }
  qrcode: { qrcode: string }
  solicitacaoPagador: string
  invoice: InvoiceDto
}

/** The checkout's country options (spec 3: BR and usa). */
export const CHECKOUT_COUNTRIES = ['BR', 'usa'] as const
