/** Time is injected so tests move it instead of sleeping. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock tests set and advance by hand. */
export class ManualClock implements Clock {
  constructor(private current = Date.parse('2026-11-21T12:00:00Z')) {}
  now() {
    return this.current
  }
  set(ms: number) {
    this.current = ms
  }
  advance(ms: number) {
    this.current += ms
  }
}

/** YYYY-MM-DD of an instant, in UTC. */
export function isoDate(ms: number) {
  return new Date(ms).toISOString().slice(0, 10)
}

export function isoTime(ms: number | null | undefined) {
  return ms == null ? null : new Date(ms).toISOString()
}
