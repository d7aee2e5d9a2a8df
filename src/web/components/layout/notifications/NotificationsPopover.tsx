import { CloseButton, Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { Bell, BellOff, BellRing } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import type { TicketDto } from '../../../../shared/api'
import { useLiveList } from '../../../state/liveList'
import { unreadTicketsList } from '../../../state/notifications'
import { Avatar } from '../../ui/Avatar'
import { Skeleton } from '../../ui/Skeleton'
import { desktopPermission, requestDesktopPermission } from './desktop'

const pad = (n: number) => String(n).padStart(2, '0')

/** HH:mm today, else dd/MM (the bell is a short list of recent things). */
function shortTime(iso: string, now = new Date()): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const today =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()
  return today
    ? `${pad(d.getHours())}:${pad(d.getMinutes())}`
    : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}`
}

function Entry({ ticket }: { ticket: TicketDto }) {
  const { t } = useTranslation()
  const name = ticket.contact?.name || ticket.contact?.number || t('ticketList.unknownContact')
  return (
    <li>
      <CloseButton
        as={Link}
        to={`/tickets/${ticket.uuid}`}
        className="flex items-center gap-3 rounded-md px-2.5 py-2 hover:bg-surface-2 focus-visible:-outline-offset-2 max-sm:min-h-14"
      >
        <Avatar name={name} src={ticket.contact?.profilePicUrl || null} size={36} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className="min-w-0 flex-1 truncate font-medium text-fg text-sm">{name}</span>
            <span className="shrink-0 text-muted text-xs tnum">{shortTime(ticket.updatedAt)}</span>
          </span>
          <span className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate text-[13px] text-muted">{ticket.lastMessage}</span>
            <span
              className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 font-semibold text-[11px] text-on-primary tnum"
              title={t('ticketList.unread', { count: ticket.unreadMessages })}
            >
              {ticket.unreadMessages > 99 ? '99+' : ticket.unreadMessages}
            </span>
          </span>
        </span>
      </CloseButton>
    </li>
  )
}

/** The top bar's bell: the unread tickets (spec: notification popover for unread tickets). */
export function NotificationsPopover() {
  useSignals()
  const { t } = useTranslation()
  const list = useLiveList(unreadTicketsList)
  const count = list.items.length
  const permission = desktopPermission.value
  const label = count > 0 ? t('notifications.titleCount', { count }) : t('notifications.title')
  return (
    <Popover className="relative">
      <PopoverButton
        aria-label={label}
        title={label}
        data-testid="notifications-button"
        className="relative inline-flex size-9 items-center justify-center rounded-lg text-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg max-sm:size-11"
      >
        <Bell className="size-[18px]" aria-hidden />
        {count > 0 && (
          <span
            aria-hidden
            className="absolute top-1 right-0.5 inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-danger-solid px-1 font-bold text-[10px] text-white leading-none ring-2 ring-surface tnum max-sm:top-2 max-sm:right-1.5"
          >
            {count > 99 ? '99+' : count}
          </span>
        )}
      </PopoverButton>
      <PopoverPanel
        anchor="bottom end"
        transition
        className="z-50 flex max-h-[min(480px,80dvh)] w-[min(360px,calc(100vw-16px))] flex-col rounded-lg border border-border bg-surface shadow-pop [--anchor-gap:6px] transition duration-150 data-closed:opacity-0"
      >
        <div className="flex items-center justify-between gap-2 border-border border-b px-3.5 py-2.5">
          <span className="font-semibold text-fg text-sm">{t('notifications.title')}</span>
          {count > 0 && (
            <span className="text-muted text-xs tnum">{t('notifications.unreadCount', { count })}</span>
          )}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto p-1">
          {list.loading && count === 0 ? (
            <ul aria-hidden>
              {[0, 1, 2].map((i) => (
                <li key={i} className="flex items-center gap-3 px-2.5 py-2">
                  <Skeleton className="size-9 shrink-0 rounded-full" />
                  <span className="flex-1 space-y-1.5">
                    <Skeleton className="h-3.5 w-1/2" />
                    <Skeleton className="h-3 w-3/4" />
                  </span>
                </li>
              ))}
            </ul>
          ) : count === 0 ? (
            <div className="flex flex-col items-center gap-2 px-6 py-8 text-center">
              <Bell className="size-6 text-subtle" aria-hidden />
              <p className="font-medium text-fg text-sm">{t('notifications.emptyTitle')}</p>
              <p className="text-muted text-xs">{t('notifications.emptyText')}</p>
            </div>
          ) : (
            <ul aria-label={t('notifications.title')}>
              {list.items.map((ticket) => (
                <Entry key={ticket.id} ticket={ticket} />
              ))}
            </ul>
          )}
        </div>
        {permission === 'default' && (
          <button
            type="button"
            onClick={() => void requestDesktopPermission()}
            className="flex items-center gap-2 border-border border-t px-3.5 py-2.5 text-left text-link text-xs hover:bg-surface-2"
          >
            <BellRing className="size-3.5 shrink-0" aria-hidden />
            {t('notifications.enableDesktop')}
          </button>
        )}
        {permission === 'denied' && (
          <p className="flex items-center gap-2 border-border border-t px-3.5 py-2.5 text-muted text-xs">
            <BellOff className="size-3.5 shrink-0" aria-hidden />
            {t('notifications.desktopDenied')}
          </p>
        )}
      </PopoverPanel>
    </Popover>
  )
}
