/**
 * Time and timers come from one injected clock, so tests move time instead of sleeping: services read `now()`,
 * channels (reconnect backoff, QR lifetimes, sandbox receipts) schedule with `setTimeout` on the same clock.
 */
export interface Clock {
  now(): number
  setTimeout(fn: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
}

/** Opaque: only the clock that made a handle can clear it. */
export type TimerHandle = unknown

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

type Pending = { at: number; seq: number; fn: () => void }

/** Lets queued promise callbacks (event listeners, async handlers) run, without waiting on real time. */
export async function flushMicrotasks(rounds = 5) {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}

/**
 * A clock tests set and move by hand. Its timers fire only when time is moved past them, in order of due time
 * (then of scheduling), each seeing `now()` at its own due time.
 */
export class ManualClock implements Clock {
  private readonly pending = new Map<number, Pending>()
  private seq = 0

  constructor(private current = Date.parse('2026-11-21T12:00:00Z')) {}

  now() {
    return this.current
  }

  /** Jumps to an instant without firing timers (backwards jumps are allowed). */
  set(ms: number) {
    this.current = ms
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq
    this.pending.set(id, { at: this.current + Math.max(0, ms), seq: id, fn })
    return id
  }

  clearTimeout(handle: TimerHandle) {
    if (typeof handle === 'number') this.pending.delete(handle)
  }

  /** How many timers are waiting. */
  get pendingTimers() {
    return this.pending.size
  }

  /** The delays of the waiting timers from now, soonest first. */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.at - this.current).sort((a, b) => a - b)
  }

  /**
   * Moves time by `ms`, firing every timer that falls due (including timers those timers schedule)
   * synchronously. Use `tick` when what the timers start is asynchronous.
   */
  advance(ms: number) {
    const target = this.current + ms
    for (let next = this.takeDue(target); next; next = this.takeDue(target)) next.fn()
    this.current = target
  }

  /** Like `advance`, letting promises settle after each timer and at the end. */
  async tick(ms: number) {
    const target = this.current + ms
    for (let next = this.takeDue(target); next; next = this.takeDue(target)) {
      next.fn()
      await flushMicrotasks()
    }
    this.current = target
    await flushMicrotasks()
  }

  private takeDue(target: number): Pending | undefined {
    let next: [number, Pending] | undefined
    for (const entry of this.pending) {
      const t = entry[1]
      if (t.at > target) continue
      if (!next || t.at < next[1].at || (t.at === next[1].at && t.seq < next[1].seq)) next = entry
    }
    if (!next) return undefined
    this.pending.delete(next[0])
    this.current = Math.max(this.current, next[1].at)
    return next[1]
  }
}

/** YYYY-MM-DD of an instant, in UTC. */
export function isoDate(ms: number) {
  return new Date(ms).toISOString().slice(0, 10)
}

export function isoTime(ms: number | null | undefined) {
  return ms == null ? null : new Date(ms).toISOString()
}
