import type { Clock } from '../../clock'

/** The send API's rate per connection token (README: "External API"). */
export const API_BURST = 20
export const API_PER_MINUTE = 60

/**
 * A token bucket per key: `burst` requests at once, refilled at `perMinute`. Kept in memory (a restart
 * forgetting it is harmless); keys are connection ids, so it holds one entry per connection at most.
 */
export class TokenBucket {
  private readonly buckets = new Map<number, { tokens: number; at: number }>()

  constructor(
    private readonly clock: Clock,
    private readonly burst = API_BURST,
    private readonly perMinute = API_PER_MINUTE,
  ) {}

  /** Takes one request's token, or answers the seconds to wait for the next. */
  take(key: number): { ok: true } | { ok: false; retryAfter: number } {
    const now = this.clock.now()
    const rate = this.perMinute / 60_000
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now }
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * rate)
    bucket.at = now
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { ok: true }
    }
    return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000)) }
  }
}
