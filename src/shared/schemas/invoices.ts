import { type } from 'arktype'
import { CHECKOUT_COUNTRIES } from '../invoices'
import { pageQuery, text } from './common'

/** `GET /invoices/all` and `GET /invoices`: search (detail, or the company's name for the super user) and page. */
export const invoicesQuery = pageQuery

/** `PUT /invoices/{id}` (super user): the only change is marking it paid. */
export const updateInvoiceBody = type({ '+': 'delete', status: "'paid'" })

/**
 * `POST /subscription`: the spec's checkout payload. Only what step 1 collects is checked (full name, address,
 * city, zip code, country) and the invoice to pay; the plan, price, users and connections a client sends are
 * ignored (the server takes them from the invoice), and the card fields (nameOnCard, cardNumber, cvv) are
 * dropped unread: the checkout is Pix only.
 */
export const checkoutBody = type({
  '+': 'delete',
  firstName: text(1, 200),
  'lastName?': type('string.trim').to('string <= 200'),
  address2: text(1, 300),
  city: text(1, 120),
  'state?': type('string.trim').to('string <= 120'),
  zipcode: text(1, 20),
  country: type.enumerated(...CHECKOUT_COUNTRIES),
  'useAddressForPaymentDetails?': 'boolean',
  invoiceId: '1 <= number.integer <= 9007199254740991',
})

export type CheckoutInput = typeof checkoutBody.infer

/**
 * `POST /payments/webhook`: `{ "invoiceId": N, "status": "paid", "amount": "99.90" }` (the amount in BRL with a
 * dot and at most two decimals).
 */
export const paymentWebhookBody = type({
  '+': 'delete',
  invoiceId: '1 <= number.integer <= 9007199254740991',
  status: "'paid'",
  amount: /^\d{1,10}(\.\d{1,2})?$/,
})

export type PaymentWebhookInput = typeof paymentWebhookBody.infer
