import { ArrowDown, MessagesSquare } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'
import { dayLabel } from '../../lib/dates'
import { Skeleton } from '../ui/Skeleton'
import { Spinner } from '../ui/Spinner'

/** The day above its first message: Today, Yesterday or the date. */
export function DaySeparator({ iso, testId }: { iso: string; testId?: string }) {
  const { t, i18n } = useTranslation()
  const label = dayLabel(iso, i18n.language)
  const text =
    label === 'today' ? t('conversation.today') : label === 'yesterday' ? t('conversation.yesterday') : label
  return (
    <div className="flex justify-center py-2" data-testid={testId}>
      <span className="rounded-lg bg-surface/90 px-3 py-1 font-medium text-[12px] text-muted shadow-[0_1px_0.5px_rgb(0_0_0/0.08)] tnum dark:bg-surface-2/90">
        {text}
      </span>
    </div>
  )
}

type SkeletonRow = readonly ['left' | 'right', string]

/** The placeholder bubbles of a loading history: each its side and width. */
export const HISTORY_SKELETON_ROWS: readonly SkeletonRow[] = [
  ['left', 'w-48'],
  ['left', 'w-64'],
  ['right', 'w-56'],
  ['left', 'w-40'],
  ['right', 'w-72'],
]

/** Bubble-shaped placeholders, one per row: its side and width. */
export function HistorySkeleton({ rows = HISTORY_SKELETON_ROWS }: { rows?: readonly SkeletonRow[] }) {
  return (
    <div className="flex flex-col gap-3 px-3 py-4 sm:px-[6%]" aria-busy>
      {rows.map(([side, w], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className={cn('flex', side === 'right' ? 'justify-end' : 'justify-start')}>
          <Skeleton className={cn('h-10 rounded-2xl', w)} />
        </div>
      ))}
    </div>
  )
}

/** A history with no messages yet. */
export function HistoryEmpty({ title, text }: { title: string; text: string }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-surface/80 text-muted">
        <MessagesSquare className="size-6" aria-hidden />
      </span>
      <p className="font-medium text-fg text-sm">{title}</p>
      <p className="max-w-xs text-muted text-sm">{text}</p>
    </div>
  )
}

/** Above the oldest message, once there is nothing older. */
export function HistoryStart({ text }: { text: string }) {
  return (
    <div className="flex justify-center py-2">
      <span className="text-[12px] text-subtle">{text}</span>
    </div>
  )
}

/** The spinner over the top of the list while an older page loads. */
export function LoadingOlder() {
  const { t } = useTranslation()
  return (
    <div
      className="pointer-events-none absolute inset-x-0 top-2 flex justify-center"
      role="status"
      aria-label={t('common.loading')}
    >
      <span className="flex size-8 items-center justify-center rounded-full bg-surface shadow-pop">
        <Spinner className="text-muted" />
      </span>
    </div>
  )
}

/** The round button back to the newest message, with the count of those that came in meanwhile. */
export function JumpToLatest({
  unseen,
  onClick,
  badgeClassName,
}: {
  unseen: number
  onClick: () => void
  /** The count's colours. */
  badgeClassName: string
}) {
  const { t } = useTranslation()
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={t('conversation.jumpToLatest')}
      title={t('conversation.jumpToLatest')}
      className="absolute right-4 bottom-3 flex size-10 items-center justify-center rounded-full border border-border bg-surface text-muted shadow-pop hover:text-fg max-sm:size-11"
    >
      <ArrowDown className="size-5" aria-hidden />
      {unseen > 0 && (
        <span
          className={cn(
            '-top-1.5 -right-1.5 absolute min-w-5 rounded-full px-1 font-semibold text-[11px] leading-5 tnum',
            badgeClassName,
          )}
        >
          {unseen}
        </span>
      )}
    </button>
  )
}
