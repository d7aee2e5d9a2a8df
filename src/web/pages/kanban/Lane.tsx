import { useDroppable } from '@dnd-kit/core'
import { Inbox } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { TicketDto } from '../../../shared/api'
import { cn } from '../../lib/cn'
import { type Column, laneKey } from './dnd'
import { TicketCard } from './TicketCard'

/** One lane of the board: its heading and count, its cards, and where a card may be dropped. */
export function Lane({
  column,
  tickets,
  columns,
  onMove,
  laneIds,
}: {
  column: Column
  tickets: TicketDto[]
  columns: Column[]
  onMove: (ticket: TicketDto, laneId: number) => void
  laneIds: ReadonlySet<number>
}) {
  const { t } = useTranslation()
  const { setNodeRef, isOver, active } = useDroppable({ id: laneKey(column.id) })
  const headingId = `kanban-lane-${column.id}`
  return (
    <li
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-lane={column.id}
      className={cn(
        'relative flex w-72 shrink-0 flex-col overflow-hidden rounded-card border bg-surface-2/60 transition-colors duration-150',
        isOver ? 'border-primary ring-2 ring-primary/30' : 'border-border',
      )}
    >
      <header
        className="flex items-center gap-2 border-border border-b bg-surface px-3 py-2.5"
        style={column.color ? { boxShadow: `inset 0 3px 0 ${column.color}` } : undefined}
      >
        {column.color ? (
          <span
            aria-hidden
            className="size-2.5 shrink-0 rounded-full ring-1 ring-black/10 dark:ring-white/15"
            style={{ background: column.color }}
          />
        ) : (
          <Inbox className="size-4 shrink-0 text-muted" aria-hidden />
        )}
        <h2 id={headingId} className="min-w-0 flex-1 truncate font-semibold text-fg text-sm">
          {column.name}
        </h2>
        <span className="rounded-full bg-surface-2 px-2 py-0.5 text-muted text-xs tnum">
          <span className="sr-only">{t('kanban.laneCount', { count: tickets.length })}</span>
          <span aria-hidden>{tickets.length}</span>
        </span>
      </header>
      <ul className="flex min-h-24 flex-1 flex-col gap-2 overflow-y-auto p-2">
        {tickets.map((ticket) => (
          <TicketCard
            key={ticket.id}
            ticket={ticket}
            lane={column.id}
            columns={columns}
            onMove={(laneId) => onMove(ticket, laneId)}
            laneIds={laneIds}
          />
        ))}
        {tickets.length === 0 && (
          <li className="flex flex-1 items-center justify-center rounded-lg border border-border border-dashed px-3 py-6 text-center text-subtle text-xs">
            {active ? t('kanban.dropHere') : t('kanban.laneEmpty')}
          </li>
        )}
      </ul>
    </li>
  )
}
