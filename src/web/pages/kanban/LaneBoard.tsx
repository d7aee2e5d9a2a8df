import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TicketDto } from '../../../shared/api'
import { laneOf } from './board'
import { type Column, cardKey, collision, laneKey, laneKeyboardCoordinates } from './dnd'
import { Lane } from './Lane'
import { TicketCardBody } from './TicketCard'

/**
 * The lanes side by side, with dragging: mouse, touch with a long press, and the keyboard a lane at a time,
 * each step announced to screen readers.
 */
export function LaneBoard({
  columns,
  byLane,
  laneIds,
  tickets,
  onMove,
}: {
  columns: Column[]
  byLane: ReadonlyMap<number, TicketDto[]>
  laneIds: ReadonlySet<number>
  tickets: TicketDto[]
  onMove: (ticket: TicketDto, laneId: number) => void
}) {
  const { t } = useTranslation()
  const [dragging, setDragging] = useState<TicketDto | null>(null)
  const columnName = (id: number) => columns.find((c) => c.id === id)?.name ?? ''

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneKeyboardCoordinates }),
  )

  const ticketOf = (id: unknown) => tickets.find((x) => cardKey(x.id) === id)
  const nameOf = (id: unknown) => ticketOf(id)?.contact.name || t('kanban.noName')
  const laneOfKey = (id: unknown) => columns.find((c) => laneKey(c.id) === id)
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const ticket = ticketOf(active.id)
      return t('kanban.pickedUp', {
        name: nameOf(active.id),
        lane: ticket ? columnName(laneOf(ticket, laneIds)) : '',
      })
    },
    onDragOver: ({ over }) => (over ? t('kanban.over', { lane: laneOfKey(over.id)?.name ?? '' }) : undefined),
    onDragEnd: ({ active, over }) =>
      over
        ? t('kanban.dropped', { name: nameOf(active.id), lane: laneOfKey(over.id)?.name ?? '' })
        : t('kanban.cancelled', { name: nameOf(active.id) }),
    onDragCancel: ({ active }) => t('kanban.cancelled', { name: nameOf(active.id) }),
  }

  const onDragStart = ({ active }: DragStartEvent) => setDragging(ticketOf(active.id) ?? null)
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(null)
    const ticket = ticketOf(active.id)
    const lane = over ? laneOfKey(over.id) : undefined
    if (ticket && lane) onMove(ticket, lane.id)
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragging(null)}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: t('kanban.instructions') },
      }}
    >
      <ul
        aria-label={t('kanban.title')}
        className="-mx-3 sm:-mx-6 relative flex min-h-[420px] flex-1 gap-3 overflow-x-auto px-3 pb-3 sm:px-6"
      >
        {columns.map((column) => (
          <Lane
            key={column.id}
            column={column}
            tickets={byLane.get(column.id) ?? []}
            columns={columns}
            onMove={onMove}
            laneIds={laneIds}
          />
        ))}
      </ul>
      <DragOverlay dropAnimation={null}>
        {dragging ? <TicketCardBody ticket={dragging} overlay /> : null}
      </DragOverlay>
    </DndContext>
  )
}
