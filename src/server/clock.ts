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

/** An instant as the API shows it (ISO 8601, UTC), or null. */
export function isoTime(ms: number | null | undefined) {
  return ms == null ? null : isoString(ms)
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'))
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'))
const DAY_MS = 86_400_000
/** `YYYY-MM-DDT` of a UTC day (days since the epoch); a pure memo, bounded. */
const dayPrefixes = new Map<number, string>()

/**
 * `new Date(ms).toISOString()`, ~6x cheaper (a list page formats 80 of them): the date part is memoized per
 * day, the time part is table lookups. Outside 1970..9999 or for a fractional ms it is toISOString itself.
 */
export function isoString(ms: number): string {
  if (!(ms >= 0 && ms < 253_402_300_800_000) || !Number.isInteger(ms)) return new Date(ms).toISOString()
  const day = Math.floor(ms / DAY_MS)
  let prefix = dayPrefixes.get(day)
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11)
    if (dayPrefixes.size >= 4096) dayPrefixes.clear()
    dayPrefixes.set(day, prefix)
  }
  let rest = ms - day * DAY_MS
  const h = (rest / 3_600_000) | 0
  rest -= h * 3_600_000
  const m = (rest / 60_000) | 0
  rest -= m * 60_000
  const s = (rest / 1000) | 0
  return `${prefix}${TWO_DIGITS[h]}:${TWO_DIGITS[m]}:${TWO_DIGITS[s]}.${THREE_DIGITS[rest - s * 1000]}Z`
}
