import { describe, expect, test } from 'bun:test'
import { ManualClock } from '../clock'
import { FrameLimiter } from './rate-limit'

const limits = { burst: 20, perSecond: 5, maxDropped: 100 }
const take = (limiter: FrameLimiter, n: number) => Array.from({ length: n }, () => limiter.take())

describe('FrameLimiter', () => {
  test('accepts a burst, drops past it, and regains frames as the clock moves', () => {
    const clock = new ManualClock()
    const limiter = new FrameLimiter(clock, limits)
    expect(take(limiter, 20).every((v) => v === 'accept')).toBe(true)
    expect(limiter.take()).toBe('drop')
    clock.advance(200)
    expect(limiter.take()).toBe('accept')
    expect(limiter.take()).toBe('drop')
    // A long quiet period refills to the burst, never beyond it.
    clock.advance(60_000)
    expect(take(limiter, 21)).toEqual([...Array(20).fill('accept'), 'drop'])
  })

  test('a socket that keeps sending past the limit is told to close; an accepted frame forgives', () => {
    const clock = new ManualClock()
    const limiter = new FrameLimiter(clock, limits)
    take(limiter, 20)
    expect(take(limiter, 99).every((v) => v === 'drop')).toBe(true)
    clock.advance(200)
    expect(limiter.take()).toBe('accept')
    expect(take(limiter, 99).every((v) => v === 'drop')).toBe(true)
    expect(limiter.take()).toBe('close')
  })

  test('a clock set backwards does not drain the bucket', () => {
    const clock = new ManualClock()
    const limiter = new FrameLimiter(clock, limits)
    take(limiter, 19)
    clock.set(clock.now() - 3_600_000)
    expect(limiter.take()).toBe('accept')
    expect(limiter.take()).toBe('drop')
  })
})
