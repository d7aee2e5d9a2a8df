/** Choices for a dialog's selectors, loaded while it is open; a failed load leaves the selector empty. */
import { useEffect, useState } from 'react'
import type { PlanFlag } from '../../shared/plans'
import { planAllows } from '../../shared/plans'
import { api } from '../api/client'
import { currentUser } from './session'

export type OptionRef = { id: number; name: string }

/** The company's users (GET /users/list): the schedule's attendant, a chat's members. */
export function useUserOptions(open: boolean): OptionRef[] {
  const [users, setUsers] = useState<OptionRef[]>([])
  useEffect(() => {
    if (!open) return
    const ctrl = new AbortController()
    api
      .get<OptionRef[]>('/users/list', { signal: ctrl.signal })
      .then((list) => setUsers(Array.isArray(list) ? list : []))
      .catch(() => {})
    return () => ctrl.abort()
  }, [open])
  return users
}

/**
 * A paged list's ids and names for a selector: up to five pages of `path`, whose answer keeps its rows under
 * `key`; nothing without the plan `flag`.
 */
export function usePagedOptions(open: boolean, path: string, key: string, flag: PlanFlag): OptionRef[] {
  const [rows, setRows] = useState<OptionRef[]>([])
  useEffect(() => {
    if (!open || !planAllows(currentUser.peek()?.company?.plan, flag)) return
    const ctrl = new AbortController()
    ;(async () => {
      const all: OptionRef[] = []
      for (let pageNumber = 1; pageNumber <= 5; pageNumber++) {
        const page = await api.get<Record<string, OptionRef[] | boolean | undefined> & { hasMore: boolean }>(
          path,
          { query: { pageNumber }, signal: ctrl.signal },
        )
        const items = page[key]
        all.push(...(Array.isArray(items) ? items : []).map(({ id, name }) => ({ id, name })))
        if (!page.hasMore) break
      }
      if (!ctrl.signal.aborted) setRows(all)
    })().catch(() => {})
    return () => ctrl.abort()
  }, [open, path, key, flag])
  return rows
}
