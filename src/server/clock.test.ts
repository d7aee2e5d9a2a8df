import { describe, expect, test } from 'bun:test'
import { isoString, ManualClock, systemClock } from './clock'

describe('ManualClock', () => {
  test('timers fire when time moves past them, in due order, each at its own time', () => {
    const clock = new ManualClock(1_000)
    const fired: [string, number][] = []
    clock.setTimeout(() => fired.push(['b', clock.now()]), 200)
    clock.setTimeout(() => fired.push(['a', clock.now()]), 100)
    const cancelled = clock.setTimeout(() => fired.push(['never', clock.now()]), 150)
    clock.clearTimeout(cancelled)
    expect(clock.pendingTimers).toBe(2)
    expect(clock.delays()).toEqual([100, 200])
    clock.advance(99)
    expect(fired).toEqual([])
    clock.advance(151)
    expect(fired).toEqual([
      ['a', 1_100],
      ['b', 1_200],
    ])
    expect(clock.now()).toBe(1_250)
    expect(clock.pendingTimers).toBe(0)
  })

  test('a timer scheduled by a timer fires in the same move when it falls due; ties keep their order', () => {
    const clock = new ManualClock(0)
    const fired: string[] = []
    clock.setTimeout(() => {
      fired.push('first')
      clock.setTimeout(() => fired.push('chained'), 10)
    }, 10)
    clock.setTimeout(() => fired.push('second'), 10)
    clock.advance(20)
    expect(fired).toEqual(['first', 'second', 'chained'])
  })

  test('tick lets what a timer starts settle before the next one fires', async () => {
    const clock = new ManualClock(0)
    const log: string[] = []
    clock.setTimeout(() => {
      void Promise.resolve().then(() => log.push('settled'))
    }, 5)
    clock.setTimeout(() => log.push('next'), 6)
    await clock.tick(10)
    expect(log).toEqual(['settled', 'next'])
  })

  test('set jumps without firing timers', () => {
    const clock = new ManualClock(0)
    let fired = false
    clock.setTimeout(() => {
      fired = true
    }, 10)
    clock.set(100)
    expect(fired).toBe(false)
    clock.advance(0)
    expect(fired).toBe(true)
  })

  test('the system clock schedules on real timers', async () => {
    const fired = await new Promise<boolean>((resolve) => {
      const handle = systemClock.setTimeout(() => resolve(false), 60_000)
      systemClock.clearTimeout(handle)
      systemClock.setTimeout(() => resolve(true), 0)
    })
    expect(fired).toBe(true)
  })
})

describe('isoString', () => {
  test('is toISOString, also at the edges and outside the fast range', () => {
    const samples = [0, 1, 999, 1000, 86_399_999, 86_400_000, 951_782_400_000, 1_763_000_000_123]
    samples.push(253_402_300_799_999, -1, -86_400_001, 253_402_300_800_000, 1.5, -62_167_219_200_001)
    for (let i = 0; i < 5000; i++) samples.push(Math.floor((Math.random() - 0.3) * 4e12))
    for (const ms of samples) expect(isoString(ms)).toBe(new Date(ms).toISOString())
  })
})
