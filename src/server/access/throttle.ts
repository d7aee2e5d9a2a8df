import type { Clock } from '../clock'

const MINUTE = 60 * 1000

/** The limits of sign-in attempts; the README's "Sign-in throttling" explains the choice. */
export type ThrottleLimits = {
  /** Failures of one account from one address, per `windowMs`. */
  perAddressAccount: number
  /** Failures from one address, whatever the account, per `windowMs`. */
  perAddress: number
  windowMs: number
  /** Failures of one account from every address together, per `accountWindowMs`. */
  perAccount: number
  accountWindowMs: number
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perAddressAccount: 5,
  perAddress: 30,
  windowMs: 15 * MINUTE,
  perAccount: 10,
  accountWindowMs: 5 * MINUTE,
}

/** An attempt counted before its password is checked; `succeed` gives it back. */
export type Reservation = { address: string; account: string; at: number }

/**
 * Counts sign-in attempts in sliding windows, per (address, account), per address, and per account across
 * addresses. An attempt is reserved, counted as a failure, before the slow password hash, so parallel
 * guesses cannot all pass the check before any is recorded; a success gives its reservation back.
 *
 * The account-wide cap stops a guess spread over many addresses; it is short (minutes) so an attack locks
 * the owner out for little longer than it lasts, and addresses the account has signed in from before are
 * exempt from it, so the owner at their usual place is not locked out at all.
 *
 * Kept in memory on purpose: a restart forgetting them is harmless, and a database write per failure
 * would be a cheap denial of service.
 */
export class LoginThrottle {
  private readonly attempts = new Map<string, number[]>()
  /** account -> addresses it signed in from; bounded, oldest forgotten first. */
  private readonly known = new Map<string, Set<string>>()

  constructor(
    private readonly clock: Clock,
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
  ) {}

  /**
   * Counts one attempt now, or answers how many seconds the caller must wait (the attempt is then not
   * counted, so waiting callers do not extend their own block).
   */
  reserve(address: string, account: string): { reservation: Reservation } | { retryAfter: number } {
    const now = this.clock.now()
    const keys = this.keys(address, account)
    const limits = this.limits
    const waits = [
      this.blockedFor(keys.pair, limits.perAddressAccount, limits.windowMs, now),
      this.blockedFor(keys.address, limits.perAddress, limits.windowMs, now),
      this.known.get(account)?.has(address)
        ? 0
        : this.blockedFor(keys.account, limits.perAccount, limits.accountWindowMs, now),
    ]
    const wait = Math.max(...waits)
    if (wait > 0) return { retryAfter: Math.ceil(wait / 1000) }
    for (const key of Object.values(keys)) this.push(key, now)
    if (this.attempts.size > 50_000) this.prune(now)
    return { reservation: { address, account, at: now } }
  }

  /** The password was right: the attempt was not a failure, and this address is now known for the account. */
  succeed(reservation: Reservation) {
    const { address, account, at } = reservation
    const keys = this.keys(address, account)
    this.attempts.delete(keys.pair)
    for (const key of [keys.address, keys.account]) this.remove(key, at)
    this.remember(account, address)
  }

  private keys(address: string, account: string) {
    return { pair: `p:${address}|${account}`, address: `i:${address}`, account: `u:${account}` }
  }

  private blockedFor(key: string, limit: number, windowMs: number, now: number) {
    const list = this.recent(key, windowMs, now)
    if (list.length < limit) return 0
    return list[list.length - limit]! + windowMs - now
  }

  private recent(key: string, windowMs: number, now: number) {
    const list = this.attempts.get(key)
    if (!list) return []
    const kept = list.filter((t) => t > now - windowMs)
    if (kept.length !== list.length) {
      if (kept.length) this.attempts.set(key, kept)
      else this.attempts.delete(key)
    }
    return kept
  }

  private push(key: string, now: number) {
    const list = this.attempts.get(key)
    if (list) list.push(now)
    else this.attempts.set(key, [now])
  }

  private remove(key: string, at: number) {
    const list = this.attempts.get(key)
    const i = list?.lastIndexOf(at) ?? -1
    if (!list || i < 0) return
    list.splice(i, 1)
    if (list.length === 0) this.attempts.delete(key)
  }

  private remember(account: string, address: string) {
    const set = this.known.get(account) ?? new Set<string>()
    set.delete(address)
    set.add(address)
    if (set.size > 20) set.delete(set.values().next().value!)
    this.known.delete(account)
    this.known.set(account, set)
    if (this.known.size > 50_000) this.known.delete(this.known.keys().next().value!)
  }

  private prune(now: number) {
    const longest = Math.max(this.limits.windowMs, this.limits.accountWindowMs)
    for (const [key, list] of this.attempts)
      if (!list.some((t) => t > now - longest)) this.attempts.delete(key)
  }
}
