/** Helpers for the component tests: a fake server for fetch, session fixtures and an app renderer. */
import { afterEach, beforeEach } from 'bun:test'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router-dom'
import type { SessionUser } from '../../shared/api'
import { defaultSettings } from '../../shared/settings'
import { AppRoutes } from '../App'
import { stopLive } from '../api/live'
import { Toaster } from '../components/ui/Toast'
import i18n from '../i18n'
import { resetLiveLists } from '../state/liveList'
import { authStatus, currentUser, setSession } from '../state/session'
import { toasts } from '../state/toast'

export type Call = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Headers }
type Handler = (
  call: Call,
) => { status?: number; body?: unknown; headers?: Record<string, string> } | undefined

/** Replaces global fetch with a route table: `'GET /api/users' -> handler`. Records every call. */
export function mockFetch(routes: Record<string, Handler>) {
  const calls: Call[] = []
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const method = (init?.method ?? 'GET').toUpperCase()
    const headers = new Headers(init?.headers)
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : (init?.body ?? undefined)
    const call = { method, path: url.pathname, query: url.searchParams, body, headers }
    calls.push(call)
    const key = `${method} ${url.pathname}`
    const handler =
      routes[key] ??
      Object.entries(routes).find(([pattern]) => {
        const [m, p] = pattern.split(' ')
        return (
          m === method &&
          p?.includes(':') &&
          new RegExp(`^${p.replace(/:[^/]+/g, '[^/]+')}$`).test(url.pathname)
        )
      })?.[1]
    const res = handler?.(call) ?? {
      status: 404,
      body: { error: 'ERR_NOT_FOUND', message: `no mock for ${key}` },
    }
    const status = res.status ?? 200
    return new Response(status === 204 ? null : JSON.stringify(res.body ?? {}), {
      status,
      headers: { 'Content-Type': 'application/json', ...(res.headers ?? {}) },
    })
  }
  globalThis.fetch = fn as typeof fetch
  return calls
}

export function makeUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 1,
    name: 'Ana Admin',
    email: 'ana@example.com',
    profile: 'admin',
    companyId: 7,
    super: false,
    online: true,
    queues: [],
    whatsappId: null,
    startWork: '00:00',
    endWork: '23:59',
    farewellMessage: null,
    allTicket: 'disable',
    allowGroup: false,
    defaultMenu: 'open',
    defaultTheme: 'light',
    allHistoric: 'disabled',
    allUserChat: 'disabled',
    userClosePendingTicket: 'enabled',
    showDashboard: 'disabled',
    isTricked: 'enabled',
    disabled: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    company: {
      id: 7,
      name: 'Loja Azul',
      dueDate: '2099-12-31',
      trialExpiration: null,
      recurrence: 'MENSAL',
      settings: defaultSettings(),
      plan: null,
    },
    ...overrides,
  }
}

/** A token whose payload is {"sid":"s1","exp":4102444800} (year 2100): the client never refreshes it. */
export const TEST_TOKEN = `h.${btoa(JSON.stringify({ sid: 's1', exp: 4102444800 }))}.sig`

export type FakeSocket = {
  url: string
  sent: string[]
  readyState: number
  open(): void
  close(): void
  receive(frame: unknown): void
}
export function sockets(): FakeSocket[] {
  return (globalThis as unknown as { FakeWebSocket: { instances: FakeSocket[] } }).FakeWebSocket.instances
}

export function signIn(user: SessionUser | null = makeUser()) {
  if (user) localStorage.setItem('token', TEST_TOKEN)
  setSession(user)
}

export function resetState() {
  currentUser.value = null
  authStatus.value = 'anonymous'
  toasts.value = []
  void i18n.changeLanguage('pt')
}

/**
 * A page test's set-up and tear-down around its live lists: before each test a clean session, no live lists or
 * sockets, and `makeUser(user)` signed in; after each, the socket stopped and the state cleared again.
 */
export function livePageSuite(user: Partial<SessionUser> = {}) {
  beforeEach(() => {
    resetState()
    resetLiveLists()
    sockets().length = 0
    signIn(makeUser(user))
  })
  afterEach(() => {
    stopLive()
    resetLiveLists()
    resetState()
  })
}

export function renderAt(path: string, extra?: ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <Toaster />
      {extra}
    </MemoryRouter>,
  )
}
