import { useSyncExternalStore } from 'react'

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const mql = window.matchMedia?.(query)
      mql?.addEventListener?.('change', notify)
      return () => mql?.removeEventListener?.('change', notify)
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  )
}

/** The spec's mobile breakpoint: below 600 px. */
export function useIsPhone(): boolean {
  return useMediaQuery('(max-width: 599.98px)')
}
