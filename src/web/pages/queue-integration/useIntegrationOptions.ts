import { useEffect, useState } from 'react'
import { planAllows } from '../../../shared/plans'
import { api } from '../../api/client'
import { currentUser } from '../../state/session'

export type IntegrationRef = { id: number; name: string }

/**
 * The company's queue integrations for a selector (queues, connections): GET /queueIntegration, a few pages,
 * loaded while `open`; nothing without the plan flag useIntegrations; a failed load is just empty.
 */
export function useIntegrationOptions(open: boolean): IntegrationRef[] {
  const [rows, setRows] = useState<IntegrationRef[]>([])
  useEffect(() => {
    if (!open || !planAllows(currentUser.peek()?.company?.plan, 'useIntegrations')) return
    const ctrl = new AbortController()
    ;(async () => {
      const all: IntegrationRef[] = []
      for (let pageNumber = 1; pageNumber <= 5; pageNumber++) {
        const page = await api.get<{ queueIntegrations: IntegrationRef[]; hasMore: boolean }>(
          '/queueIntegration',
          {
            query: { pageNumber },
            signal: ctrl.signal,
          },
        )
        all.push(...(page.queueIntegrations ?? []).map(({ id, name }) => ({ id, name })))
        if (!page.hasMore) break
      }
      if (!ctrl.signal.aborted) setRows(all)
    })().catch(() => {})
    return () => ctrl.abort()
  }, [open])
  return rows
}
