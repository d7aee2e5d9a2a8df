import { useCallback, useEffect, useRef, useState } from 'react'

export type PageResult<T> = { items: T[]; hasMore: boolean; count?: number }

/**
 * A server-paged list (`?searchParam=&pageNumber=`) with infinite scroll and live upserts.
 * `fetchPage` must be stable for a given search (wrap it in useCallback with the search as a dependency):
 * a new function resets the list to page 1.
 */
export function usePagedList<T>(
  fetchPage: (pageNumber: number, signal: AbortSignal) => Promise<PageResult<T>>,
  getId: (item: T) => number | string,
) {
  // Items and count live in one state so that live upserts update both atomically (no stale reads).
  const [data, setData] = useState<{ items: T[]; count: number | null }>({ items: [], count: null })
  const { items, count } = data
  const [page, setPage] = useState(1)
  const [hasMore, setHasMore] = useState(false)
  const [loading, setLoading] = useState(true)
  const [loadingMore, setLoadingMore] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [reloadToken, setReloadToken] = useState(0)
  const generation = useRef(0)

  // Page 1 whenever the fetcher (the search) changes or reload() is called.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadToken is a trigger
  useEffect(() => {
    const gen = ++generation.current
    const ctrl = new AbortController()
    setLoading(true)
    setError(null)
    fetchPage(1, ctrl.signal)
      .then((res) => {
        if (gen !== generation.current) return
        setData({ items: res.items, count: res.count ?? null })
        setHasMore(res.hasMore)
        setPage(1)
      })
      .catch((err) => {
        if (gen !== generation.current || (err as Error)?.name === 'AbortError') return
        setError(err)
        setData({ items: [], count: null })
      })
      .finally(() => {
        if (gen === generation.current) setLoading(false)
      })
    return () => ctrl.abort()
  }, [fetchPage, reloadToken])

  const loadMore = useCallback(() => {
    if (loading || loadingMore || !hasMore) return
    const gen = generation.current
    const next = page + 1
    setLoadingMore(true)
    setError(null)
    fetchPage(next, new AbortController().signal)
      .then((res) => {
        if (gen !== generation.current) return
        setData((prev) => {
          const seen = new Set(prev.items.map(getId))
          return {
            items: [...prev.items, ...res.items.filter((i) => !seen.has(getId(i)))],
            count: res.count ?? prev.count,
          }
        })
        setHasMore(res.hasMore)
        setPage(next)
      })
      .catch((err) => {
        if (gen === generation.current) setError(err)
      })
      .finally(() => {
        if (gen === generation.current) setLoadingMore(false)
      })
  }, [fetchPage, getId, hasMore, loading, loadingMore, page])

  /** Replace the item with the same id, or add it at the front (spec: live create/update). */
  const upsert = useCallback(
    (item: T) => {
      const id = getId(item)
      setData((prev) => {
        const at = prev.items.findIndex((p) => getId(p) === id)
        if (at === -1)
          return { items: [item, ...prev.items], count: prev.count == null ? null : prev.count + 1 }
        const copy = prev.items.slice()
        copy[at] = item
        return { items: copy, count: prev.count }
      })
    },
    [getId],
  )

  const remove = useCallback(
    (id: number | string) => {
      setData((prev) => {
        if (!prev.items.some((p) => getId(p) === id)) return prev
        return {
          items: prev.items.filter((p) => getId(p) !== id),
          count: prev.count == null ? null : Math.max(0, prev.count - 1),
        }
      })
    },
    [getId],
  )

  const reload = useCallback(() => setReloadToken((n) => n + 1), [])

  return { items, hasMore, count, loading, loadingMore, error, loadMore, upsert, remove, reload }
}
