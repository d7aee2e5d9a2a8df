import { useCallback, useEffect, useRef, useState } from 'react'
import type { ContactsPage, DashboardData, MessagesAllMe } from '../../../shared/api'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { type DashboardFilter, filterQuery } from './format'

/** The spec: the first load happens 1 s after the screen opens. */
export const FIRST_LOAD_DELAY_MS = 1000

/** What the page shows: the dashboard plus the spec's counting calls (messages sent, received, new leads). */
export type DashboardView = DashboardData & { sent: number; received: number; leads: number }

async function loadDashboard(query: Record<string, string>, signal: AbortSignal): Promise<DashboardView> {
  const data = await api.get<DashboardData>('/dashboard', { query, signal })
  const dates = { dateStart: data.range.dateFrom, dateEnd: data.range.dateTo }
  const [sent, received, contacts] = await Promise.all([
    api.get<MessagesAllMe>('/messages-allMe', { query: { fromMe: true, ...dates }, signal }),
    api.get<MessagesAllMe>('/messages-allMe', { query: { fromMe: false, ...dates }, signal }),
    api.get<ContactsPage>('/contacts', { query: { pageNumber: 1, ...dates }, signal }),
  ])
  return {
    ...data,
    sent: sent.count[0]?.count ?? 0,
    received: received.count[0]?.count ?? 0,
    leads: contacts.count,
  }
}

export type DashboardState =
  | { kind: 'idle' }
  | { kind: 'loading'; data: DashboardView | null }
  | { kind: 'ready'; data: DashboardView }
  | { kind: 'error'; message: string }

/**
 * The dashboard for a filter: nothing without one, the first load 1 s after the screen opens, later ones at
 * once; the figures already shown stay while a new filter loads, and `retry` loads the same filter again.
 */
export function useDashboard(filter: DashboardFilter) {
  const [state, setState] = useState<DashboardState>({ kind: 'idle' })
  const first = useRef(true)
  const query = filterQuery(filter)
  const queryKey = query ? JSON.stringify(query) : ''

  const load = useCallback((q: Record<string, string>, signal: AbortSignal) => {
    setState((s) => ({
      kind: 'loading',
      data: s.kind === 'ready' ? s.data : s.kind === 'loading' ? s.data : null,
    }))
    loadDashboard(q, signal).then(
      (data) => !signal.aborted && setState({ kind: 'ready', data }),
      (err) => !signal.aborted && setState({ kind: 'error', message: errorMessage(err) }),
    )
  }, [])

  const [attempt, setAttempt] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the filter's query or a retry changes
  useEffect(() => {
    if (!queryKey) {
      setState({ kind: 'idle' })
      return
    }
    const controller = new AbortController()
    const q = JSON.parse(queryKey) as Record<string, string>
    setState((s) => (s.kind === 'idle' ? { kind: 'loading', data: null } : s))
    const delay = first.current ? FIRST_LOAD_DELAY_MS : 0
    first.current = false
    const timer = setTimeout(() => load(q, controller.signal), delay)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [queryKey, attempt, load])

  const data = state.kind === 'ready' ? state.data : state.kind === 'loading' ? state.data : null
  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, data, hasFilter: query != null, retry }
}
