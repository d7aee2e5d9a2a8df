import type { Clock } from '../../clock'

/**
 * Counts failed sign-ins per (address, e-mail) and per address in a sliding window. Kept in memory on
 * purpose: a restart forgetting them is harmless, and a database write per failure would be a cheap DoS.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>()

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly perAccount = 5,
    private readonly perAddress = 30,
  ) {}

  /** Seconds until the caller may try again, or 0 when allowed. */
  retryAfter(address: string, email: string): number {
    const now = this.clock.now()
    const worst = [
      this.blockedFor(`a:${address}|${email}`, this.perAccount, now),
      this.blockedFor(`i:${address}`, this.perAddress, now),
    ]
    return Math.ceil(Math.max(...worst) / 1000)
  }

  fail(address: string, email: string) {
    const now = this.clock.now()
    for (const key of [`a:${address}|${email}`, `i:${address}`]) {
      const list = this.recent(key, now)
      list.push(now)
      this.failures.set(key, list)
    }
    if (this.failures.size > 50_000) this.prune(now)
  }

  succeed(address: string, email: string) {
    this.failures.delete(`a:${address}|${email}`)
  }

  private blockedFor(key: string, limit: number, now: number) {
    const list = this.recent(key, now)
    if (list.length < limit) return 0
    return list[list.length - limit]! + this.windowMs - now
  }

  private recent(key: string, now: number) {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs)
  }

  private prune(now: number) {
    for (const [key, list] of this.failures)
      if (!list.some((t) => t > now - this.windowMs)) this.failures.delete(key)
  }
}
