import { signal } from '@preact/signals-react'

export type Theme = 'light' | 'dark'
export const THEME_KEY = 'preferredTheme'

function systemTheme(): Theme {
  try {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
  } catch {
    return 'light'
  }
}

/** The remembered choice, else the system preference. */
export function initialTheme(): Theme {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(THEME_KEY) : null
  return stored === 'dark' || stored === 'light' ? stored : systemTheme()
}

export const theme = signal<Theme>(initialTheme())

export function applyTheme(value: Theme): void {
  document.documentElement.classList.toggle('dark', value === 'dark')
}

export function setTheme(value: Theme): void {
  theme.value = value
  localStorage.setItem(THEME_KEY, value)
  applyTheme(value)
}

export function toggleTheme(): void {
  setTheme(theme.value === 'dark' ? 'light' : 'dark')
}
