import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

/**
 * A page: title row with actions, then the content (usually one card). The shell's <main> is the scroller.
 *
 * Two layouts, chosen by the content:
 * - By default the page grows with its content and scrolls as a whole (a form, the settings list, a card of
 *   text): nothing is ever cut off, on any screen height.
 * - A page whose card fills the rest of the screen (`<Card fill>`, or any direct child with `flex-1`) is held to
 *   the screen's height instead, so the card's own scroller (a table that loads more as it scrolls) does the
 *   scrolling. Only such a child may be bounded: everything else keeps its natural height.
 */
export function Page({
  title,
  subtitle,
  actions,
  children,
  className,
}: {
  title: ReactNode
  subtitle?: ReactNode
  actions?: ReactNode
  children: ReactNode
  className?: string
}) {
  return (
    <div
      data-page
      className={cn(
        'mx-auto flex w-full max-w-6xl flex-1 flex-col gap-4 p-3 sm:p-6',
        // A filling child: hold the page to the screen so the child's scroller takes the overflow.
        'has-[>.flex-1]:min-h-0',
        className,
      )}
    >
      <div className="flex shrink-0 flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="font-semibold text-[22px] text-fg tracking-tight">{title}</h1>
          {subtitle && <p className="mt-0.5 text-muted text-sm tnum">{subtitle}</p>}
        </div>
        {actions && <div className="flex items-center gap-2">{actions}</div>}
      </div>
      {children}
    </div>
  )
}

/**
 * A card. By default it is as tall as its content (the page scrolls); with `fill` (or `className="flex-1"`) it
 * takes the rest of the page's height and its content scrolls inside it (give that content `min-h-0 flex-1
 * overflow-auto`, as DataTable does).
 */
export function Card({
  children,
  className,
  fill = false,
}: {
  children: ReactNode
  className?: string
  fill?: boolean
}) {
  return (
    <section
      className={cn(
        'flex min-h-0 flex-col overflow-hidden rounded-card border border-border bg-surface',
        fill ? 'flex-1' : 'shrink-0',
        className,
      )}
    >
      {children}
    </section>
  )
}
