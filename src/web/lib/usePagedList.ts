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
  const [items, setItems] = useState<T[]>([])
  const [page, setPage] = useState(1)
  const [hasMore, setHasMore] = useState(false)
  const [count, setCount] = useState<number | null>(null)
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
        setItems(res.items)
        setHasMore(res.hasMore)
        setCount(res.count ?? null)
        setPage(1)
      })
      .catch((err) => {
        if (gen !== generation.current || (err as Error)?.name === 'AbortError') return
        setError(err)
        setItems([])
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
        setItems((prev) => {
          const seen = new Set(prev.map(getId))
          return [...prev, ...res.items.filter((i) => !seen.has(getId(i)))]
        })
        setHasMore(res.hasMore)
        if (res.count != null) setCount(res.count)
        setPage(next)
      })
      .catch((err) => {
        if (gen === generation.current) setError(err)
      })
      .finally(() => {
        if (gen === generation.current) setLoadingMore(false)
      })
  }, [fetchPage, getId, hasMore, loading, loadingMore, page])

  const itemsRef = useRef(items)
  itemsRef.current = items

  /** Replace the item with the same id, or add it at the front (spec: live create/update). */
  const upsert = useCallback(
    (item: T) => {
      const id = getId(item)
      if (!itemsRef.current.some((p) => getId(p) === id)) setCount((c) => (c == null ? c : c + 1))
      setItems((prev) => {
        const at = prev.findIndex((p) => getId(p) === id)
        if (at === -1) return [item, ...prev]
        const copy = prev.slice()
        copy[at] = item
        return copy
      })
    },
    [getId],
  )

  const remove = useCallback(
    (id: number | string) => {
      if (itemsRef.current.some((p) => getId(p) === id)) setCount((c) => (c == null ? c : Math.max(0, c - 1)))
      setItems((prev) => prev.filter((p) => getId(p) !== id))
    },
    [getId],
  )

  const reload = useCallback(() => setReloadToken((n) => n + 1), [])

  return { items, hasMore, count, loading, loadingMore, error, loadMore, upsert, remove, reload }
}
