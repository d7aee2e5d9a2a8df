/**
 * The server's background jobs, in one place per process: serve.ts and the test harness each create one
 * `Jobs` with the deps, declare the jobs the same way (catalogue.ts), and reach them through the deps
 * (`ctx.jobs.wake('campaigns')`) instead of module-level singletons.
 *
 * Two things live here. A job's lifecycle (`define`): a name and a loader that may import its module lazily, so
 * start-up parses only what it runs; `start` loads and starts the jobs in the order they were defined, `stop`
 * stops them in the reverse order, each awaited within one shared bound. And the objects services talk to
 * (`use`): the sender, the runners, the indexer, created on first use and kept by name for the life of the
 * registry, so every caller of one process shares them.
 */
import type { Clock } from '../clock'
import type { Logger } from '../logger'

/** What every background job does. `start` may return its first pass, which the registry does not wait for. */
export type Job = {
  start(): Promise<void> | void
  /** Resolves once the job holds no timer and its current pass (if any) is over. */
  stop(): Promise<void> | void
  /** Something changed: look again now (a no-op for a job that is not started). */
  wake?(): void
}

/**
 * The names the server uses: its jobs (catalogue.ts, in start order) and the shared objects that are not
 * started on their own (the search indexer runs with the inbound pipeline, the bot dispatcher with the chatbot,
 * the connections' outbound doors with the senders that take turns at them).
 * A closed list, so a misspelt `ctx.jobs.wake('campaign')` does not compile.
 */
export type JobName =
  | 'inbound'
  | 'chatbot'
  | 'channels'
  | 'outbound'
  | 'imports'
  | 'checker'
  | 'schedules'
  | 'campaigns'
  | 'invoices'
  | 'backups'
  | 'search'
  | 'bots'
  | 'doors'

export type JobsDeps = { clock: Clock; log: Logger; random: () => number }

/** The bound on a graceful stop, all jobs together. */
export const JOBS_STOP_BOUND_MS = 10_000

type Entry = {
  load: () => Job | Promise<Job>
  job?: Job
  starting?: Promise<void>
  started: boolean
}

export type StopReport<N extends string = JobName> = { stopped: N[]; late: N[] }

/** `N` is the names it accepts: the server's (`JobName`) unless a test wants its own. */
export class Jobs<N extends string = JobName> {
  private readonly entries = new Map<N, Entry>()
  private readonly instances = new Map<N, unknown>()
  /** Once a stop began, nothing starts any more (a start still loading modules must not outlive it). */
  private stopping = false

  constructor(readonly deps: JobsDeps) {}

  /** Declares a job; `load` runs at its start (import its module there to keep it lazy). */
  define(name: N, load: () => Job | Promise<Job>) {
    if (this.entries.has(name)) throw new Error(`job ${name} is already defined`)
    this.entries.set(name, { load, started: false })
    return this
  }

  /** The names of the defined jobs, in start order. */
  names(): N[] {
    return [...this.entries.keys()]
  }

  /** Whether the job has been started (and not stopped since). */
  running(name: N): boolean {
    return this.entries.get(name)?.started ?? false
  }

  /** The object kept under `name`, created by `create` on first use. */
  use<T>(name: N, create: () => T): T {
    if (this.instances.has(name)) return this.instances.get(name) as T
    const made = create()
    this.instances.set(name, made)
    return made
  }

  /** The object kept under `name`, if it was created. */
  peek<T>(name: N): T | undefined {
    return this.instances.get(name) as T | undefined
  }

  /** Forgets the object kept under `name` (a stopped chatbot, a test's fresh runner). */
  drop(name: N) {
    this.instances.delete(name)
  }

  /** Wakes the object kept under `name`, if it exists (nothing to wake otherwise). */
  wake(name: N) {
    this.peek<Partial<Job>>(name)?.wake?.()
  }

  /** Loads and starts these jobs (every defined one by default), in definition order; started ones are skipped. */
  async start(names: N[] = this.names()): Promise<void> {
    for (const name of this.names()) {
      if (this.stopping) return
      if (!names.includes(name)) continue
      const entry = this.entries.get(name)!
      if (entry.started || entry.starting) {
        await entry.starting
        continue
      }
      entry.starting = this.startOne(name, entry)
      await entry.starting
      entry.starting = undefined
    }
  }

  private async startOne(name: N, entry: Entry) {
    try {
      entry.job ??= await entry.load()
      const job = entry.job
      if (this.stopping) return
      entry.started = true
      const first = job.start()
      if (first)
        void first.catch((err: Error) =>
          this.deps.log.error('job failed while starting', { job: name, error: err?.message }),
        )
    } catch (err) {
      this.deps.log.error('job could not start', { job: name, error: (err as Error)?.message })
    }
  }

  /**
   * Stops every started job in the reverse of their declaration order, awaiting each; all together get `boundMs`, after
   * which the ones still stopping are given up on (and logged). Calling it again stops nothing twice.
   */
  async stop(boundMs = JOBS_STOP_BOUND_MS): Promise<StopReport<N>> {
    this.stopping = true
    const report: StopReport<N> = { stopped: [], late: [] }
    const deadline = Date.now() + boundMs
    for (const name of this.names().reverse()) {
      const entry = this.entries.get(name)!
      if (entry.starting) await within(entry.starting, deadline - Date.now())
      if (!entry.started || !entry.job) continue
      entry.started = false
      const done = within(
        Promise.resolve()
          .then(() => entry.job!.stop())
          .catch((err: Error) =>
            this.deps.log.error('job failed while stopping', { job: name, error: err?.message }),
          ),
        deadline - Date.now(),
      )
      if (await done) report.stopped.push(name)
      else {
        report.late.push(name)
        this.deps.log.warn('job did not stop in time', { job: name, boundMs })
      }
    }
    return report
  }
}

/**
 * Whether `work` settled within `ms` of real time (past the bound, a stop that settles at once still counts).
 * The bound is on the wall clock, not deps.clock: it protects a process that is exiting, and a manual clock
 * would never fire it.
 */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms))
  })
  try {
    return await Promise.race([work.then(() => true as const), late])
  } finally {
    clearTimeout(timer)
  }
}
