/** One browser suite's set-up and tear-down, for the test files (shoot.ts uses support.ts without bun:test). */
import { afterAll, beforeAll } from 'bun:test'
import type { Page } from 'playwright-core'
import {
  artifactsDir,
  type Balcao,
  type BalcaoOptions,
  type Browser,
  type BrowserOptions,
  launchPage,
  startBalcao,
} from './support'

export type BrowserSuite = {
  /** The suite's one page, ready once the suite's beforeAll ran. */
  readonly page: Page
  /** The server's base URL. */
  readonly base: string
}

/**
 * Registers a suite's set-up and tear-down: a server (`dist/balcao`, or the running one that `externalUrl`
 * names) and a browser with one page; both are stopped after the suite.
 */
export function browserSuite(
  options: { server?: BalcaoOptions; browser?: BrowserOptions; externalUrl?: string } = {},
): BrowserSuite {
  let server: Balcao | null = null
  let browser: Browser | null = null
  let page: Page | null = null
  let base = ''
  beforeAll(async () => {
    artifactsDir()
    if (options.externalUrl) base = options.externalUrl
    else {
      server = await startBalcao(options.server)
      base = server.url
    }
    const launched = await launchPage(options.browser)
    browser = launched
    page = launched.page
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })
  return {
    get page() {
      if (!page) throw new Error('the browser suite has not started')
      return page
    },
    get base() {
      return base
    },
  }
}
