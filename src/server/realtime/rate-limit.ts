/**
 * How much a socket may send. The web sends a userStatus every 5 minutes and a leave/join pair when the user
 * opens a ticket, so a burst of 20 and 5 a second leave real use untouched while a script gets nowhere.
 */
export type FrameLimits = {
  /** Frames accepted at once after a quiet period. */
  burst: number
  /** Frames regained per second. */
  perSecond: number
  /** Frames dropped in a row after which the socket is closed: it is flooding, not bursting. */
  maxDropped: number
}

export const FRAME_LIMITS: FrameLimits = { burst: 20, perSecond: 5, maxDropped: 100 }

export type FrameVerdict = 'accept' | 'drop' | 'close'

/** A token bucket for one socket, on the injected clock so tests move time instead of sleeping. */
export class FrameLimiter {
  private tokens: number
  private at: number
  private dropped = 0

  constructor(
    private readonly clock: { now(): number },
    private readonly limits: FrameLimits = FRAME_LIMITS,
  ) {
    this.tokens = limits.burst
    this.at = clock.now()
  }

  take(): FrameVerdict {
    const now = this.clock.now()
    // A clock set backwards (tests, NTP) must not drain the bucket.
    const elapsed = Math.max(0, now - this.at)
    this.at = now
    this.tokens = Math.min(this.limits.burst, this.tokens + (elapsed * this.limits.perSecond) / 1000)
    if (this.tokens >= 1) {
      this.tokens -= 1
      this.dropped = 0
      return 'accept'
    }
    this.dropped += 1
    return this.dropped >= this.limits.maxDropped ? 'close' : 'drop'
  }
}
