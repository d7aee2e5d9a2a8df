import type { ManualClock } from '../../clock'

/** The two timer functions the sandbox uses; injected so tests move time instead of sleeping. */
export type SandboxTimers = {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const systemTimers: SandboxTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

type Pending = { at: number; seq: number; fn: () => void }

/** Lets queued promise callbacks (event listeners, async handlers) run, without waiting on real time. */
export async function flushMicrotasks(rounds = 5) {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}

/**
 * Timers driven by a ManualClock: `advance(ms)` moves the clock and runs, in order, every timer that falls
 * due (including timers those timers schedule), letting promises settle after each one.
 */
export class ManualTimers implements SandboxTimers {
  private pending = new Map<number, Pending>()
  private seq = 0

  constructor(readonly clock: ManualClock) {}

  setTimeout(fn: () => void, ms: number) {
    const id = ++this.seq
    this.pending.set(id, { at: this.clock.now() + Math.max(0, ms), seq: id, fn })
    return id
  }

  clearTimeout(handle: unknown) {
    if (typeof handle === 'number') this.pending.delete(handle)
  }

  /** How many timers are waiting. */
  get size() {
    return this.pending.size
  }

  async advance(ms: number) {
    const target = this.clock.now() + ms
    for (;;) {
      let next: [number, Pending] | undefined
      for (const entry of this.pending) {
        if (entry[1].at > target) continue
        if (!next || entry[1].at < next[1].at || (entry[1].at === next[1].at && entry[1].seq < next[1].seq))
          next = entry
      }
      if (!next) break
      this.pending.delete(next[0])
      this.clock.set(Math.max(this.clock.now(), next[1].at))
      next[1].fn()
      await flushMicrotasks()
    }
    this.clock.set(target)
    await flushMicrotasks()
  }
}
