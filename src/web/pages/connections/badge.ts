import { effect } from '@preact/signals-react'
import { useEffect, useState } from 'react'
import type { WhatsappDto } from '../../../shared/api'
import { connections } from './store'

/** The spec: the '!' badge appears 2 s after the list shows a connection that is not connected. */
export const BADGE_DELAY = 2000

export function needsAttention(list: WhatsappDto[] | null): boolean {
  return !!list && list.some((c) => c.status !== 'CONNECTED')
}

/**
 * Whether the Conexões menu item shows its '!' badge: 2 s after any connection is not CONNECTED, and gone at
 * once when all are connected again.
 */
export function useConnectionsBadge(): boolean {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null
    let attention = false
    const stop = effect(() => {
      const now = needsAttention(connections.value)
      if (now === attention) return
      attention = now
      if (timer) clearTimeout(timer)
      timer = null
      if (now) timer = setTimeout(() => setShown(true), BADGE_DELAY)
      else setShown(false)
    })
    return () => {
      stop()
      if (timer) clearTimeout(timer)
    }
  }, [])
  return shown
}
