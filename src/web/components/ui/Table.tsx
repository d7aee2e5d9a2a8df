import { AlertCircle, RotateCw } from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'
import { useIsPhone } from '../../lib/useMediaQuery'
import { Button } from './Button'
import { EmptyState } from './EmptyState'
import { Skeleton } from './Skeleton'
import { Spinner } from './Spinner'

export type Column<T> = {
  key: string
  header: ReactNode
  cell: (row: T) => ReactNode
  className?: string
  align?: 'left' | 'right' | 'center'
  /** Width hint for the skeleton and the column. */
  width?: string
}

export type DataTableProps<T> = {
  rows: T[]
  rowKey: (row: T) => string | number
  columns: Column<T>[]
  /** Accessible name of the table. */
  label: string
  /** First load in progress (shows the skeleton). */
  loading?: boolean
  /** A following page is loading. */
  loadingMore?: boolean
  error?: string | null
  onRetry?: () => void
  hasMore?: boolean
  onLoadMore?: () => void
  empty?: ReactNode
  /** Below 600 px rows are shown as cards drawn by this function. */
  mobileCard?: (row: T) => ReactNode
  /** Extra classes of a row (and of its card on a phone): a tint that marks the row's state. */
  rowClassName?: (row: T) => string | undefined
  className?: string
}

/** Distance from the bottom that triggers the next page (spec: 100 px). */
export const LOAD_MORE_THRESHOLD = 100

export function DataTable<T>({
  rows,
  rowKey,
  columns,
  label,
  loading,
  loadingMore,
  error,
  onRetry,
  hasMore,
  onLoadMore,
  empty,
  mobileCard,
  rowClassName,
  className,
}: DataTableProps<T>) {
  const { t } = useTranslation()
  const phone = useIsPhone()
  const scroller = useRef<HTMLDivElement>(null)

  const maybeLoadMore = useCallback(() => {
    const el = scroller.current
    if (!el || !hasMore || loading || loadingMore || error || !onLoadMore) return
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= LOAD_MORE_THRESHOLD) onLoadMore()
  }, [hasMore, loading, loadingMore, error, onLoadMore])

  // A page that does not fill the box cannot be scrolled: ask for the next one right away.
  useEffect(() => {
    const el = scroller.current
    if (el && el.clientHeight > 0 && el.scrollHeight <= el.clientHeight + LOAD_MORE_THRESHOLD) maybeLoadMore()
  }, [maybeLoadMore])

  const alignClass = (a?: Column<T>['align']) =>
    a === 'right' ? 'text-right' : a === 'center' ? 'text-center' : 'text-left'

  let content: ReactNode
  if (error && rows.length === 0) {
    content = (
      <EmptyState
        icon={<AlertCircle />}
        title={t('table.errorTitle')}
        action={
          onRetry && (
            <Button variant="secondary" icon={<RotateCw className="size-4" />} onClick={onRetry}>
              {t('common.retry')}
            </Button>
          )
        }
      >
        {error}
      </EmptyState>
    )
  } else if (!loading && rows.length === 0) {
    content = empty ?? <EmptyState title={t('table.empty')} />
  } else if (phone && mobileCard) {
    content = (
      <ul aria-label={label} aria-busy={loading || undefined} className="divide-y divide-border">
        {loading
          ? Array.from({ length: 6 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
              <li key={i} className="space-y-2 px-4 py-3.5">
                <Skeleton className="w-1/2" />
                <Skeleton className="h-3 w-3/4" />
              </li>
            ))
          : rows.map((row) => (
              <li key={rowKey(row)} className={cn('px-4 py-3', rowClassName?.(row))}>
                {mobileCard(row)}
              </li>
            ))}
      </ul>
    )
  } else {
    content = (
      <table
        aria-label={label}
        aria-busy={loading || undefined}
        className="w-full border-separate border-spacing-0 text-sm"
      >
        <thead className="sticky top-0 z-10 bg-surface">
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                style={c.width ? { width: c.width } : undefined}
                className={cn(
                  'border-border border-b px-4 py-2.5 font-medium text-muted text-xs uppercase tracking-wide',
                  alignClass(c.align),
                )}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: 8 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c.key} className="border-border border-b px-4 py-3.5">
                      <Skeleton className={cn('h-3.5', c.align === 'right' ? 'ml-auto w-16' : 'w-3/4')} />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row) => (
                <tr
                  key={rowKey(row)}
                  className={cn('transition-colors duration-150 hover:bg-surface-2/60', rowClassName?.(row))}
                >
                  {columns.map((c) => (
                    <td
                      key={c.key}
                      className={cn(
                        'border-border border-b px-4 py-2.5 align-middle',
                        alignClass(c.align),
                        c.className,
                      )}
                    >
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    )
  }

  return (
    <div
      ref={scroller}
      onScroll={maybeLoadMore}
      data-testid="table-scroller"
      className={cn('min-h-0 flex-1 overflow-auto', className)}
    >
      {content}
      {loadingMore && (
        <div className="flex items-center justify-center gap-2 py-4 text-muted text-sm">
          <Spinner /> {t('table.loadingMore')}
        </div>
      )}
      {error && rows.length > 0 && onRetry && (
        <div className="flex items-center justify-center gap-3 py-4 text-sm">
          <span className="text-danger">{error}</span>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </div>
      )}
    </div>
  )
}
