import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../ui/Button'
import { JumpToLatest, LoadingOlder } from './HistoryParts'
import type { useHistoryScroll } from './useHistoryScroll'

/**
 * A message history's pane (a ticket's conversation, an internal chat): the log that scrolls, its content kept
 * at the bottom when short, 'loading older' over its top and the jump to the latest while the reader is away.
 */
export function HistoryPane({
  scroll,
  label,
  testId,
  busy,
  hasMessages,
  jumpBadgeClassName,
  children,
}: {
  scroll: Pick<
    ReturnType<typeof useHistoryScroll>,
    'scroller' | 'content' | 'onScroll' | 'toBottom' | 'unseen' | 'away'
  >
  label: string
  testId: string
  busy: { loading: boolean; loadingOlder: boolean }
  hasMessages: boolean
  jumpBadgeClassName: string
  children: ReactNode
}) {
  const { scroller, content, onScroll, toBottom, unseen, away } = scroll
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scroller}
        onScroll={onScroll}
        className="flex min-h-0 flex-1 flex-col overflow-y-auto overscroll-contain [overflow-anchor:none]"
        data-testid={testId}
        role="log"
        aria-label={label}
        aria-busy={busy.loading || busy.loadingOlder || undefined}
      >
        <div ref={content} className="mt-auto flex flex-col">
          {children}
        </div>
      </div>
      {busy.loadingOlder && <LoadingOlder />}
      {hasMessages && (away || unseen > 0) && (
        <JumpToLatest unseen={unseen} onClick={toBottom} badgeClassName={jumpBadgeClassName} />
      )}
    </div>
  )
}

/** The history that could not load: why, and a retry. */
export function HistoryError({
  icon,
  message,
  onRetry,
}: {
  icon?: ReactNode
  message: string
  onRetry: () => void
}) {
  const { t } = useTranslation()
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center" role="alert">
      {icon}
      <p className="text-muted text-sm">{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  )
}
