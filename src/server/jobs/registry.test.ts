import { describe, expect, test } from 'bun:test'
import { ManualClock } from '../clock'
import type { Logger } from '../logger'
import { type Job, Jobs } from './registry'

function recordingLog() {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = []
  const entry = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, fields })
  const log: Logger = { info: entry('info'), warn: entry('warn'), error: entry('error') }
  return { log, lines }
}

function registry() {
  const { log, lines } = recordingLog()
  return { jobs: new Jobs<string>({ clock: new ManualClock(0), log, random: () => 0.5 }), lines }
}

/** A job that writes what happens to it into `calls`. */
function job(name: string, calls: string[], extra: Partial<Job> = {}): Job {
  return {
    start: () => void calls.push(`start ${name}`),
    stop: async () => void calls.push(`stop ${name}`),
    ...extra,
  }
}

describe('the jobs registry', () => {
  test('starts in definition order, stops in the reverse order, and loads a lazy job only at its start', async () => {
    const { jobs } = registry()
    const calls: string[] = []
    let loaded = false
    jobs.define('a', () => job('a', calls))
    jobs.define('b', async () => {
      loaded = true
      return job('b', calls)
    })
    jobs.define('c', () => job('c', calls))
    expect(loaded).toBe(false)
    await jobs.start(['a'])
    expect(loaded).toBe(false)
    expect(jobs.running('a')).toBe(true)
    await jobs.start()
    expect(loaded).toBe(true)
    expect(calls).toEqual(['start a', 'start b', 'start c']) // a was not started twice
    const report = await jobs.stop()
    expect(calls.slice(3)).toEqual(['stop c', 'stop b', 'stop a'])
    expect(report).toEqual({ stopped: ['c', 'b', 'a'], late: [] })
  })

  test('a job that never stops is given up on at the bound, logged, and the others still stop', async () => {
    const { jobs, lines } = registry()
    const calls: string[] = []
    jobs.define('steady', () => job('steady', calls))
    jobs.define('stuck', () => ({ start() {}, stop: () => new Promise<void>(() => {}) }))
    jobs.define('last', () => job('last', calls))
    await jobs.start()
    const began = Date.now()
    const report = await jobs.stop(100)
    expect(Date.now() - began).toBeLessThan(1_000)
    expect(report).toEqual({ stopped: ['last', 'steady'], late: ['stuck'] })
    expect(calls).toEqual(['start steady', 'start last', 'stop last', 'stop steady'])
    expect(lines.filter((l) => l.msg === 'job did not stop in time').map((l) => l.fields?.job)).toEqual([
      'stuck',
    ])
  })

  test('stop is idempotent and nothing starts after it', async () => {
    const { jobs } = registry()
    const calls: string[] = []
    jobs.define('a', () => job('a', calls))
    jobs.define('b', () => job('b', calls))
    await jobs.start(['a'])
    expect(await jobs.stop()).toEqual({ stopped: ['a'], late: [] })
    expect(await jobs.stop()).toEqual({ stopped: [], late: [] })
    await jobs.start()
    expect(calls).toEqual(['start a', 'stop a'])
  })

  test('a failing start or stop is logged and does not keep the others from theirs', async () => {
    const { jobs, lines } = registry()
    const calls: string[] = []
    jobs.define('broken', () => ({
      start: () => Promise.reject(new Error('first pass failed')),
      stop: () => Promise.reject(new Error('stop failed')),
    }))
    jobs.define('fine', () => job('fine', calls))
    await jobs.start()
    expect(calls).toEqual(['start fine'])
    const report = await jobs.stop()
    expect(report.stopped).toEqual(['fine', 'broken'])
    expect(lines.map((l) => l.msg)).toEqual(['job failed while starting', 'job failed while stopping'])
  })

  test('the objects services share: made once, woken if they exist, forgotten on drop', () => {
    const { jobs } = registry()
    let made = 0
    let woken = 0
    jobs.wake('runner') // nothing made yet: nothing to wake
    const runner = jobs.use('runner', () => ({ n: ++made, wake: () => void woken++ }))
    expect(jobs.use('runner', () => ({ n: ++made, wake() {} }))).toBe(runner)
    jobs.wake('runner')
    expect({ made, woken }).toEqual({ made: 1, woken: 1 })
    jobs.drop('runner')
    expect(jobs.peek('runner')).toBeUndefined()
  })
})
