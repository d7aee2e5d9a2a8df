/**
 * Invoices as the web keeps them, live (`company-{id}-invoice`, to the company's admins): the company's own
 * (`GET /invoices/all`), and for the super user every company's (`GET /invoices`, not live: those events go to
 * each company's admins).
 */
import type { InvoiceDto, InvoicesPage } from '../../../shared/invoices'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type InvoicesParams = { search: string }

/** The server's order: the latest due date first, then the latest id. */
export function compareInvoices(a: InvoiceDto, b: InvoiceDto): number {
  return a.dueDate < b.dueDate ? 1 : a.dueDate > b.dueDate ? -1 : b.id - a.id
}

export function invoiceMatches(invoice: InvoiceDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || invoice.detail.toLowerCase().includes(term) || String(invoice.id) === term
}

/** GET /api/invoices/all?searchParam=&pageNumber= → `{ invoices, count, hasMore }`. */
export const invoicesList = defineLiveList<InvoiceDto, InvoicesParams>({
  name: 'invoices',
  id: (i) => i.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<InvoicesPage>('/invoices/all', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.invoices ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareInvoices,
  matches: (invoice, { search }) => invoiceMatches(invoice, search),
  paramsKey: ({ search }) => search.trim(),
  events: [liveEvent<InvoiceDto, 'invoice'>('invoice', (data, list) => list.upsert(data.record))],
})

/** GET /api/invoices (the super user): every company's invoices, open ones first. */
export const allInvoicesList = defineLiveList<InvoiceDto, InvoicesParams>({
  name: 'invoices-all-companies',
  id: (i) => i.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<InvoicesPage>('/invoices', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.invoices ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  paramsKey: ({ search }) => search.trim(),
  events: [],
})
