import { describe, expect, test } from 'bun:test'
import { DEFAULT_CONNECTION_CONFIG, type WAVersion } from '@whiskeysockets/baileys'
import { ManualClock } from '../../clock'
import { createHarness } from '../../test/harness'
import { recordHealth } from '../health'
import { lastConnectedWaWebVersion, newerVersion, sharedVersionFetcher } from './provider'

describe('the WhatsApp Web version (issue 20, defect 10)', () => {
  test('a failed fetch is not cached: the next 405 asks again; an answer is shared for the hour', async () => {
    const clock = new ManualClock()
    const answers: (WAVersion | Error)[] = [new Error('offline'), [2, 3000, 2], [2, 3000, 3]]
    let calls = 0
    const fetchVersion = sharedVersionFetcher(async () => {
      const answer = answers[calls++]!
      if (answer instanceof Error) throw answer
      return answer
    }, clock)
    expect(await fetchVersion()).toBeUndefined()
    expect(await fetchVersion()).toEqual([2, 3000, 2])
    expect(await fetchVersion()).toEqual([2, 3000, 2])
    expect(calls).toBe(2)
    clock.advance(61 * 60_000)
    expect(await fetchVersion()).toEqual([2, 3000, 3])
  })

  test('concurrent callers share one fetch in flight', async () => {
    let calls = 0
    const fetchVersion = sharedVersionFetcher(async () => {
      calls += 1
      return [2, 3000, 9] as WAVersion
    }, new ManualClock())
    expect(await Promise.all([fetchVersion(), fetchVersion()])).toEqual([
      [2, 3000, 9],
      [2, 3000, 9],
    ])
    expect(calls).toBe(1)
  })

  test('the last version a session connected with survives a restart, unless Baileys bundles a newer one', async () => {
    const h = await createHarness()
    const sqlite = h.deps.sqlite
    expect(lastConnectedWaWebVersion(sqlite)).toBeUndefined()
    const [major, minor, build] = DEFAULT_CONNECTION_CONFIG.version
    recordHealth(sqlite, h.makeConnection(h.a.id).id, { waWebVersion: `${major}.${minor}.${build + 5}` })
    recordHealth(sqlite, h.makeConnection(h.b.id).id, { waWebVersion: `${major}.${minor}.${build + 2}` })
    expect(lastConnectedWaWebVersion(sqlite)).toEqual([major, minor, build + 5])
    expect(newerVersion([major, minor, build + 5], DEFAULT_CONNECTION_CONFIG.version)).toEqual([
      major,
      minor,
      build + 5,
    ])
    expect(newerVersion([major, minor - 1, build + 5], DEFAULT_CONNECTION_CONFIG.version)).toEqual(
      DEFAULT_CONNECTION_CONFIG.version,
    )
  })
})
