import { useDraggable } from '@dnd-kit/core'
import { ArrowRightLeft, ExternalLink, GripVertical, Inbox } from 'lucide-react'
import type { KeyboardEventHandler, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { TicketDto } from '../../../shared/api'
import { Button, IconButton } from '../../components/ui/Button'
import { Menu, MenuButton, MenuEntry, MenuGroup, MenuPanel } from '../../components/ui/Menu'
import { cn } from '../../lib/cn'
import { type Column, cardKey } from './dnd'

/** A ticket on the board: dragged whole by mouse or touch, by its handle from the keyboard, or moved through its menu. */
export function TicketCard({
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
      <TicketCardBody
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

/** What a card shows (also the card under the pointer while it is dragged). */
export function TicketCardBody({
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
