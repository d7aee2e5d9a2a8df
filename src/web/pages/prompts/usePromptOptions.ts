import { useEffect, useState } from 'react'
import { planAllows } from '../../../shared/plans'
import { api } from '../../api/client'
import { currentUser } from '../../state/session'

export type PromptRef = { id: number; name: string }

/**
 * The company's AI prompts for a selector (queues, connections): GET /prompt, a few pages, loaded while `open`;
 * nothing without the plan flag useOpenAi; a failed load is just empty.
 */
export function usePromptOptions(open: boolean): PromptRef[] {
  const [rows, setRows] = useState<PromptRef[]>([])
  useEffect(() => {
    if (!open || !planAllows(currentUser.peek()?.company?.plan, 'useOpenAi')) return
    const ctrl = new AbortController()
    ;(async () => {
      const all: PromptRef[] = []
      for (let pageNumber = 1; pageNumber <= 5; pageNumber++) {
        const page = await api.get<{ prompts: PromptRef[]; hasMore: boolean }>('/prompt', {
          query: { pageNumber },
          signal: ctrl.signal,
        })
        all.push(...(page.prompts ?? []).map(({ id, name }) => ({ id, name })))
        if (!page.hasMore) break
      }
      if (!ctrl.signal.aborted) setRows(all)
    })().catch(() => {})
    return () => ctrl.abort()
  }, [open])
  return rows
}
