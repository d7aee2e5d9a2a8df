/**
 * Preload for the web component tests (`cd src/web && bun test`).
 * happy-dom must be registered before Testing Library loads, so those imports are dynamic.
 */
import { GlobalRegistrator } from '@happy-dom/global-registrator'

GlobalRegistrator.register({ url: 'http://localhost/' })

const { afterEach, expect } = await import('bun:test')
const { cleanup } = await import('@testing-library/react')
const matchers = await import('@testing-library/jest-dom/matchers')

expect.extend(matchers as unknown as Parameters<typeof expect.extend>[0])

afterEach(() => {
  cleanup()
  localStorage.clear()
  document.documentElement.className = ''
})
