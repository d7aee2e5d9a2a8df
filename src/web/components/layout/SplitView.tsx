import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

/**
 * A list beside its open item (the tickets and chats screens): on wide screens two columns, the list's width
 * set by `className` (`sm:grid-cols-[…]`); on a phone two tabs, one pane shown at a time. Both panes stay
 * mounted, so the list stays live and keeps its scroll position.
 */
export function SplitView<K extends string>({
  phone,
  label,
  tabs,
  tab,
  onTab,
  listTab,
  className,
  list,
  detail,
}: {
  phone: boolean
  /** The tab list's name. */
  label: string
  /** The phone's tabs, in order. */
  tabs: readonly { key: K; label: string }[]
  tab: K
  onTab: (tab: K) => void
  /** The tab that shows the list; any other shows the item. */
  listTab: K
  className: string
  list: ReactNode
  detail: ReactNode
}) {
  const showList = !phone || tab === listTab
  const showDetail = !phone || tab !== listTab
  return (
    <>
      {phone && (
        <div role="tablist" aria-label={label} className="flex shrink-0 border-border border-b bg-surface">
          {tabs.map(({ key, label }) => (
            <button
              key={key}
              type="button"
              role="tab"
              aria-selected={tab === key}
              onClick={() => onTab(key)}
              className={cn(
                'h-11 flex-1 border-b-2 font-medium text-sm transition-colors duration-150',
                tab === key ? 'border-brand text-fg' : 'border-transparent text-muted',
              )}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      <div className={cn('grid min-h-0 flex-1 grid-cols-1', className)}>
        <div className={cn('min-h-0 flex-col border-border sm:border-r', showList ? 'flex' : 'hidden')}>
          {list}
        </div>
        <div className={cn('min-h-0 min-w-0 flex-col', showDetail ? 'flex' : 'hidden')}>{detail}</div>
      </div>
    </>
  )
}
