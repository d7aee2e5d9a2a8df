import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, cleanup, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { LIVE_CLOSE } from '../../shared/live'
import { stopLive } from '../api/live'
import { changeLanguage } from '../i18n'
import { makeUser, mockFetch, renderAt, resetState, signIn, sockets, TEST_TOKEN } from '../test/utils'
import {
  dismissSignOutReason,
  endSession,
  logout,
  patchCurrentUser,
  SIGN_OUT_REASON_KEY,
  signOutReason,
} from './session'
import { PROFILE_THEME_KEY, setTheme, THEME_KEY, theme } from './theme'
import { setVolume } from './volume'

const dark = () => document.documentElement.classList.contains('dark')

/** Signs in, renders the shell and opens its live socket. */
async function openShell(user = makeUser({ id: 1, companyId: 7 })) {
  signIn(user)
  renderAt('/tickets')
  await act(async () => {
    await Promise.resolve()
  })
  const ws = sockets().at(-1)!
  act(() => ws.open())
  return ws
}

function reset() {
  resetState()
  dismissSignOutReason()
  sessionStorage.clear()
}

describe('a session that ends by itself', () => {
  beforeEach(reset)
  afterEach(() => {
    stopLive()
    reset()
  })

  test('signed in elsewhere: straight to the login page, which says why; language, theme and volume stay', async () => {
    mockFetch({})
    changeLanguage('en')
    setTheme('dark')
    setVolume(0.4)
    const ws = await openShell()
    act(() =>
      ws.receive({ event: 'company-7-auth', data: { action: 'update', user: { id: 1 }, sessionId: 's2' } }),
    )
    // No toast that vanishes after a second: the login page itself explains, in the user's language.
    const notice = await screen.findByTestId('sign-out-reason')
    expect(notice).toHaveTextContent('Your account was accessed from another computer.')
    expect(notice).toHaveTextContent('Sign in again to continue here.')
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    // Only the session is forgotten.
    expect(localStorage.getItem('token')).toBeNull()
    expect(localStorage.getItem('companyId')).toBeNull()
    expect(localStorage.getItem('i18nextLng')).toBe('en')
    expect(localStorage.getItem(THEME_KEY)).toBe('dark')
    expect(localStorage.getItem('volume')).toBe('0.4')
    expect(dark()).toBe(true)
  })

  test('the explanation stays (even across a reload of the login page) until the user dismisses it', async () => {
    mockFetch({})
    endSession('elsewhere')
    expect(sessionStorage.getItem(SIGN_OUT_REASON_KEY)).toBe('elsewhere')
    const first = renderAt('/login')
    expect(screen.getByTestId('sign-out-reason')).toHaveTextContent(
      'Sua conta foi acessada em outro computador.',
    )
    first.unmount()
    renderAt('/login')
    const notice = screen.getByTestId('sign-out-reason')
    await userEvent.click(screen.getByRole('button', { name: 'Fechar' }))
    expect(notice).not.toBeInTheDocument()
    expect(sessionStorage.getItem(SIGN_OUT_REASON_KEY)).toBeNull()
  })

  test('the socket closed for good says why: password changed, ended by an admin, company closed', async () => {
    mockFetch({})
    const cases: [number, string, string][] = [
      [LIVE_CLOSE.sessionEnded, 'password changed', 'Sua senha foi alterada.'],
      [LIVE_CLOSE.sessionEnded, 'user deleted', 'Sua sessão foi encerrada por um administrador.'],
      [LIVE_CLOSE.companyUnavailable, 'company inactive', 'O acesso da sua empresa foi suspenso.'],
      [LIVE_CLOSE.sessionEnded, 'signed out', 'Você saiu da sua conta em outra aba.'],
    ]
    for (const [code, reason, text] of cases) {
      const ws = await openShell()
      // What the browser does when the server closes the socket with a code and a reason.
      const raw = ws as unknown as { onclose: ((e: CloseEvent) => void) | null }
      act(() => raw.onclose?.(new CloseEvent('close', { code, reason })))
      expect(await screen.findByTestId('sign-out-reason')).toHaveTextContent(text)
      expect(localStorage.getItem('token')).toBeNull()
      act(() => dismissSignOutReason())
      stopLive()
      cleanup()
    }
  })

  test('a 401 while signed in: "session expired"', async () => {
    mockFetch({
      'GET /api/settings': () => ({ status: 401, body: { error: 'ERR_INVALID_TOKEN', message: 'ended' } }),
    })
    signIn(makeUser())
    renderAt('/settings')
    expect(await screen.findByTestId('sign-out-reason')).toHaveTextContent('Sua sessão expirou.')
  })

  test('signing out on purpose, or signing in again, shows no explanation', async () => {
    mockFetch({ 'DELETE /api/auth/logout': () => ({ status: 204 }) })
    endSession('expired')
    signIn(makeUser())
    await logout()
    expect(signOutReason.value).toBeNull()
    renderAt('/login')
    expect(screen.queryByTestId('sign-out-reason')).toBeNull()
  })

  test('signing out here: the socket the server closes on the way out is not news', async () => {
    let ws: ReturnType<typeof sockets>[number] | undefined
    let shownMeanwhile: string | null = 'not called'
    mockFetch({
      'DELETE /api/auth/logout': () => {
        // The server ends this session's socket before it answers.
        const raw = ws as unknown as { onclose: ((e: CloseEvent) => void) | null }
        raw.onclose?.(new CloseEvent('close', { code: LIVE_CLOSE.sessionEnded, reason: 'signed out' }))
        shownMeanwhile = signOutReason.value
        return { status: 204 }
      },
    })
    ws = await openShell()
    await act(() => logout())
    expect(shownMeanwhile).toBeNull() // not even for a moment
    expect(signOutReason.value).toBeNull()
    expect(screen.queryByTestId('sign-out-reason')).toBeNull()
  })

  test('sign-in clears the explanation', async () => {
    mockFetch({ 'POST /api/auth/login': () => ({ body: { token: TEST_TOKEN, user: makeUser() } }) })
    endSession('expired')
    renderAt('/login')
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@example.com')
    await userEvent.type(screen.getByLabelText('Senha'), 'segredo1')
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }))
    await screen.findByText('Selecione um ticket')
    expect(signOutReason.value).toBeNull()
    expect(sessionStorage.getItem(SIGN_OUT_REASON_KEY)).toBeNull()
  })
})

describe("the profile's default theme", () => {
  beforeEach(() => {
    reset()
    localStorage.clear()
  })
  afterEach(reset)

  test('applies on sign-in when this browser has no toggled theme', () => {
    signIn(makeUser({ defaultTheme: 'dark' }))
    expect(theme.value).toBe('dark')
    expect(dark()).toBe(true)
    // Remembered as the profile's default (a reload paints it before the session is back), not as a toggle.
    expect(localStorage.getItem(PROFILE_THEME_KEY)).toBe('dark')
    expect(localStorage.getItem(THEME_KEY)).toBeNull()
  })

  test('a theme toggled in this browser wins at sign-in', () => {
    setTheme('light')
    signIn(makeUser({ defaultTheme: 'dark' }))
    expect(theme.value).toBe('light')
    expect(dark()).toBe(false)
  })

  test('a change of the profile while signed in applies at once and replaces the toggle', () => {
    signIn(makeUser({ defaultTheme: 'dark' }))
    setTheme('light')
    // Another field changing (a live update of the user) leaves the toggle alone.
    patchCurrentUser({ name: 'Ana B.' })
    expect(theme.value).toBe('light')
    // The default theme itself changing (the profile was saved) is the newest choice: it replaces the toggle.
    patchCurrentUser({ defaultTheme: 'light' })
    expect(localStorage.getItem(THEME_KEY)).toBeNull()
    patchCurrentUser({ defaultTheme: 'dark' })
    expect(theme.value).toBe('dark')
    expect(dark()).toBe(true)
    // Toggling again wins again.
    setTheme('light')
    expect(dark()).toBe(false)
  })
})
