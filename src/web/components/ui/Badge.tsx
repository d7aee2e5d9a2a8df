import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

export type BadgeTone = 'neutral' | 'brand' | 'success' | 'warning' | 'danger'

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-surface-2 text-muted border-border',
  brand: 'bg-info-soft text-on-info-soft border-transparent',
  success: 'bg-success-soft text-on-success-soft border-transparent',
  warning: 'bg-warning-soft text-on-warning-soft border-transparent',
  danger: 'bg-danger-soft text-on-danger-soft border-transparent',
}

export function Badge({
  children,
  tone = 'neutral',
  className,
}: {
  children: ReactNode
  tone?: BadgeTone
  className?: string
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 whitespace-nowrap rounded-md border px-2 py-0.5 font-medium text-xs',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  )
}

/** A small colour chip with its label (queue and tag colours are only used this way). */
export function ColorChip({ color, label }: { color: string; label?: ReactNode }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span
        className="size-3.5 shrink-0 rounded-full ring-1 ring-black/10 dark:ring-white/15"
        style={{ background: color }}
      />
      {label != null && <span className="font-mono text-muted text-xs uppercase tnum">{label}</span>}
    </span>
  )
}
