import { signal } from '@preact/signals-react'

export type Theme = 'light' | 'dark'
/** A theme the user toggled in this browser (the spec's key). */
export const THEME_KEY = 'preferredTheme'
/** The last profile default seen here, so that a reload paints it before the session is back. */
export const PROFILE_THEME_KEY = 'profileTheme'

/*
 * Which theme shows, highest first:
 * 1. A theme toggled in this browser (`preferredTheme`). It is a choice about this screen (a dark room, a
 *    bright counter), so it beats the profile at every sign-in, on this browser only.
 * 2. The profile's `defaultTheme`, applied on sign-in and when the session is restored.
 * 3. The system preference (the spec's default), before anyone has signed in here.
 * One exception keeps the newest decision on top: when the profile's `defaultTheme` changes while the user is
 * signed in (they saved it in their profile, or an admin changed it), the new value applies at once and replaces
 * the toggle of this browser. Toggling again afterwards wins again.
 */

function systemTheme(): Theme {
  try {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
  } catch {
    return 'light'
  }
}

function read(key: string): Theme | null {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(key) : null
  return stored === 'dark' || stored === 'light' ? stored : null
}

/** The theme toggled in this browser, if any. */
export function toggledTheme(): Theme | null {
  return read(THEME_KEY)
}

/** The toggled theme, else the last profile default seen here, else the system preference. */
export function initialTheme(): Theme {
  return read(THEME_KEY) ?? read(PROFILE_THEME_KEY) ?? systemTheme()
}

export const theme = signal<Theme>(initialTheme())

export function applyTheme(value: Theme): void {
  document.documentElement.classList.toggle('dark', value === 'dark')
}

function show(value: Theme): void {
  theme.value = value
  applyTheme(value)
}

/** An explicit choice in this browser (the top bar's toggle): remembered, and it wins over the profile. */
export function setTheme(value: Theme): void {
  localStorage.setItem(THEME_KEY, value)
  show(value)
}

export function toggleTheme(): void {
  setTheme(theme.value === 'dark' ? 'light' : 'dark')
}

/** Sign-in (or a restored session): the profile's default applies unless this browser has a toggled theme. */
export function followProfileTheme(value: Theme): void {
  localStorage.setItem(PROFILE_THEME_KEY, value)
  show(toggledTheme() ?? value)
}

/** The profile's default changed while signed in: the newest choice applies and replaces the toggle. */
export function adoptProfileTheme(value: Theme): void {
  localStorage.removeItem(THEME_KEY)
  localStorage.setItem(PROFILE_THEME_KEY, value)
  show(value)
}
