import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

/** A page: title row with actions, then the content (usually one card). */
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
    <div className={cn('mx-auto flex w-full max-w-6xl flex-1 flex-col gap-4 p-3 sm:p-6 min-h-0', className)}>
      <div className="flex flex-wrap items-center justify-between gap-3">
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

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <section
      className={cn(
        'flex min-h-0 flex-col overflow-hidden rounded-card border border-border bg-surface',
        className,
      )}
    >
      {children}
    </section>
  )
}
