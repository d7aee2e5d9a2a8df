/**
 * Issue 20, defect 10: silent outages. WhatsApp unreachable for longer than the session's burst of retries must
 * not stop the connection for good: it keeps trying, slowly, and comes back by itself when WhatsApp does.
 * Time moves on Balcão's manual clock (the session's reconnect timers), not by sleeping.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'

let simulator: ScenarioSimulator
let balcao: Balcao | undefined

beforeAll(async () => {
  simulator = await startScenarioSimulator()
})
afterEach(async () => {
  await balcao?.stop()
  balcao = undefined
})
afterAll(() => simulator.stop())

test('WhatsApp unreachable for longer than the retries last, then back: the connection reconnects by itself', async () => {
  const maxRetries = 3
  const b = await startBalcao(simulator, { maxRetries })
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  const id = await b.link(number)

  await simulator.control(`/control/phones/${number}/offline`, {})
  await b.until(id, (c) => c.retries === 1, 'the first retry scheduled')

  // Every attempt the session schedules fails while the phone's server is away: twice as many as the bound.
  let waited = 0
  for (let attempt = 2; attempt <= maxRetries * 2; attempt++) {
    const next = b.clock.delays()[0]
    expect(next, `a retry pending after ${attempt - 1} failed attempts`).toBeDefined()
    waited += next!
    await b.clock.tick(next!)
    await b.until(id, (c) => c.retries === attempt, `failed attempt ${attempt}`)
  }
  const during = await b.connection(id)
  expect(during.statusReason).toBe('no_network')
  expect(waited).toBeGreaterThan(5 * 60_000)

  await simulator.control(`/control/phones/${number}/online`, {})
  const next = b.clock.delays()[0]
  expect(next, 'a retry pending after the outage').toBeDefined()
  expect(next!).toBeLessThanOrEqual(5 * 60_000)
  await b.clock.tick(next!)
  const back = await b.connected(id)
  expect(back).toMatchObject({ status: 'CONNECTED', statusReason: null, retries: 0 })
}, 20_000)
