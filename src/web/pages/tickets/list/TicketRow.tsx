import { CheckCircle2, Clock, Eye, Smartphone, UserRound, UsersRound } from 'lucide-react'
import { memo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import type { TicketDto } from '../../../../shared/api'
import { Avatar } from '../../../components/ui/Avatar'
import { Button, IconButton } from '../../../components/ui/Button'
import { Spinner } from '../../../components/ui/Spinner'
import { cn } from '../../../lib/cn'
import { plainText } from '../conversation/RichText'
import { elapsedSince, fullDateTime, ticketTime } from './time'

/** Spec: the contact picture is 55 px. */
export const PICTURE_SIZE = 55
/** Tags shown on a row; the rest as '+N' (with their names in the tooltip). */
const MAX_TAGS = 3

/** The row's time: HH:mm today, 'Ontem', dd/MM/yyyy. */
export function TicketTimeLabel({ iso, now, className }: { iso: string; now: number; className?: string }) {
  const { t } = useTranslation()
  const time = ticketTime(iso, new Date(now))
  if (!time) return null
  return (
    <time dateTime={iso} title={fullDateTime(iso)} className={cn('shrink-0 text-xs tnum', className)}>
      {time.kind === 'yesterday' ? t('ticketList.yesterday') : time.text}
    </time>
  )
}

/** How long the customer has been waiting ('agora', '12 min', '3 h'); nothing after a day (the date says it). */
export function ElapsedLabel({ iso, now }: { iso: string; now: number }) {
  const { t } = useTranslation()
  const e = elapsedSince(iso, now)
  if (!e) return null
  const text =
    e.unit === 'now' ? t('ticketList.elapsedNow') : t(`ticketList.elapsed.${e.unit}`, { count: e.count })
  return (
    <span
      className="inline-flex shrink-0 items-center gap-1 text-warning"
      title={t('ticketList.waitingFor', { time: text })}
    >
      <Clock className="size-3" aria-hidden />
      <span className="tnum">{text}</span>
    </span>
  )
}

function Meta({ icon, children, title }: { icon?: ReactNode; children: ReactNode; title?: string }) {
  return (
    <span className="inline-flex min-w-0 shrink items-center gap-1" title={title}>
      {icon}
      <span className="truncate">{children}</span>
    </span>
  )
}

/** The queue's name and colour as a small chip; 'SEM FILA' without one (spec). */
export function QueueLabel({ queue }: { queue: TicketDto['queue'] }) {
  const { t } = useTranslation()
  return (
    <span
      className={cn(
        'inline-flex max-w-32 shrink-0 items-center gap-1 rounded px-1.5 py-px font-semibold text-[10.5px] uppercase tracking-wide',
        queue ? 'bg-surface-2 text-fg' : 'bg-surface-2 text-muted',
      )}
    >
      {queue && (
        <span
          aria-hidden
          className="size-2 shrink-0 rounded-full ring-1 ring-black/10 dark:ring-white/15"
          style={{ background: queue.color }}
        />
      )}
      <span className="truncate">{queue ? queue.name : t('ticketList.noQueue')}</span>
    </span>
  )
}

export type TicketRowProps = {
  ticket: TicketDto
  /** The ticket shown in the conversation pane. */
  selected: boolean
  /** Clock for the time labels (epoch ms, ticks every half minute). */
  now: number
  onOpen: (ticket: TicketDto) => void
  onAccept: (ticket: TicketDto) => void
  accepting?: boolean
  /** Close a pending ticket without accepting it; absent for users who may not. */
  onClosePending?: (ticket: TicketDto) => void
  closing?: boolean
  /** Admins: a read-only look at a pending conversation before accepting it. */
  onSpy?: (ticket: TicketDto) => void
}

/**
 * A ticket in the list: picture, name, last message, time, unread count, then the queue, the connection, the
 * assigned user and the tags. A pending ticket cannot be opened by clicking: it has to be accepted.
 */
export const TicketRow = memo(function TicketRow({
  ticket,
  selected,
  now,
  onOpen,
  onAccept,
  accepting,
  onClosePending,
  closing,
  onSpy,
}: TicketRowProps) {
  const { t } = useTranslation()
  const pending = ticket.status === 'pending'
  const unread = ticket.unreadMessages > 0
  const waiting = ticket.status !== 'closed' && (pending || unread)
  const name = ticket.contact?.name || ticket.contact?.number || t('ticketList.unknownContact')

  const connection = ticket.whatsapp?.name ? (
    <Meta icon={<Smartphone className="size-3 shrink-0" aria-hidden />} title={t('ticketList.connection')}>
      {ticket.whatsapp.name}
    </Meta>
  ) : null

  const actions = pending ? (
    <span className="ml-auto flex shrink-0 items-center gap-1 pl-1">
      {onSpy && (
        <IconButton
          size="sm"
          label={`${t('ticketList.spy')}: ${name}`}
          icon={<Eye className="size-4" />}
          onClick={() => onSpy(ticket)}
          className="size-7 max-sm:size-9"
        />
      )}
      {onClosePending && (
        <IconButton
          size="sm"
          label={`${t('ticketList.closePending')}: ${name}`}
          icon={closing ? <Spinner /> : <CheckCircle2 className="size-4" />}
          onClick={() => onClosePending(ticket)}
          disabled={closing}
          className="size-7 max-sm:size-9"
        />
      )}
      <Button
        size="sm"
        onClick={() => onAccept(ticket)}
        loading={accepting}
        aria-label={`${t('ticketList.accept')}: ${name}`}
        className="h-7 px-2.5 max-sm:h-9"
      >
        {t('ticketList.accept')}
      </Button>
    </span>
  ) : null

  const body = (
    <>
      <Avatar name={name} src={ticket.contact?.profilePicUrl || null} size={PICTURE_SIZE} />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          <span className="flex min-w-0 flex-1 items-center gap-1.5">
            {ticket.isGroup && <UsersRound className="size-3.5 shrink-0 text-muted" aria-hidden />}
            <span className={cn('truncate text-[15px] text-fg', unread ? 'font-semibold' : 'font-medium')}>
              {name}
            </span>
          </span>
          <TicketTimeLabel
            iso={ticket.updatedAt}
            now={now}
            className={unread ? 'font-semibold text-link' : 'text-muted'}
          />
        </div>
        <div className="mt-0.5 flex items-center gap-2">
          <p
            className={cn(
              'min-w-0 flex-1 truncate text-[13.5px]',
              unread ? 'text-fg' : 'text-muted',
              !ticket.lastMessage && 'italic',
            )}
          >
            {ticket.lastMessage ? plainText(ticket.lastMessage) : t('ticketList.noMessages')}
          </p>
          {unread && (
            <span
              className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 font-semibold text-[11px] text-on-primary tnum"
              title={t('ticketList.unread', { count: ticket.unreadMessages })}
            >
              <span aria-hidden>{ticket.unreadMessages > 99 ? '99+' : ticket.unreadMessages}</span>
              <span className="sr-only">{t('ticketList.unread', { count: ticket.unreadMessages })}</span>
            </span>
          )}
        </div>
        <div className="mt-1.5 flex min-w-0 items-center gap-2 overflow-hidden whitespace-nowrap text-[11.5px] text-subtle">
          <QueueLabel queue={ticket.queue} />
          {waiting && <ElapsedLabel iso={ticket.updatedAt} now={now} />}
          {ticket.user?.name && (
            <Meta
              icon={<UserRound className="size-3 shrink-0" aria-hidden />}
              title={t('ticketList.assignedTo')}
            >
              {ticket.user.name}
            </Meta>
          )}
          {!pending && connection}
        </div>
        {/* A pending row's actions sit on the last line, the one with room to spare beside the connection. */}
        {(ticket.tags?.length > 0 || pending) && (
          <div
            className={cn(
              'mt-1 flex min-w-0 items-center gap-1.5 overflow-hidden whitespace-nowrap text-[11.5px] text-subtle',
              pending && '-mb-1',
            )}
          >
            {pending && connection}
            {(ticket.tags ?? []).slice(0, MAX_TAGS).map((tag) => (
              <span
                key={tag.id}
                className="inline-flex min-w-0 max-w-28 shrink items-center gap-1 rounded-full border border-border px-1.5 py-px text-[10.5px] text-muted"
              >
                <span
                  aria-hidden
                  className="size-1.5 shrink-0 rounded-full"
                  style={{ background: tag.color }}
                />
                <span className="truncate">{tag.name}</span>
              </span>
            ))}
            {(ticket.tags?.length ?? 0) > MAX_TAGS && (
              <span
                className="shrink-0 text-[10.5px] text-subtle tnum"
                title={ticket.tags
                  .slice(MAX_TAGS)
                  .map((tag) => tag.name)
                  .join(', ')}
              >
                +{(ticket.tags?.length ?? 0) - MAX_TAGS}
              </span>
            )}
            {actions}
          </div>
        )}
      </div>
    </>
  )

  const rowClass = cn(
    'relative flex w-full gap-3 border-border border-b px-3 py-2.5 text-left transition-colors duration-150',
    selected ? 'bg-selected' : 'hover:bg-surface-2/70',
  )

  if (pending)
    return (
      <li data-ticket-id={ticket.id}>
        <div className={rowClass} title={t('ticketList.acceptToOpen')}>
          {body}
        </div>
      </li>
    )

  return (
    <li data-ticket-id={ticket.id}>
      <Link
        to={`/tickets/${ticket.uuid}`}
        onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return
          e.preventDefault()
          onOpen(ticket)
        }}
        aria-current={selected ? 'page' : undefined}
        className={cn(rowClass, 'focus-visible:-outline-offset-2')}
      >
        {selected && <span aria-hidden className="absolute inset-y-0 left-0 w-[3px] bg-brand" />}
        {body}
      </Link>
    </li>
  )
})
