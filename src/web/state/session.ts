/**
 * The signed-in user. `authStatus` starts at 'loading' while the refresh cookie is tried on start-up.
 */
import { signal } from '@preact/signals-react'
import type { LoginResponse, SessionUser } from '../../shared/api'
import { api, clearStoredSession, getToken, onUnauthorized, refreshToken, storeToken } from '../api/client'
import i18n from '../i18n'
import { daysUntil } from '../lib/dates'
import { toast } from './toast'

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous'

export const currentUser = signal<SessionUser | null>(null)
export const authStatus = signal<AuthStatus>('loading')

export function setSession(user: SessionUser | null): void {
  currentUser.value = user
  authStatus.value = user ? 'authenticated' : 'anonymous'
}

onUnauthorized(() => setSession(null))

/** On start: the access token may have expired but the refresh cookie survives reloads: restore the session. */
export async function restoreSession(): Promise<void> {
  // Signed out (or cleared after a sign-in elsewhere): do not revive the session from the cookie.
  if (!getToken()) {
    setSession(null)
    return
  }
  try {
    const { user } = await refreshToken<SessionUser>()
    setSession(user)
  } catch {
    clearStoredSession()
    setSession(null)
  }
}

/** Days left before the subscription expires, when fewer than 5 remain (spec: warn at login). */
export function subscriptionWarningDays(user: SessionUser, now = new Date()): number | null {
  const due = user.company?.dueDate
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
  setSession(user)
  return user
}

export async function logout(): Promise<void> {
  try {
    await api.delete('/auth/logout')
  } catch {
    // The session ends locally even if the server is unreachable.
  }
  clearStoredSession()
  setSession(null)
}

/** Updates the session copy after the user edits their own profile. */
export function patchCurrentUser(patch: Partial<SessionUser>): void {
  if (currentUser.value) currentUser.value = { ...currentUser.value, ...patch }
}
