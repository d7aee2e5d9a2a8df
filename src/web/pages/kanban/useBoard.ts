import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { KanbanMoveDto, TagDto, TicketDto, UserDto } from '../../../shared/api'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { useLiveList } from '../../state/liveList'
import { toast } from '../../state/toast'
import { type BoardParams, boardLanesList, boardTicketsList, laneOf, movedTicket, OPEN_LANE } from './board'
import type { Column } from './dnd'

/**
 * The board's data: its lanes and tickets (live), the columns in order with each one's tickets, and `move`,
 * which shows the move at once, asks the server (PUT /ticket/kanban/{id}), toasts the spec's two messages and
 * puts the card back if the server refuses.
 */
export function useBoard(user: UserDto | null, showAll: boolean) {
  const { t } = useTranslation()
  const queueKey = (user?.queues ?? [])
    .map((q) => q.id)
    .sort((a, b) => a - b)
    .join(',')
  // The spec: the board loads the tickets of the user's queues. A user with no queue (an admin) sees them all.
  const params = useMemo<BoardParams>(
    () => ({ queueIds: queueKey ? queueKey.split(',').map(Number) : null, showAll }),
    [queueKey, showAll],
  )
  const lanes = useLiveList(boardLanesList)
  const tickets = useLiveList(boardTicketsList, params)

  const laneIds = useMemo(() => new Set(lanes.items.map((l) => l.id)), [lanes.items])
  const columns: Column[] = useMemo(
    () => [
      { id: OPEN_LANE, name: t('kanban.openLane'), color: null },
      ...lanes.items.map((l) => ({ id: l.id, name: l.name, color: l.color })),
    ],
    [lanes.items, t],
  )
  const byLane = useMemo(() => {
    const map = new Map<number, TicketDto[]>(columns.map((c) => [c.id, []]))
    for (const ticket of tickets.items) map.get(laneOf(ticket, laneIds))?.push(ticket)
    return map
  }, [columns, tickets.items, laneIds])

  const move = async (ticket: TicketDto, laneId: number) => {
    if (laneOf(ticket, laneIds) === laneId) return
    const lane: TagDto | undefined = lanes.items.find((l) => l.id === laneId)
    const target = lane ? { id: lane.id, name: lane.name, color: lane.color } : null
    tickets.patch(ticket.id, (row) => movedTicket(row, target, laneIds))
    try {
      const res = await api.put<KanbanMoveDto>(`/ticket/kanban/${ticket.id}`, { tagId: target?.id ?? null })
      tickets.patch(ticket.id, () => res.ticket)
      if (res.removed.length > 0) toast.success(t('kanban.tagRemoved'))
      if (res.added) toast.success(t('kanban.tagAdded'))
    } catch (err) {
      tickets.patch(ticket.id, () => ticket)
      toastError(err)
    }
  }

  return { lanes, tickets, columns, byLane, laneIds, move }
}
