import { AlertCircle, RotateCw } from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { TicketDto } from '../../../../shared/api'
import { errorMessage } from '../../../api/errors'
import { Button } from '../../../components/ui/Button'
import { EmptyState } from '../../../components/ui/EmptyState'
import { Skeleton } from '../../../components/ui/Skeleton'
import { Spinner } from '../../../components/ui/Spinner'
import type { LiveListView } from '../../../state/liveList'
import { TicketRow } from './TicketRow'

/** Spec: the next page loads within 100 px of the bottom. */
export const LOAD_MORE_THRESHOLD = 100

function RowSkeleton() {
  return (
    <li className="flex gap-3 border-border border-b px-3 py-2.5">
      <Skeleton className="size-[55px] shrink-0 rounded-full" />
      <div className="min-w-0 flex-1 space-y-2 pt-1">
        <div className="flex justify-between gap-3">
          <Skeleton className="h-3.5 w-2/5" />
          <Skeleton className="h-3 w-10" />
        </div>
        <Skeleton className="h-3 w-4/5" />
        <div className="flex gap-2">
          <Skeleton className="h-3 w-16" />
          <Skeleton className="h-3 w-20" />
        </div>
      </div>
    </li>
  )
}

export function TicketListSkeleton({ rows = 7 }: { rows?: number }) {
  return (
    <ul aria-hidden>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <RowSkeleton key={i} />
      ))}
    </ul>
  )
}

export type TicketListProps = {
  label: string
  list: LiveListView<TicketDto>
  selected: string | null
  now: number
  empty: ReactNode
  onOpen: (ticket: TicketDto) => void
  onAccept: (ticket: TicketDto) => void
  accepting: number | null
  /** Users who may close a pending ticket without accepting it (admins, userClosePendingTicket). */
  onClosePending?: (ticket: TicketDto) => void
  closing?: number | null
  onSpy?: (ticket: TicketDto) => void
}

/** One scrolling list of tickets: skeleton, rows, next page near the bottom, empty and error states. */
export function TicketList({
  label,
  list,
  selected,
  now,
  empty,
  onOpen,
  onAccept,
  accepting,
  onClosePending,
  closing,
  onSpy,
}: TicketListProps) {
  const { t } = useTranslation()
  const scroller = useRef<HTMLDivElement>(null)
  const { hasMore, loading, loadingMore, error, loadMore, reload, items } = list

  const maybeLoadMore = useCallback(() => {
    const el = scroller.current
    if (!el || !hasMore || loading || loadingMore || error) return
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= LOAD_MORE_THRESHOLD) loadMore()
  }, [hasMore, loading, loadingMore, error, loadMore])

  // A page that does not fill the box cannot be scrolled: ask for the next one at once (again as rows change).
  // biome-ignore lint/correctness/useExhaustiveDependencies: items.length says the box's content changed
  useEffect(() => {
    const el = scroller.current
    if (el && el.clientHeight > 0 && el.scrollHeight <= el.clientHeight + LOAD_MORE_THRESHOLD) maybeLoadMore()
  }, [maybeLoadMore, items.length])

  let content: ReactNode
  if (loading && items.length === 0) content = <TicketListSkeleton />
  else if (error && items.length === 0)
    content = (
      <EmptyState
        icon={<AlertCircle />}
        title={t('ticketList.errorTitle')}
        action={
          <Button variant="secondary" icon={<RotateCw className="size-4" />} onClick={reload}>
            {t('common.retry')}
          </Button>
        }
      >
        {errorMessage(error)}
      </EmptyState>
    )
  else if (items.length === 0) content = empty
  else
    content = (
      <ul aria-label={label}>
        {items.map((ticket) => (
          <TicketRow
            key={ticket.id}
            ticket={ticket}
            selected={selected != null && (selected === ticket.uuid || selected === String(ticket.id))}
            now={now}
            onOpen={onOpen}
            onAccept={onAccept}
            accepting={accepting === ticket.id}
            onClosePending={onClosePending}
            closing={closing === ticket.id}
            onSpy={onSpy}
          />
        ))}
      </ul>
    )

  return (
    <div
      ref={scroller}
      onScroll={maybeLoadMore}
      data-testid="ticket-list-scroller"
      aria-busy={loading || undefined}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain"
    >
      {content}
      {loadingMore && (
        <div className="flex items-center justify-center gap-2 py-4 text-muted text-sm">
          <Spinner /> {t('table.loadingMore')}
        </div>
      )}
      {error != null && items.length > 0 && (
        <div className="flex items-center justify-center gap-3 px-3 py-4 text-sm">
          <span className="text-danger">{errorMessage(error)}</span>
          <Button size="sm" variant="secondary" onClick={hasMore ? loadMore : reload}>
            {t('common.retry')}
          </Button>
        </div>
      )}
    </div>
  )
}
