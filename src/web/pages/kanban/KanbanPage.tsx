import {
  type Announcements,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardCode,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  rectIntersection,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import { useSignals } from '@preact/signals-react/runtime'
import { ArrowRightLeft, Columns3, ExternalLink, GripVertical, Inbox, Settings2 } from 'lucide-react'
import { type KeyboardEventHandler, type ReactNode, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router-dom'
import type { KanbanMoveDto, TagDto, TicketDto } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { Page } from '../../components/layout/Page'
import { Button, IconButton } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { Menu, MenuButton, MenuEntry, MenuGroup, MenuPanel } from '../../components/ui/Menu'
import { Skeleton } from '../../components/ui/Skeleton'
import { cn } from '../../lib/cn'
import { type LiveListView, useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { initialShowAll } from '../../state/tickets'
import { toast } from '../../state/toast'
import { type BoardParams, boardLanesList, boardTicketsList, laneOf, movedTicket, OPEN_LANE } from './board'
import { KanbanGate } from './KanbanGate'

/** A column of the board: 'Em aberto' (id 0, no colour) or a lane tag. */
type Column = { id: number; name: string; color: string | null }

const laneKey = (id: number) => `lane-${id}`
const cardKey = (id: number) => `ticket-${id}`

/**
 * The keyboard moves a picked-up card a whole lane at a time (left and right arrows), to the middle of the next
 * lane in that direction, instead of dnd-kit's default 25 px steps.
 */
export const laneKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const dir = event.code === KeyboardCode.Right ? 1 : event.code === KeyboardCode.Left ? -1 : 0
  if (event.code === KeyboardCode.Up || event.code === KeyboardCode.Down) event.preventDefault()
  const rect = context.collisionRect
  if (!dir || !rect) return undefined
  event.preventDefault()
  const lanes = [...context.droppableRects.entries()]
    .map(([id, r]) => ({ id, r }))
    .sort((a, b) => a.r.left - b.r.left)
  const centre = rect.left + rect.width / 2
  let at = lanes.findIndex((l) => l.id === context.over?.id)
  if (at === -1) at = lanes.findIndex((l) => centre >= l.r.left && centre <= l.r.left + l.r.width)
  const next = at === -1 ? (dir > 0 ? lanes.find((l) => l.r.left > centre) : undefined) : lanes[at + dir]
  if (!next) return undefined
  return { x: next.r.left + (next.r.width - rect.width) / 2, y: currentCoordinates.y }
}

/** Pointer drags drop where the pointer is; keyboard drags (no pointer) by the card's overlap. */
const collision: CollisionDetection = (args) => {
  const hits = pointerWithin(args)
  return hits.length > 0 ? hits : rectIntersection(args)
}

/**
 * The Kanban board (spec 2, /kanban): 'Em aberto' for tickets without a lane tag, then one lane per Kanban tag
 * in its colour; cards with the contact's name and number (masked as the server sends it), the last message and
 * a button to the ticket. A card moves by dragging (mouse, touch with a long press, keyboard with its handle) or
 * through its "move to" menu; the server replaces the lane tag (PUT /ticket/kanban/{id}) and the board shows the
 * spec's two toasts. Tickets and lanes are live (board.ts).
 */
export function KanbanPage() {
  return (
    <KanbanGate>
      <Board />
    </KanbanGate>
  )
}

function Board() {
  useSignals()
  const { t } = useTranslation()
  const user = currentUser.value
  const [showAll, setShowAll] = useState(() => initialShowAll(user))
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
  const [dragging, setDragging] = useState<TicketDto | null>(null)

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
  const columnName = (id: number) => columns.find((c) => c.id === id)?.name ?? ''

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneKeyboardCoordinates }),
  )

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

  const ticketOf = (id: unknown) => tickets.items.find((x) => cardKey(x.id) === id)
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
    if (ticket && lane) void move(ticket, lane.id)
  }

  const loading = lanes.loading || tickets.loading
  const failed = (lanes.error && lanes.items.length === 0) || (tickets.error && tickets.items.length === 0)

  return (
    <Page
      className="max-w-none"
      title={t('kanban.title')}
      subtitle={t('kanban.subtitle')}
      actions={
        <>
          {can(user, 'tickets-manager:showall') && (
            <label
              className="flex cursor-pointer items-center gap-2 text-fg text-sm"
              title={t('kanban.showAllHint')}
            >
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={showAll}
                onChange={(e) => setShowAll(e.target.checked)}
              />
              {t('kanban.showAll')}
            </label>
          )}
          <Link
            to="/tagsKanban"
            className="inline-flex h-9 items-center gap-2 rounded-lg border border-border-strong bg-surface px-3 font-medium text-fg text-sm hover:bg-surface-2 max-sm:h-11"
          >
            <Settings2 className="size-4" aria-hidden />
            {t('kanban.manageLanes')}
          </Link>
        </>
      }
    >
      {failed ? (
        <EmptyState
          className="flex-1 justify-center"
          title={t('kanban.loadError')}
          action={
            <Button
              variant="secondary"
              onClick={() => {
                lanes.reload()
                tickets.reload()
              }}
            >
              {t('kanban.retry')}
            </Button>
          }
        >
          {errorMessage(lanes.error ?? tickets.error)}
        </EmptyState>
      ) : loading ? (
        <BoardSkeleton />
      ) : (
        <>
          {lanes.items.length === 0 && (
            <div className="flex flex-wrap items-center gap-3 rounded-card border border-border border-dashed bg-surface px-4 py-3 text-sm">
              <Columns3 className="size-5 shrink-0 text-muted" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="font-medium text-fg">{t('kanban.noLanesTitle')}</p>
                <p className="text-muted">{t('kanban.noLanesText')}</p>
              </div>
              <Link to="/tagsKanban" className="font-medium text-link text-sm hover:underline">
                {t('kanban.manageLanes')}
              </Link>
            </div>
          )}
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
                  onMove={move}
                  laneIds={laneIds}
                />
              ))}
            </ul>
            <DragOverlay dropAnimation={null}>
              {dragging ? <CardBody ticket={dragging} overlay /> : null}
            </DragOverlay>
          </DndContext>
          {tickets.hasMore && <MoreTickets list={tickets} />}
        </>
      )}
    </Page>
  )
}

function MoreTickets({ list }: { list: LiveListView<TicketDto> }) {
  const { t } = useTranslation()
  return (
    <div className="flex justify-center">
      <Button variant="secondary" loading={list.loadingMore} onClick={list.loadMore}>
        {t('kanban.loadMore')}
      </Button>
    </div>
  )
}

function BoardSkeleton() {
  return (
    <div aria-busy className="flex min-h-[420px] flex-1 gap-3 overflow-hidden">
      {[0, 1, 2].map((i) => (
        <div
          key={i}
          className="flex w-72 shrink-0 flex-col gap-2 rounded-card border border-border bg-surface-2/60 p-3"
        >
          <Skeleton className="h-4 w-1/2" />
          {[0, 1, 2].map((j) => (
            <div key={j} className="rounded-card border border-border bg-surface p-3">
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="mt-2 h-3 w-1/3" />
              <Skeleton className="mt-3 h-3 w-full" />
            </div>
          ))}
        </div>
      ))}
    </div>
  )
}

function Lane({
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
          <Card
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

function Card({
  ticket,
  lane,
  columns,
  onMove,
}: {
  ticket: TicketDto
  lane: number
  columns: Column[]
  onMove: (laneId: number) => void
  laneIds: ReadonlySet<number>
}) {
  const { t } = useTranslation()
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: cardKey(ticket.id),
  })
  const name = ticket.contact.name || t('kanban.noName')
  // Mouse and touch drag the whole card; the keyboard picks it up by its handle (so Enter on the card's own
  // buttons opens the ticket or the menu, not a drag).
  const { onKeyDown, ...pointer } = listeners ?? {}
  const onHandleKeyDown = onKeyDown as KeyboardEventHandler<HTMLButtonElement> | undefined
  return (
    <li
      ref={setNodeRef}
      {...pointer}
      data-ticket={ticket.id}
      className={cn(
        'group touch-manipulation select-none rounded-card border border-border bg-surface shadow-xs',
        'cursor-grab active:cursor-grabbing',
        isDragging && 'opacity-40',
      )}
    >
      <CardBody
        ticket={ticket}
        handle={
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            onKeyDown={onHandleKeyDown}
            aria-label={t('kanban.dragHandle', { name })}
            title={t('kanban.dragHandle', { name })}
            className="-ml-1 flex size-7 shrink-0 cursor-grab items-center justify-center rounded-md text-subtle hover:bg-surface-2 hover:text-fg max-sm:size-10"
          >
            <GripVertical className="size-4" aria-hidden />
          </button>
        }
        actions={
          <Menu>
            <MenuButton
              as={IconButton}
              size="sm"
              label={t('kanban.moveMenu', { name })}
              icon={<ArrowRightLeft className="size-4" />}
            />
            <MenuPanel>
              <MenuGroup label={t('kanban.moveTo')}>
                {columns
                  .filter((c) => c.id !== lane)
                  .map((c) => (
                    <MenuEntry
                      key={c.id}
                      onClick={() => onMove(c.id)}
                      icon={
                        c.color ? (
                          <span className="block size-2.5 rounded-full" style={{ background: c.color }} />
                        ) : (
                          <Inbox />
                        )
                      }
                    >
                      {c.name}
                    </MenuEntry>
                  ))}
              </MenuGroup>
            </MenuPanel>
          </Menu>
        }
      />
    </li>
  )
}

function CardBody({
  ticket,
  handle,
  actions,
  overlay = false,
}: {
  ticket: TicketDto
  handle?: ReactNode
  actions?: ReactNode
  overlay?: boolean
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const name = ticket.contact.name || t('kanban.noName')
  return (
    <div
      className={cn(
        'flex flex-col gap-2 p-3',
        overlay && 'w-72 rounded-card border border-primary bg-surface shadow-pop',
      )}
    >
      <div className="flex items-start gap-1.5">
        {handle ?? <GripVertical className="mt-1 size-4 shrink-0 text-subtle" aria-hidden />}
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-fg text-sm">{name}</p>
          {ticket.contact.number && (
            <p className="truncate text-muted text-xs tnum">{ticket.contact.number}</p>
          )}
        </div>
        {actions}
      </div>
      <p
        className={cn(
          'line-clamp-2 break-words text-[13px]',
          ticket.lastMessage ? 'text-fg/80' : 'text-subtle italic',
        )}
      >
        {ticket.lastMessage || t('kanban.noMessage')}
      </p>
      <div className="flex items-center justify-between gap-2">
        <span className="truncate text-subtle text-xs">{ticket.queue?.name ?? ''}</span>
        <Button
          size="sm"
          variant="secondary"
          icon={<ExternalLink className="size-3.5" />}
          aria-label={t('kanban.openTicketOf', { name })}
          onClick={() => navigate(`/tickets/${ticket.uuid}`)}
          tabIndex={overlay ? -1 : undefined}
        >
          {t('kanban.openTicket')}
        </Button>
      </div>
    </div>
  )
}
