import { useTranslation } from 'react-i18next'
import type { AnnouncementPriority as Priority } from '../../../../shared/announcements'
import { cn } from '../../../lib/cn'
import { Badge, type BadgeTone } from '../../ui/Badge'

/** The spec's priority colours: 1 high red, 2 medium orange, 3 low grey. */
export const PRIORITY_TONE: Record<Priority, BadgeTone> = { 1: 'danger', 2: 'warning', 3: 'neutral' }
export const PRIORITY_DOT: Record<Priority, string> = { 1: 'bg-danger', 2: 'bg-warning', 3: 'bg-subtle' }
/** A bar at the side of an entry, in the priority's colour. */
export const PRIORITY_BAR: Record<Priority, string> = {
  1: 'before:bg-danger',
  2: 'before:bg-warning',
  3: 'before:bg-border-strong',
}

/** The priority as a coloured badge with its name (high, medium, low). */
export function PriorityBadge({ priority, className }: { priority: Priority; className?: string }) {
  const { t } = useTranslation()
  return (
    <Badge tone={PRIORITY_TONE[priority]} className={className}>
      <span aria-hidden className={cn('size-2 rounded-full', PRIORITY_DOT[priority])} />
      {t(`announcements.priority${priority}`)}
    </Badge>
  )
}
