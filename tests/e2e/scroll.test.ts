/**
 * Browser test: every option of Configurações can be reached, by the wheel, on a phone (375x812) and on a laptop
 * (1280x800), and the last one works once reached; a toast never covers the top bar. Runs against the BUILT
 * executable (`npx bun scripts/build.ts`, then `cd tests/e2e && npx bun test scroll.test.ts`).
 * BALCAO_E2E_URL=http://127.0.0.1:PORT runs it against a server that is already running (the admin of
 * support.ts's ADMIN must exist there). Screenshots land in tests/e2e/artifacts/.
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import { browserSuite } from './suite'
import { ADMIN, ARTIFACTS, signIn } from './support'

const suite = browserSuite({
  externalUrl: process.env.BALCAO_E2E_URL,
  server: { prefix: 'balcao-e2e-scroll-data-' },
  browser: {
    viewport: { width: 375, height: 812 },
    colorScheme: 'light',
    locale: 'pt-BR',
    prefix: 'balcao-e2e-scroll-chromium-',
  },
})

const shot = (name: string) => suite.page.screenshot({ path: join(ARTIFACTS, `scroll-${name}.png`) })

/** The box of a locator against the viewport: whether it is entirely below the top bar and above the bottom. */
async function fullyVisible(target: Locator): Promise<{ visible: boolean; top: number; bottom: number }> {
  const box = await target.boundingBox()
  const header = await suite.page.getByRole('banner').boundingBox()
  const height = suite.page.viewportSize()?.height ?? 0
  if (!box || !header) return { visible: false, top: Number.NaN, bottom: Number.NaN }
  const top = box.y
  const bottom = box.y + box.height
  return { visible: top >= header.y + header.height - 1 && bottom <= height + 1, top, bottom }
}

/** Turns the mouse wheel over the page's content until the target is fully on screen (or nothing moves). */
async function wheelTo(target: Locator): Promise<void> {
  const size = suite.page.viewportSize()!
  await suite.page.mouse.move(size.width / 2, size.height / 2)
  for (let i = 0; i < 40; i++) {
    if ((await fullyVisible(target)).visible) return
    await suite.page.mouse.wheel(0, 240)
    await suite.page.waitForTimeout(60)
  }
}

async function openSettings() {
  await suite.page.goto(`${suite.base}/settings`)
  await suite.page.getByRole('heading', { name: 'Configurações' }).waitFor()
  await suite.page.getByRole('button', { name: 'Avaliações' }).waitFor()
}

describe('Configurações scrolls to its last option', () => {
  test('sign in on a phone', async () => {
    await signIn(suite.page, suite.base, ADMIN)
  }, 30_000)

  test('375x812: the wheel brings the last option on screen, and it works', async () => {
    await openSettings()
    const options = suite.page.getByRole('tabpanel').locator('ul > li')
    const count = await options.count()
    expect(count).toBeGreaterThanOrEqual(9)
    const last = options.last()
    const select = last.getByRole('button')
    // At first it is below the fold: the test means something.
    expect((await fullyVisible(last)).visible).toBe(false)
    await shot('settings-phone-top')

    await wheelTo(last)
    const where = await fullyVisible(last)
    expect(where.visible).toBe(true)
    await shot('settings-phone-bottom')

    // Usable: nothing covers it, and choosing another value saves it.
    const box = (await select.boundingBox())!
    const hit = await suite.page.evaluate(
      ([x, y]) =>
        document
          .elementFromPoint(x as number, y as number)
          ?.closest('button')
          ?.getAttribute('aria-label'),
      [box.x + box.width / 2, box.y + box.height / 2],
    )
    expect(hit).toBe(await select.getAttribute('aria-label'))
    const before = (await select.textContent())?.trim()
    await select.click()
    const other = suite.page
      .getByRole('option')
      .filter({ hasNotText: before ?? '' })
      .first()
    await other.click()
    const toast = suite.page.getByRole('status').filter({ hasText: 'Configurações salvas' })
    await toast.waitFor()
    expect((await select.textContent())?.trim()).not.toBe(before)

    // The toast sits below the top bar: the menu button and the account menu stay reachable.
    const header = (await suite.page.getByRole('banner').boundingBox())!
    const toastBox = (await toast.boundingBox())!
    expect(toastBox.y).toBeGreaterThanOrEqual(header.y + header.height)
    await shot('settings-phone-toast')
  }, 30_000)

  test('1280x800: every option is reachable too', async () => {
    await suite.page.setViewportSize({ width: 1280, height: 800 })
    await openSettings()
    const last = suite.page.getByRole('tabpanel').locator('ul > li').last()
    await wheelTo(last)
    expect((await fullyVisible(last)).visible).toBe(true)
    await shot('settings-desktop-bottom')
  }, 30_000)

  test('a list page still scrolls inside its card (the page is held to the screen)', async () => {
    await suite.page.goto(`${suite.base}/users`)
    await suite.page.getByRole('heading', { name: 'Usuários' }).waitFor()
    const scroller = suite.page.getByTestId('page-scroller')
    const fits = await scroller.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)
    expect(fits).toBe(true)
  }, 30_000)
})
