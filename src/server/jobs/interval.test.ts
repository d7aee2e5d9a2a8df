import { describe, expect, test } from 'bun:test'
import { ManualClock } from '../clock'
import { IntervalJob } from './interval'

class Sweep extends IntervalJob {
  passes = 0
  errors: string[] = []
  release: (() => void) | undefined
  constructor(
    clock: ManualClock,
    private readonly slow = false,
  ) {
    super(clock, 1_000)
  }
  protected tick() {
    this.passes += 1
    if (this.passes === 2) throw new Error('second pass failed')
    if (this.slow) return new Promise<void>((resolve) => (this.release = resolve))
  }
  protected failed(err: Error) {
    this.errors.push(err.message)
  }
}

describe('interval jobs', () => {
  test('a pass at start, then one per interval; a failing pass is reported and the next still comes', () => {
    const clock = new ManualClock(0)
    const job = new Sweep(clock)
    job.start()
    job.start() // already started: no second timer
    expect(job.passes).toBe(1)
    clock.advance(1_000)
    clock.advance(1_000)
    expect(job.passes).toBe(3)
    expect(job.errors).toEqual(['second pass failed'])
    void job.stop()
    clock.advance(10_000)
    expect(job.passes).toBe(3)
  })

  test('stop resolves only once the pass under way is over', async () => {
    const clock = new ManualClock(0)
    const job = new Sweep(clock, true)
    job.start()
    let stopped = false
    const stopping = job.stop().then(() => {
      stopped = true
    })
    await Promise.resolve()
    expect(stopped).toBe(false)
    job.release?.()
    await stopping
    expect(stopped).toBe(true)
    clock.advance(10_000)
    expect(job.passes).toBe(1) // no pass after the stop
  })
})
