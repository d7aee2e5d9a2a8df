/**
 * The invoice job: a sweep over the companies (the state is the rows: a company's due date and its invoices),
 * so nothing lives only in memory. `start()` sweeps at once, which issues what fell due while the server was
 * down, then every `intervalMs` on deps.clock. Each sweep issues, for every active paying company whose due
 * date is at most INVOICE_LEAD_DAYS ahead (or past), the invoice of that due date if it does not exist yet
 * (service.ts, `ensureCompanyInvoice`); the unique (company, due date) index keeps it to one per period even if
 * two processes sweep at once. Company creation and due-date changes issue theirs at once, not at the next sweep.
 */
import type { TimerHandle } from '../../clock'
import type { Deps } from '../../context'
import { sweepInvoices } from './service'

/** Due dates are days: an hourly look is plenty, and a restart sweeps at once. */
export const INVOICE_SWEEP_MS = 60 * 60 * 1000

export class InvoiceJob {
  private handle: TimerHandle | undefined
  private running = false

  constructor(
    private readonly deps: Deps,
    private readonly intervalMs = INVOICE_SWEEP_MS,
  ) {}

  /** Sweeps now (catching up with what fell due while down), then every interval. */
  start() {
    if (this.running) return this
    this.running = true
    this.tick()
    return this
  }

  stop() {
    this.running = false
    if (this.handle !== undefined) this.deps.clock.clearTimeout(this.handle)
    this.handle = undefined
  }

  private tick() {
    try {
      const issued = sweepInvoices(this.deps)
      if (issued > 0) this.deps.log.info('invoices issued', { count: issued })
    } catch (err) {
      this.deps.log.error('invoices: sweep failed', { error: (err as Error).message })
    }
    if (this.running) this.handle = this.deps.clock.setTimeout(() => this.tick(), this.intervalMs)
  }
}

/** Starts the job on plain deps (serve.ts). */
export function startInvoiceJob(deps: Deps, intervalMs?: number): InvoiceJob {
  const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
  return new InvoiceJob(plain as Deps, intervalMs).start()
}
