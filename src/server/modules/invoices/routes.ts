import { Hono } from 'hono'
import { invoicesQuery, updateInvoiceBody } from '../../../shared/schemas/invoices'
import { ctxOf, requireAdmin, requireAuth, requireSuper } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { getInvoice, listAllInvoices, listCompanyInvoices, markPaidBySuper } from './service'

const NOT_FOUND = 'ERR_NO_INVOICE_FOUND'

/**
 * `/invoices`: a company's admins read their own company's invoices (`GET /all` → `{ invoices, count, hasMore }`,
 * `GET /{id}`); the super user lists every company's (`GET /`) and marks one paid (`PUT /{id}` {status: 'paid'}),
 * which extends the company like a confirmed payment. Attendants get 403.
 */
export const invoicesRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/all', (c) => c.json(listCompanyInvoices(ctxOf(c), parse(invoicesQuery, c.req.query()))))
  .get('/', requireSuper, (c) => c.json(listAllInvoices(ctxOf(c), parse(invoicesQuery, c.req.query()))))
  .get('/:id', (c) => c.json(getInvoice(ctxOf(c), pathId(c, NOT_FOUND))))
  .put('/:id', requireSuper, async (c) => {
    const id = pathId(c, NOT_FOUND)
    await parseBody(c, updateInvoiceBody)
    return c.json(markPaidBySuper(ctxOf(c), id))
  })
