/**
 * The signed-in user. `authStatus` starts at 'loading' while the refresh cookie is tried on start-up.
 * When a session ends without the user asking (signed in elsewhere, expired, ended by an admin...), `signOutReason`
 * says why, and the login page shows it until the user dismisses it or signs in again.
 */
import { signal } from '@preact/signals-react'
import type { LoginResponse, SessionUser } from '../../shared/api'
import { LIVE_CLOSE } from '../../shared/live'
import { realDueDate } from '../../shared/plans'
import {
  ApiError,
  api,
  clearStoredSession,
  getToken,
  onUnauthorized,
  refreshToken,
  storeToken,
} from '../api/client'
import { stopLive } from '../api/live'
import i18n from '../i18n'
import { daysUntil } from '../lib/dates'
import { adoptProfileTheme, followProfileTheme } from './theme'
import { toast } from './toast'

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous'

export const currentUser = signal<SessionUser | null>(null)
export const authStatus = signal<AuthStatus>('loading')

/**
 * Why the last session ended without the user signing out here:
 * - elsewhere: the same account signed in on another browser (one session per user);
 * - expired: the server no longer accepts the session (a 401, a refresh that failed);
 * - password: the password was changed, which ends the user's other sessions;
 * - admin: an administrator ended it (the user was deleted, or signed out by the server);
 * - company: the company was deactivated, its subscription expired, or it was deleted;
 * - signedOut: the user signed out in another tab of this browser.
 */
export type SignOutReason = 'elsewhere' | 'expired' | 'password' | 'admin' | 'company' | 'signedOut'
const REASONS: readonly SignOutReason[] = [
  'elsewhere',
  'expired',
  'password',
  'admin',
  'company',
  'signedOut',
]

/** Kept per tab (sessionStorage), so the explanation survives a reload of the login page. */
export const SIGN_OUT_REASON_KEY = 'signOutReason'

function storedReason(): SignOutReason | null {
  try {
    const value = sessionStorage.getItem(SIGN_OUT_REASON_KEY)
    return (REASONS as readonly string[]).includes(value ?? '') ? (value as SignOutReason) : null
  } catch {
    return null
  }
}

export const signOutReason = signal<SignOutReason | null>(storedReason())

function setSignOutReason(reason: SignOutReason | null): void {
  signOutReason.value = reason
  try {
    if (reason) sessionStorage.setItem(SIGN_OUT_REASON_KEY, reason)
    else sessionStorage.removeItem(SIGN_OUT_REASON_KEY)
  } catch {
    // storage unavailable: the signal still holds it for this page
  }
}

/** The login page's close button. */
export function dismissSignOutReason(): void {
  setSignOutReason(null)
}

/** The profile's default theme follows the session: see state/theme.ts for the precedence. */
function syncProfileTheme(previous: SessionUser | null, next: SessionUser | null): void {
  const value = next?.defaultTheme
  if (!next || (value !== 'light' && value !== 'dark')) return
  if (previous && previous.id === next.id) {
    if (previous.defaultTheme !== value) adoptProfileTheme(value)
  } else {
    followProfileTheme(value)
  }
}

export function setSession(user: SessionUser | null): void {
  syncProfileTheme(currentUser.peek(), user)
  currentUser.value = user
  authStatus.value = user ? 'authenticated' : 'anonymous'
}

/**
 * Ends the session here because the server ended it: forgets the token (language, theme and volume stay),
 * records why, and lets the route guard show the login page.
 */
export function endSession(reason: SignOutReason): void {
  clearStoredSession()
  setSignOutReason(reason)
  setSession(null)
}

/** The reason for a socket the server closed for good (codes and reasons of src/shared/live.ts). */
export function reasonForClose(code: number, reason: string): SignOutReason {
  if (code === LIVE_CLOSE.companyUnavailable) return 'company'
  const text = reason.toLowerCase()
  if (text.includes('elsewhere')) return 'elsewhere'
  if (text.includes('password')) return 'password'
  if (text.includes('company')) return 'company'
  if (text === 'signed out') return 'signedOut'
  return 'admin'
}

// A 401 or a failed refresh while signed in: the session expired (or was ended) on the server.
onUnauthorized(() => {
  if (authStatus.peek() === 'authenticated') endSession('expired')
  else setSession(null)
})

/** On start: the access token may have expired but the refresh cookie survives reloads: restore the session. */
export async function restoreSession(): Promise<void> {
  // Signed out (or the session ended): do not revive the session from the cookie.
  if (!getToken()) {
    setSession(null)
    return
  }
  try {
    const { user } = await refreshToken<SessionUser>()
    setSession(user)
  } catch (err) {
    clearStoredSession()
    // The server refused the session (not a network failure): say so on the login page.
    if (err instanceof ApiError && !signOutReason.peek()) setSignOutReason('expired')
    setSession(null)
  }
}

/** Days left before the subscription expires, when fewer than 5 remain (spec: warn at login). */
export function subscriptionWarningDays(user: SessionUser, now = new Date()): number | null {
  const due = realDueDate(user.company?.dueDate)
  if (!due) return null
  const days = daysUntil(due, now)
  return Number.isFinite(days) && days >= 0 && days < 5 ? days : null
}

export async function login(email: string, password: string): Promise<SessionUser> {
  const { token, user } = await api.post<LoginResponse>(
    '/auth/login',
    { email, password },
    { anonymous: true },
  )
  storeToken(token, user.companyId)
  const days = subscriptionWarningDays(user)
  if (days != null) toast.warning(i18n.t('auth.subscriptionWarning', { count: days }))
  setSignOutReason(null)
  setSession(user)
  return user
}

export async function logout(): Promise<void> {
  // The server closes this session's socket as it signs out: that close is ours, not news to explain.
  stopLive()
  try {
    await api.delete('/auth/logout')
  } catch {
    // The session ends locally even if the server is unreachable.
  }
  clearStoredSession()
  setSignOutReason(null)
  setSession(null)
}

/** Updates the session copy after the user edits their own profile (or a live event changes it). */
export function patchCurrentUser(patch: Partial<SessionUser>): void {
  const previous = currentUser.value
  if (!previous) return
  const next = { ...previous, ...patch }
  syncProfileTheme(previous, next)
  currentUser.value = next
}
