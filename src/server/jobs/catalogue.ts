/**
 * Every background job of the server, in start order (stop runs the other way), declared once for serve.ts and
 * the test harness. Each loader imports its module when the job starts, so declaring costs nothing at start-up.
 */
import type { Deps } from '../context'
import { type Job, Jobs, type JobsDeps } from './registry'

export type JobsOptions = {
  /** Daily backups in the data folder (ops/scheduled-backups.ts): off unless `keep` > 0. */
  backups?: { dataDir: string; keep: number }
}

/** A registry for these deps (the jobs are declared on it by `declareJobs` once the deps hold it). */
export function createJobs(deps: Pick<JobsDeps, 'clock' | 'log'> & { random?: () => number }): Jobs {
  return new Jobs({ clock: deps.clock, log: deps.log, random: deps.random ?? Math.random })
}

export function declareJobs(deps: Deps, options: JobsOptions = {}): Jobs {
  const { jobs } = deps
  // The inbound pipeline (channel sink, search indexer, media downloads) listens before any session starts, so
  // nothing a session hands over is missed; it stops after them, so what they handed over last is stored.
  jobs.define('inbound', async () => {
    const m = await import('../modules/inbound')
    return { start: () => void m.startInbound(deps), stop: () => m.stopInbound(deps) }
  })
  // The chatbot answers stored messages (its boot catch-up runs before the sessions start); its timers sweep.
  jobs.define('chatbot', async () => {
    const m = await import('../modules/chatbot')
    return { start: () => void m.startChatbot(deps), stop: () => m.chatbotOf(deps)?.stop() }
  })
  // The sessions: resumed at boot, stopped without touching their rows.
  jobs.define('channels', () => ({
    start: () => void deps.channels.startAll(),
    stop: () => deps.channels.stopAll(),
  }))
  // Outbound messages of the previous run: sends it interrupted become failed (never resent blindly), queued
  // ones go out once their connections are back (modules/messages/outbound.ts).
  jobs.define('outbound', async () => {
    const sender = (await import('../modules/messages/outbound')).outboundSender(deps)
    return { start: () => sender.resume(), stop: () => sender.stop() }
  })
  // Spreadsheet imports cut short continue; contact list items still unknown are checked (modules/contact-lists).
  jobs.define('imports', async () => (await import('../modules/contact-lists/imports')).importsJob(deps))
  jobs.define('checker', async () => (await import('../modules/contact-lists/checker')).checkerJob(deps))
  // Scheduled messages: what fell due while the server was down goes out now, in order.
  jobs.define('schedules', async () => (await import('../modules/schedules/runner')).scheduleRunner(deps))
  // Campaigns: interrupted sends become failed, due campaigns start, paced senders resume.
  jobs.define('campaigns', async () => (await import('../modules/campaigns/runner')).campaignRunner(deps))
  // Invoices: issued from 10 days before each due date; the first sweep issues what fell due while down.
  jobs.define('invoices', async () => (await import('../modules/invoices/job')).invoiceJob(deps))
  const backups = options.backups
  if (backups && backups.keep > 0)
    jobs.define(
      'backups',
      async (): Promise<Job> =>
        new (await import('../ops/scheduled-backups')).ScheduledBackups({
          ...backups,
          clock: deps.clock,
          log: deps.log,
        }),
    )
  return jobs
}
