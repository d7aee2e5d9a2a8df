/**
 * Preload for the web component tests (`cd src/web && bun test`).
 * happy-dom must be registered before Testing Library loads, so those imports are dynamic.
 */
import { GlobalRegistrator } from '@happy-dom/global-registrator'

GlobalRegistrator.register({ url: 'http://localhost/' })

// scripts/build.ts defines this for the browser bundle.
;(globalThis as unknown as { __BALCAO_VERSION__: string }).__BALCAO_VERSION__ = '0.0.0-test'

// React's act() reminders are noise here: assertions wait with findBy/waitFor instead.
const consoleError = console.error
console.error = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('not wrapped in act(')) return
  consoleError(...args)
}

/** A WebSocket that never touches the network; tests drive it through FakeWebSocket.instances. */
class FakeWebSocket extends EventTarget {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSING = 2
  static readonly CLOSED = 3
  static instances: FakeWebSocket[] = []
  readyState = 0
  sent: string[] = []
  onopen: ((e: Event) => void) | null = null
  onmessage: ((e: MessageEvent) => void) | null = null
  onclose: ((e: Event) => void) | null = null
  onerror: ((e: Event) => void) | null = null
  constructor(readonly url: string) {
    super()
    FakeWebSocket.instances.push(this)
  }
  send(data: string) {
    this.sent.push(data)
  }
  close() {
    this.readyState = 3
    this.onclose?.(new Event('close'))
  }
  /** Test helpers. */
  open() {
    this.readyState = 1
    this.onopen?.(new Event('open'))
  }
  receive(frame: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }))
  }
}
;(globalThis as unknown as { WebSocket: unknown }).WebSocket = FakeWebSocket
;(globalThis as unknown as { FakeWebSocket: unknown }).FakeWebSocket = FakeWebSocket

const { afterEach, expect } = await import('bun:test')
const { cleanup } = await import('@testing-library/react')
const matchers = await import('@testing-library/jest-dom/matchers')

expect.extend(matchers as unknown as Parameters<typeof expect.extend>[0])

afterEach(() => {
  cleanup()
  localStorage.clear()
  document.documentElement.className = ''
})
