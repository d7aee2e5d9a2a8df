/**
 * The invoice job: a sweep over the companies (the state is the rows: a company's due date and its invoices),
 * so nothing lives only in memory. `start()` sweeps at once, which issues what fell due while the server was
 * down, then every `intervalMs` on deps.clock. Each sweep issues, for every active paying company whose due
 * date is at most INVOICE_LEAD_DAYS ahead (or past), the invoice of that due date if it does not exist yet
 * (service.ts, `ensureCompanyInvoice`); the unique (company, due date) index keeps it to one per period even if
 * two processes sweep at once. Company creation and due-date changes issue theirs at once, not at the next sweep.
 */
import type { Deps } from '../../context'
import { IntervalJob } from '../../jobs/interval'
import { sweepInvoices } from './service'

/** Due dates are days: an hourly look is plenty, and a restart sweeps at once. */
export const INVOICE_SWEEP_MS = 60 * 60 * 1000

/** Sweeps now (catching up with what fell due while down), then every interval. */
export class InvoiceJob extends IntervalJob {
  constructor(
    private readonly deps: Deps,
    intervalMs = INVOICE_SWEEP_MS,
  ) {
    super(deps.clock, intervalMs)
  }

  protected tick() {
    const issued = sweepInvoices(this.deps)
    if (issued > 0) this.deps.log.info('invoices issued', { count: issued })
  }

  protected failed(err: Error) {
    this.deps.log.error('invoices: sweep failed', { error: err.message })
  }
}

/** The job on plain deps (the jobs' catalogue). */
export function invoiceJob(deps: Deps, intervalMs?: number): InvoiceJob {
  const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
  return new InvoiceJob(plain as Deps, intervalMs)
}
