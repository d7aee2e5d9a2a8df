import { CloseButton, Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { Avatar } from '../../ui/Avatar'
import { Skeleton } from '../../ui/Skeleton'

const pad = (n: number) => String(n).padStart(2, '0')

/** HH:mm today, else dd/MM (the popovers are short lists of recent things). */
export function shortTime(iso: string, now = new Date()): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const today =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()
  return today
    ? `${pad(d.getHours())}:${pad(d.getMinutes())}`
    : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}`
}

/** One unread conversation: a link with the avatar, the name, the time, the last message and the unread count. */
export function UnreadEntry({
  to,
  name,
  avatar,
  updatedAt,
  lastMessage,
  unread,
  unreadTitle,
}: {
  to: string
  name: string
  avatar?: string | null
  updatedAt: string
  lastMessage: string | null | undefined
  unread: number
  /** The count in words (the badge's tooltip). */
  unreadTitle: string
}) {
  return (
    <li>
      <CloseButton
        as={Link}
        to={to}
        className="flex items-center gap-3 rounded-md px-2.5 py-2 hover:bg-surface-2 focus-visible:-outline-offset-2 max-sm:min-h-14"
      >
        <Avatar name={name} src={avatar} size={36} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className="min-w-0 flex-1 truncate font-medium text-fg text-sm">{name}</span>
            <span className="shrink-0 text-muted text-xs tnum">{shortTime(updatedAt)}</span>
          </span>
          <span className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate text-[13px] text-muted">{lastMessage}</span>
            <span
              className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 font-semibold text-[11px] text-on-primary tnum"
              title={unreadTitle}
            >
              {unread > 99 ? '99+' : unread}
            </span>
          </span>
        </span>
      </CloseButton>
    </li>
  )
}

/**
 * A top-bar button with the number of unread things, opening a list of them: a header (the title and
 * `headerExtra`), a skeleton while the first load runs, an empty state, the entries (the children), then
 * `footer`.
 */
export function UnreadPopover({
  label,
  testId,
  icon: Icon,
  count,
  loading,
  skeletonRows,
  title,
  headerExtra,
  empty,
  footer,
  children,
}: {
  /** The button's name (with the count). */
  label: string
  testId: string
  icon: LucideIcon
  count: number
  loading: boolean
  /** How many placeholder rows the first load shows (up to 3). */
  skeletonRows: number
  title: string
  headerExtra?: ReactNode
  empty: { title: string; text: string }
  footer?: ReactNode
  children: ReactNode
}) {
  return (
    <Popover className="relative">
      <PopoverButton
        aria-label={label}
        title={label}
        data-testid={testId}
        className="relative inline-flex size-9 items-center justify-center rounded-lg text-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg max-sm:size-11"
      >
        <Icon className="size-[18px]" aria-hidden />
        {count > 0 && (
          <span
            aria-hidden
            className="absolute top-1 right-0.5 inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-danger-solid px-1 font-bold text-[10px] text-white leading-none ring-2 ring-surface tnum max-sm:top-2 max-sm:right-1.5"
          >
            {count > 99 ? '99+' : count}
          </span>
        )}
      </PopoverButton>
      <PopoverPanel
        anchor="bottom end"
        transition
        className="z-50 flex max-h-[min(480px,80dvh)] w-[min(360px,calc(100vw-16px))] flex-col rounded-lg border border-border bg-surface shadow-pop [--anchor-gap:6px] transition duration-150 data-closed:opacity-0"
      >
        <div className="flex items-center justify-between gap-2 border-border border-b px-3.5 py-2.5">
          <span className="font-semibold text-fg text-sm">{title}</span>
          {headerExtra}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto p-1">
          {loading && count === 0 ? (
            <ul aria-hidden>
              {[0, 1, 2].slice(0, skeletonRows).map((i) => (
                <li key={i} className="flex items-center gap-3 px-2.5 py-2">
                  <Skeleton className="size-9 shrink-0 rounded-full" />
                  <span className="flex-1 space-y-1.5">
                    <Skeleton className="h-3.5 w-1/2" />
                    <Skeleton className="h-3 w-3/4" />
                  </span>
                </li>
              ))}
            </ul>
          ) : count === 0 ? (
            <div className="flex flex-col items-center gap-2 px-6 py-8 text-center">
              <Icon className="size-6 text-subtle" aria-hidden />
              <p className="font-medium text-fg text-sm">{empty.title}</p>
              <p className="text-muted text-xs">{empty.text}</p>
            </div>
          ) : (
            <ul aria-label={title}>{children}</ul>
          )}
        </div>
        {footer}
      </PopoverPanel>
    </Popover>
  )
}
