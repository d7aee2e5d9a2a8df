import { useEffect, useState } from 'react'

/** The value, delayed until it stopped changing for `ms` (the spec's search debounce is 500 ms). */
export function useDebounced<T>(value: T, ms = 500): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(id)
  }, [value, ms])
  return debounced
}
