/**
 * The lifecycle the sweeping jobs share: run one pass at start (catching up with what fell due while the server
 * was down), then the next one `intervalMs` after each pass ends, on deps.clock; passes never overlap, and `stop`
 * clears the timer and resolves once the pass under way (if any) is over. A job extends it with its `tick`.
 */
import type { Clock, TimerHandle } from '../clock'
import type { Job } from './registry'

export abstract class IntervalJob implements Job {
  private timer: TimerHandle | undefined
  private running = false
  private current: Promise<void> = Promise.resolve()

  constructor(
    protected readonly clock: Clock,
    private readonly intervalMs: number,
  ) {}

  /** One pass. A throw (or rejection) goes to `failed`; the next pass still comes. */
  protected abstract tick(): void | Promise<void>

  /** A pass failed (log it). */
  protected abstract failed(err: Error): void

  /** Runs a pass now, then every interval. Starting a started job does nothing. */
  start() {
    if (this.running) return
    this.running = true
    this.run()
  }

  stop(): Promise<void> {
    this.running = false
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.timer = undefined
    return this.current
  }

  /** Resolves when the pass under way (if any) is over (tests). */
  idle(): Promise<void> {
    return this.current
  }

  private run() {
    let result: void | Promise<void>
    try {
      result = this.tick()
    } catch (err) {
      this.failed(err as Error)
      return this.next()
    }
    // A synchronous pass plans the next at once, as the sweeps always did; an async one when it ends.
    if (!(result instanceof Promise)) return this.next()
    this.current = result.catch((err: Error) => this.failed(err)).finally(() => this.next())
  }

  private next() {
    if (!this.running) return
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      this.run()
    }, this.intervalMs)
  }
}
